import { topUpHouses } from './seedHouses';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { io } from 'socket.io-client';
import { hashToken } from '../server/auth/tokens';
import { openDatabase, type DatabaseTarget } from '../server/db/open';
import { DEMO_PASSWORD } from '../server/demo/demoFarms';
import { testDatabaseTargets } from '../tests/helpers/databases';
import { freePort, runServer } from '../tests/helpers/processes';
import { percentile } from './load';
import { startMosquittos } from './mosquitto';
import { Fleet } from './scaleFleet';
import type { AlarmEvent } from '../src/contract/live';

/**
 * One node, PostgreSQL, HOUSES houses each reporting every INTERVAL_S seconds with what the
 * simulator's house model sends (an environment controller's reading, faults included), for
 * SECONDS: does ingest keep up (stored ÷ offered, from the server's own /metrics; the PUBACK
 * p99), do alarms still evaluate (publish of a reading over a limit → the socket's alarm
 * event), and what do the overview's and the wall's API answers cost meanwhile. The server is
 * its own process; the gateways are real TCP connections from child processes (scaleFleet.ts),
 * one per house. Figures, never assertions.
 *
 * BENCH_SCALE_BROKER=embedded (the default where the houses fit): gateways connect to Roost's own broker, which sends
 * the PUBACK after the commit; the server then holds a socket per house, so HOUSES stays under
 * the open-files limit. BENCH_SCALE_BROKER=mosquitto: gateways connect to Mosquitto brokers of
 * the bench's own (10,000 a broker, bridged to the one Roost subscribes on), which acknowledge
 * on receipt; the default where the houses would not fit. `BENCH_ONLY=scale npm run bench` or `npx tsx bench/scale.ts`; BENCH_SCALE_LOG=file
 * keeps the server's output.
 */
const HOUSES = Number(process.env.BENCH_SCALE_HOUSES ?? 20_000);
const INTERVAL_S = Number(process.env.BENCH_SCALE_INTERVAL_S ?? 10);
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 60);
/** Gateways on one Mosquitto: its open files (20,000 here) hold them and the bridge. */
const GATEWAYS_PER_BROKER = 10_000;
const TOKEN = 'bench-scale-token';
const METRICS_TOKEN = 'bench-scale-metrics-token';
const HOUSES_PER_FARM = 50;
const PROVINCES = ['370000', '130000', '210000', '410000', '440000', '510000', '320000'];
const ALARM_SAMPLES = 20;
/** A sample not heard by then counts as this long. */
const ALARM_TIMEOUT_MS = 30_000;

export interface ScaleFigures {
  houses: number;
  broker: 'embedded' | 'mosquitto';
  offeredPerSecond: number;
  storedPerSecond: number;
  /** Stored ÷ offered over the measured time: 1 when ingest keeps up. */
  keptUp: number;
  /** After the load stops, how long the server went on storing what had queued up. */
  drainSeconds: number;
  /** Publish → PUBACK: after the commit on the embedded broker, on receipt on Mosquitto. */
  pubackP50Ms: number;
  pubackP99Ms: number;
  failed: number;
  /** Why the admin's socket closed during the run (its alarm times then mean nothing), or null. */
  socketDropped: string | null;
  alarmP50Ms: number;
  alarmP99Ms: number;
  /** How many alarm round trips the run had time for (up to 20), and how many waited 30 s. */
  alarmSamples: number;
  alarmTimeouts: number;
  overviewP50Ms: number;
  wallMapP50Ms: number;
  wallHousesP50Ms: number;
  connectSeconds: number;
  serverRssMiB: number;
  loadAverage: [number, number];
}

export async function benchScale(): Promise<ScaleFigures | null> {
  const pg = testDatabaseTargets().find((t) => t.name === 'postgres');
  if (!pg) return null;
  // On the embedded broker the server holds one socket per house (and inherits this limit);
  // unless told, the bench takes Mosquitto where the houses would not fit.
  const openFiles = Number(
    /Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 0,
  );
  const fits = openFiles >= HOUSES + 1_000;
  const asked = process.env.BENCH_SCALE_BROKER;
  const BROKER = asked === 'mosquitto' || (!asked && !fits) ? 'mosquitto' : 'embedded';
  if (BROKER === 'embedded' && !fits)
    throw new Error(
      `${HOUSES} gateways on the embedded broker need more open files than ${openFiles}: ` +
        `run under \`ulimit -n ${HOUSES + 1_000}\` or with BENCH_SCALE_BROKER=mosquitto`,
    );
  const created = await pg.create();
  if (created.target.kind !== 'postgres') throw new Error('the scale bench runs on PostgreSQL');
  const databaseUrl = created.target.url;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'roost-scale-'));
  const port = await freePort();
  const brokers =
    BROKER === 'mosquitto' ? await startMosquittos(Math.ceil(HOUSES / GATEWAYS_PER_BROKER)) : null;
  const mqttPort = brokers ? brokers.ports[0]! : await freePort();
  const server = runServer({
    PORT: String(port),
    ...(brokers ? { MQTT_URL: `mqtt://127.0.0.1:${mqttPort}` } : { MQTT_PORT: String(mqttPort) }),
    ROOST_METRICS_TOKEN: METRICS_TOKEN,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ROOST_DEMO: '1',
    ROOST_DEMO_HISTORY: 'off',
    ROOST_SIMULATOR: 'off',
    ROOST_CAPTCHA: 'off',
  });
  let fleet: Fleet | null = null;
  try {
    await server.waitFor(/Roost is running/, 120_000);
    const gateways = (await seed(created.target)).map((g, i) => ({
      ...g,
      port: brokers ? brokers.ports[Math.floor(i / GATEWAYS_PER_BROKER)]! : mqttPort,
    }));
    const base = `http://127.0.0.1:${port}`;
    const token = await signIn(base);

    const connectStart = performance.now();
    fleet = await Fleet.connect(gateways, TOKEN, INTERVAL_S);
    process.stderr.write(`  ${fleet.size} gateways connected (${BROKER} broker)\n`);
    const connectSeconds = Math.round((performance.now() - connectStart) / 100) / 10;

    const socket = io(base, { auth: { token }, transports: ['websocket'], reconnection: false });
    await new Promise<void>((r) => socket.once('connect', () => r()));
    let socketDropped: string | null = null;
    socket.on('disconnect', (reason) => (socketDropped ??= reason));
    fleet.startLoad();
    const loadStart = os1();
    // The first interval warms caches and the JIT and fills every house's state: not measured.
    await sleep(INTERVAL_S * 1000);
    fleet.reset();
    const storedAtStart = await storedReadings(base);
    const measureStart = performance.now();

    const timed = async (url: string) => {
      const start = performance.now();
      // As a console asks: Chromium accepts Brotli, which the server makes at quality 2, cheaper
      // than the gzip Node's fetch asks for by itself.
      const res = await fetch(`${base}${url}`, {
        headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br, zstd' },
      });
      const body = await res.text();
      if (res.status !== 200)
        throw new Error(`${url} answered ${res.status}: ${body}\n${server.output().slice(-4000)}`);
      return performance.now() - start;
    };
    const overview: number[] = [];
    const wallMap: number[] = [];
    const wallHouses: number[] = [];
    const alarms: number[] = [];
    const until = performance.now() + SECONDS * 1000;
    for (let i = 0; performance.now() < until; i += 1) {
      overview.push(await timed('/api/overview/listOverview/'));
      wallMap.push(await timed('/api/wall/map'));
      wallHouses.push(await timed('/api/wall/houses'));
      if (alarms.length < ALARM_SAMPLES)
        alarms.push(await alarmRoundTrip(socket, fleet, gateways, i));
      await sleep(1_000);
    }
    const load = await fleet.stop();
    const seconds = (performance.now() - measureStart) / 1000;
    const stored = (await storedReadings(base)) - storedAtStart;
    const drainSeconds = await drained(base);
    if (process.env.BENCH_SCALE_LOG) writeFileSync(process.env.BENCH_SCALE_LOG, server.output());
    socket.off('disconnect');
    socket.close();
    const rss = Number(
      /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0,
    );
    return {
      houses: gateways.length,
      broker: BROKER,
      offeredPerSecond: Math.round(load.offered / seconds),
      storedPerSecond: Math.round(stored / seconds),
      keptUp: Math.round((stored / Math.max(1, load.offered)) * 100) / 100,
      drainSeconds,
      pubackP50Ms: Math.round(percentile(load.latencies, 50)),
      pubackP99Ms: Math.round(percentile(load.latencies, 99)),
      failed: load.failed,
      socketDropped,
      alarmP50Ms: Math.round(percentile(alarms, 50)),
      alarmP99Ms: Math.round(percentile(alarms, 99)),
      alarmSamples: alarms.length,
      alarmTimeouts: alarms.filter((ms) => ms >= ALARM_TIMEOUT_MS).length,
      overviewP50Ms: Math.round(percentile(overview, 50)),
      wallMapP50Ms: Math.round(percentile(wallMap, 50)),
      wallHousesP50Ms: Math.round(percentile(wallHouses, 50)),
      connectSeconds,
      serverRssMiB: Math.round(rss / 1024),
      loadAverage: [loadStart, os1()],
    };
  } finally {
    fleet?.close();
    server.child.kill('SIGTERM');
    await server.exited;
    await brokers?.stop();
    await created.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The readings the server has written since it started, as its /metrics tells. */
async function storedReadings(base: string): Promise<number> {
  const res = await fetch(`${base}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await res.text();
  const stored = /^roost_readings_stored_total (\d+)/m.exec(text)?.[1];
  if (stored === undefined) throw new Error(`/metrics answered ${res.status} without the count`);
  return Number(stored);
}

/** Seconds until the stored count stops growing (a second without a reading), up to 60. */
async function drained(base: string): Promise<number> {
  const start = performance.now();
  let last = await storedReadings(base);
  let still = performance.now();
  while (performance.now() - still < 1_000 && performance.now() - start < 60_000) {
    await sleep(100);
    const now = await storedReadings(base);
    if (now !== last) {
      last = now;
      still = performance.now();
    }
  }
  return Math.round((still - start) / 100) / 10;
}

interface Gateway {
  networkId: string;
  houseId: number;
}

/**
 * HOUSES houses in farms of 50 across seven provinces, each with a gateway (iEC12) that signs
 * in with one bench token, an open broiler flock, and a 0-second CO2 alarm limit on the few
 * houses the alarm samples use, in set-based statements.
 */
async function seed(target: DatabaseTarget): Promise<Gateway[]> {
  const database = await openDatabase(target);
  try {
    await topUpHouses(database, {
      houses: HOUSES,
      perFarm: HOUSES_PER_FARM,
      farmPrefix: 'Scale farm',
      provinces: PROVINCES,
    });
    await database.query(
      `insert into gateways (house_id, network_id, type_key, token_hash, interval_seconds)
       select h.id, 'SCL' || lpad(h.id::text, 6, '0'), 25, $1, $2
       from houses h where not exists (select 1 from gateways g where g.house_id = h.id)`,
      [hashToken(TOKEN), INTERVAL_S],
    );
    await database.query('update gateways set token_hash = $1, interval_seconds = $2', [
      hashToken(TOKEN),
      INTERVAL_S,
    ]);
    const rows = await database.query<{ network_id: string; house_id: number }>(
      'select network_id, house_id from gateways order by house_id',
    );
    // The first houses are the demo's, which have limits of their own (with minimum durations):
    // the samples' limits are merged into them, or no sample would raise within its 30 s.
    const sampled = rows.slice(0, ALARM_SAMPLES * 2).map((r) => r.house_id);
    await database.query(
      `insert into alarm_limits (house_id, limits)
       select h, '{"minDurationSeconds":0,"clearHoldSeconds":0}' from unnest($1::int[]) h
       on conflict (house_id) do update set limits = alarm_limits.limits || excluded.limits`,
      [sampled],
    );
    return rows.map((r) => ({ networkId: r.network_id, houseId: Number(r.house_id) }));
  } finally {
    await database.close();
  }
}

/**
 * One of the sampled houses (which have a 0-second CO2 limit) publishes a reading over the
 * limit, or back under it: the time until the admin's socket hears that house's CO2 alarm
 * raised, or cleared, as the alarm list does. (The open-alarm count is no measure at this size:
 * other houses' alarms come and go meanwhile, and an unchanged total is not sent.)
 */
async function alarmRoundTrip(
  socket: ReturnType<typeof io>,
  fleet: Fleet,
  gateways: readonly Gateway[],
  i: number,
): Promise<number> {
  const index = Math.floor(i / 2) % ALARM_SAMPLES;
  const houseId = gateways[index]!.houseId;
  const over = i % 2 === 0;
  const event = over ? 'alarm:raised' : 'alarm:cleared';
  let listener: (alarm: AlarmEvent) => void = () => undefined;
  const heard = new Promise<void>((resolve) => {
    listener = (alarm) => {
      if (alarm.houseId === houseId && alarm.cause === 'co2High') resolve();
    };
    socket.on(event, listener);
  });
  const sent = performance.now();
  await fleet.sample(index, over ? 15_000 : 1_000);
  await Promise.race([heard, sleep(ALARM_TIMEOUT_MS)]);
  socket.off(event, listener);
  return performance.now() - sent;
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD, code: 'x' }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const os1 = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchScale().then(
    (f) => console.log(JSON.stringify(f, null, 2)),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
