import { parseArgs } from 'node:util';
import { loadSettings, parseAddress, readCa, resolveProfile } from './config';
import { House } from './house';
import { EdgeFileError } from './loadFile';
import { ModbusLine } from './modbus';
import { loadProfile } from './profile';
import { EdgeStats } from './stats';

/**
 * Roost Edge: serves one or more houses' Modbus controllers to Roost as gateways.
 *   npm run edge -- --config edge.json           run
 *   npm run edge -- check --profile P --device tcp://host:port?unit=1   read a device once
 *   npm run edge -- enroll <code>                 fetch a house's credentials
 */
const LOG_LINES = 1000;
const recent: string[] = [];
function log(line: string): void {
  const stamped = `${new Date().toISOString()} ${line}`;
  recent.push(stamped);
  if (recent.length > LOG_LINES) recent.shift();
  console.log(stamped);
}

async function run(configFile: string): Promise<number> {
  const settings = loadSettings(configFile);
  const lines = new Map<string, ModbusLine>();
  const ca = readCa(settings.caFile);
  const stats = new EdgeStats();
  const houses = settings.houses.map(
    (h) =>
      new House(h, {
        dataDir: settings.dataDir,
        maxBytes: settings.maxBytes,
        maxAgeMs: settings.maxAgeMs,
        version: settings.version,
        ca,
        lineFor(key, make) {
          const line = lines.get(key) ?? make();
          lines.set(key, line);
          return line;
        },
        newLine: (d) => new ModbusLine(d.transport, stats),
        log,
        recentLog: (n) => recent.slice(-n).map((l) => l.slice(0, 500)),
      }),
  );
  for (const h of houses) {
    h.start();
    log(
      `serving ${h.settings.name} as ${h.settings.networkId} at ${h.settings.mqttUrl}: ${h.settings.devices.length} device(s)`,
    );
  }
  log('roost-edge running');
  const statsTimer = setInterval(() => {
    const s = stats.take();
    log(
      `stats: ${s.requests} requests, ${s.failed} failed, round trip p50 ${s.p50Ms} ms p99 ${s.p99Ms} ms`,
    );
    for (const h of houses) {
      const c = h.store.counters;
      log(
        `stats: ${h.settings.name}: ${h.store.size} waiting, ${c.sent} sent, dropped ${c.droppedForSize} (store full) ${c.droppedForAge} (too old)`,
      );
    }
  }, settings.statsMs);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(statsTimer);
  log('roost-edge stopping');
  await Promise.all(houses.map((h) => h.stop()));
  for (const line of lines.values()) line.close();
  return 0;
}

/** Reads a live device once with a profile and prints what Roost would receive. */
async function check(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      profile: { type: 'string' },
      device: { type: 'string' },
      timeout: { type: 'string' },
    },
  });
  if (!values.profile || !values.device) {
    console.error('usage: roost-edge check --profile <file> --device tcp://host:port?unit=1');
    return 2;
  }
  const profile = loadProfile(resolveProfile(values.profile, process.cwd()));
  const unit = Number(new URL(values.device).searchParams.get('unit') ?? 1);
  const timeoutMs = Number(values.timeout ?? 1000);
  const { Device } = await import('./device');
  const line = new ModbusLine(parseAddress(values.device));
  const device = new Device(
    {
      name: 'check',
      profile,
      profileFile: values.profile,
      transport: line.transport,
      unitId: unit,
      pollMs: 1000,
      timeoutMs,
      retries: 0,
    },
    line,
    { polled: () => undefined, healthChanged: () => undefined },
  );
  console.log(`${profile.model}: ${device.plan.length} request(s)`);
  for (const b of device.plan) console.log(`  ${b.function} ${b.start}..${b.start + b.count - 1}`);
  try {
    const read = await device.readAll();
    for (const [k, v] of Object.entries(read.metrics)) console.log(`metric ${k} = ${v}`);
    if (read.mode !== undefined) console.log(`mode = ${read.mode}`);
    for (const [k, v] of Object.entries(read.alarms))
      console.log(`alarm ${k} = ${v ? 'active' : 'clear'}`);
    for (const [k, v] of Object.entries(read.params)) console.log(`param ${k} = ${v}`);
    return 0;
  } catch (error) {
    console.error(`cannot read: ${(error as Error).message}`);
    return 1;
  } finally {
    line.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'enroll') {
    const { enrolCommand } = await import('./enrol');
    return enrolCommand(rest);
  }
  if (command === 'check') return check(rest);
  const { values } = parseArgs({ args: argv, options: { config: { type: 'string' } } });
  if (!values.config) {
    console.error(
      'usage: npm run edge -- --config <file>  |  check --profile <file> --device <address>  |  enroll <code>',
    );
    return 2;
  }
  return run(values.config);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof EdgeFileError) console.error(`roost-edge cannot start:\n${error.message}`);
    else console.error(error);
    process.exit(1);
  },
);
