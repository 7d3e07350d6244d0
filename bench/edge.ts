import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hashToken } from '../server/auth/tokens';
import { testDatabaseTargets } from '../tests/helpers/databases';
import { startTestRoost } from '../tests/helpers/testRoost';
import { startDevice, startEdge, type Child } from '../tests/edge/edgeProcesses';
import { BenchGateway } from './gatewayClient';

/**
 * Roost Edge under a farm's load, in its own process as `npm run edge` runs it: DEVICES Modbus
 * TCP devices (Debian's pymodbus, SERVERS processes each serving several unit ids, as a serial
 * server does) of 40 input registers each, one device a house, polled every 5 s. Over a
 * minute: the edge's CPU as a share of one core, its RSS, and the Modbus round trips' p50/p99
 * (from the edge's own stats line). Then the backfill: a 24-hour store of readings for each
 * house (one a minute, Roost's usual gateway interval) written to the edge's disk, the edge
 * started, and the time until the server has stored all of them, beside the server's own
 * ingest rate of as many readings of the same shape sent by bare gateways (50 connections, at
 * most 100 unacknowledged each, like the edge) in the same run. Runs only when named:
 * `BENCH_ONLY=edge npm run bench`. Figures, never assertions.
 */
const DEVICES = 50;
const SERVERS = 10;
const REGISTERS = 40;
const POLL_S = 5;
const MEASURE_S = Number(process.env.BENCH_EDGE_SECONDS ?? 60);
const BACKFILL_EVERY_S = 60;
const BACKFILL_HOURS = 24;
/** The brief's port range for this bench's Modbus devices. */
const FIRST_PORT = Number(process.env.BENCH_EDGE_PORT ?? 15400);
const TOKEN = 'edge-bench-token-0123456789abcdef0123';

export interface EdgeFigures {
  devices: number;
  registers: number;
  pollSeconds: number;
  requests: number;
  failed: number;
  cpuShareOfOneCore: number;
  rssMiB: number;
  roundTripP50Ms: number;
  roundTripP99Ms: number;
  backfillReadings: number;
  backfillPerSecond: number;
  ingestPerSecond: number;
  /** Connections the broker closed during the ingest run (each message then sent again). */
  ingestReconnects: number;
  backfillOverIngest: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TICK = 100; // USER_HZ on Linux

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}
function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1];
  return Math.round((Number(kb) / 1024) * 10) / 10;
}

/** A reading as the edge sends it with the bench profile: six metrics. */
function telemetry(ts: number, seq: number): string {
  return JSON.stringify({
    ts,
    seq,
    metrics: { temperature: 21.5, humidity: 60, co2: 900, nh3: 4.2, light: 20, pressure: 1.5 },
  });
}

export async function benchEdge(): Promise<EdgeFigures> {
  const dir = mkdtempSync('/tmp/h47-edge-bench-');
  const t = await startTestRoost(testDatabaseTargets()[0]!, { logLevel: 'error' });
  const children: Child[] = [];
  try {
    const gateways = await seedGateways(t.roost.database);
    // Six measurements and 34 alarm words in registers 0..39: one request of 40 registers.
    const profile = {
      note: 'bench profile',
      model: 'Bench 40-register controller',
      points: ['temperature', 'humidity', 'co2', 'nh3', 'light', 'pressure'].map((metric, i) => ({
        metric,
        function: 'input',
        register: i,
        type: 'uint16',
      })),
      alarms: Array.from({ length: REGISTERS - 6 }, (_, i) => ({
        function: 'input',
        register: 6 + i,
        bit: 0,
        code: `bench_alarm_${i}`,
      })),
    };
    writeFileSync(path.join(dir, 'bench-profile.json'), JSON.stringify(profile));
    const input = Object.fromEntries(
      Array.from({ length: REGISTERS }, (_, i) => [i, i < 6 ? 100 + i : 0]),
    );
    const perServer = DEVICES / SERVERS;
    for (let s = 0; s < SERVERS; s += 1)
      children.push(
        await startDevice(
          dir,
          { tcp: FIRST_PORT + s },
          { input },
          {
            units: Array.from({ length: perServer }, (_, u) => u + 1),
          },
        ),
      );
    const config = (dataDir: string) => ({
      mqttUrl: t.mqttUrl,
      dataDir,
      statsMinutes: MEASURE_S / 60,
      houses: gateways.map((g, i) => ({
        name: g.networkId,
        networkId: g.networkId,
        token: TOKEN,
        intervalSeconds: POLL_S,
        devices: [
          {
            name: 'ctl',
            profile: path.join(dir, 'bench-profile.json'),
            address: `tcp://127.0.0.1:${FIRST_PORT + Math.floor(i / perServer)}`,
            unitId: (i % perServer) + 1,
            pollSeconds: POLL_S,
          },
        ],
      })),
    });
    writeFileSync(path.join(dir, 'poll.json'), JSON.stringify(config(path.join(dir, 'poll'))));
    const edge = startEdge(['--config', path.join(dir, 'poll.json')]);
    children.push(edge);
    // The first stats line closes the warm-up period; the second is the measured one.
    await edge.waitFor(/stats: \d+ requests/, (MEASURE_S + 60) * 1000);
    const pid = edge.child.pid!;
    const ticks = cpuTicks(pid);
    const from = performance.now();
    const seen = edge.output().length;
    await waitForOutput(edge, seen, (MEASURE_S + 60) * 1000);
    const seconds = (performance.now() - from) / 1000;
    const cpu = (cpuTicks(pid) - ticks) / TICK / seconds;
    const rss = rssMiB(pid);
    const line =
      /stats: (\d+) requests, (\d+) failed, round trip p50 ([\d.]+) ms p99 ([\d.]+) ms/.exec(
        edge.output().slice(seen),
      )!;
    await edge.kill();
    console.error(
      `edge bench: polling ${line[0]}, cpu ${cpu.toFixed(3)} of a core, rss ${rss} MiB`,
    );

    // The server's own ingest of as many readings, 24 to 48 hours ago, from bare gateways.
    const perHouse = (BACKFILL_HOURS * 3600) / BACKFILL_EVERY_S;
    const total = perHouse * gateways.length;
    const dayStart = Date.now() - 48 * 3600_000;
    let reconnects = 0;
    const ingestStart = performance.now();
    await Promise.all(
      gateways.map(async (g) => {
        const topic = `roost/v1/${g.networkId}/telemetry`;
        let client: Promise<BenchGateway> | null = null;
        const connection = () =>
          (client ??= BenchGateway.connect(t.roost.mqttPort!, g.networkId, TOKEN));
        let next = 0;
        const lane = async () => {
          while (next < perHouse) {
            const k = next++;
            // A connection the broker closes (its answer to a message it could not store) is
            // opened again and the message sent again, as a gateway does; Roost stores it once.
            for (;;) {
              const c = await connection();
              try {
                await c.publishAsync(
                  topic,
                  telemetry(dayStart + k * BACKFILL_EVERY_S * 1000, k + 1),
                );
                break;
              } catch (error) {
                if (client && (await client) === c) {
                  client = null;
                  reconnects += 1;
                  if (reconnects <= 3)
                    console.error(`ingest: ${g.networkId}: ${(error as Error).message}`);
                }
              }
            }
          }
        };
        await Promise.all(Array.from({ length: 100 }, lane));
        (await connection()).end();
      }),
    );
    const ingestSeconds = (performance.now() - ingestStart) / 1000;
    console.error(
      `edge bench: server ingest ${((perHouse * gateways.length) / ingestSeconds).toFixed(0)} readings/s`,
    );

    // The edge's store after a day without a link, as its segment files hold it.
    const backfillDir = path.join(dir, 'backfill');
    const backfillStart = Date.now() - BACKFILL_HOURS * 3600_000;
    for (const g of gateways) {
      const houseDir = path.join(backfillDir, g.networkId.replace(/[^A-Za-z0-9_-]/g, '_'));
      mkdirSync(houseDir, { recursive: true });
      const topic = `roost/v1/${g.networkId}/telemetry`;
      const lines: string[] = [];
      for (let k = 0; k < perHouse; k += 1) {
        const ts = backfillStart + k * BACKFILL_EVERY_S * 1000;
        lines.push(JSON.stringify({ n: k + 1, t: ts, topic, payload: telemetry(ts, k + 1) }));
      }
      writeFileSync(path.join(houseDir, 'seg-000000000001.jsonl'), `${lines.join('\n')}\n`);
    }
    const backfilled = async () =>
      (
        await t.roost.database.query<{ n: number }>(
          'select count(*)::int as n from telemetry where ts >= $1 and ts < $2',
          [new Date(backfillStart), new Date(backfillStart + BACKFILL_HOURS * 3600_000)],
        )
      )[0]!.n;
    writeFileSync(path.join(dir, 'backfill.json'), JSON.stringify(config(backfillDir)));
    const second = startEdge(['--config', path.join(dir, 'backfill.json')]);
    children.push(second);
    await second.waitFor(/connected to/, 600_000);
    const backfillFrom = performance.now();
    while ((await backfilled()) < total) {
      if (performance.now() - backfillFrom > 1_800_000)
        throw new Error('backfill took over 30 min');
      await sleep(250);
    }
    const backfillSeconds = (performance.now() - backfillFrom) / 1000;
    await second.kill();
    const backfillPerSecond = total / backfillSeconds;
    const ingestPerSecond = total / ingestSeconds;
    return {
      devices: DEVICES,
      registers: REGISTERS,
      pollSeconds: POLL_S,
      requests: Number(line[1]),
      failed: Number(line[2]),
      cpuShareOfOneCore: Math.round(cpu * 1000) / 1000,
      rssMiB: rss,
      roundTripP50Ms: Number(line[3]),
      roundTripP99Ms: Number(line[4]),
      backfillReadings: total,
      backfillPerSecond: Math.round(backfillPerSecond),
      ingestPerSecond: Math.round(ingestPerSecond),
      ingestReconnects: reconnects,
      backfillOverIngest: Math.round((backfillPerSecond / ingestPerSecond) * 100) / 100,
    };
  } finally {
    for (const c of children.reverse()) await c.kill();
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function waitForOutput(edge: Child, after: number, ms: number): Promise<void> {
  const start = Date.now();
  while (!/stats: \d+ requests/.test(edge.output().slice(after))) {
    if (Date.now() - start > ms) throw new Error(`no stats line within ${ms} ms`);
    await sleep(100);
  }
}

/** DEVICES houses, each with a gateway the edge serves. */
export async function seedGateways(
  database: Awaited<ReturnType<typeof startTestRoost>>['roost']['database'],
): Promise<Array<{ networkId: string; houseId: number }>> {
  await database.query(
    `insert into farms (org_id, parent_id, level, name, province_adcode, province_name, longitude, latitude)
     values ((select id from organizations order by id limit 1), null, 'farm', 'Edge bench farm', '370000', 'Shandong', 119, 36)`,
  );
  const houses = await database.query<{ id: number }>(
    `insert into houses (farm_id, name, sort)
     select (select id from farms where name = 'Edge bench farm'), 'House ' || s, s
     from generate_series(1, $1::int) s returning id`,
    [DEVICES],
  );
  await database.query(
    `insert into gateways (house_id, network_id, type_key, token_hash, interval_seconds)
     select h, 'EDGE' || lpad(h::text, 6, '0'), 25, $2, ${POLL_S} from unnest($1::int[]) h`,
    [houses.map((h) => h.id), hashToken(TOKEN)],
  );
  return houses.map((h) => ({ networkId: `EDGE${String(h.id).padStart(6, '0')}`, houseId: h.id }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchEdge().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
