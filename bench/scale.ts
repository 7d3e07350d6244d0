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
import { BenchGateway } from './gatewayClient';
import { percentile } from './load';
import type { AlarmEvent } from '../src/contract/live';
import {
  createFleet,
  type HouseModel,
  type TelemetryReading,
} from '../server/simulator/houseModel';

/**
 * One node, PostgreSQL, HOUSES houses each reporting every INTERVAL_S seconds with what the
 * simulator's house model sends (an environment controller's reading, faults included), for SECONDS: does ingest keep up (acknowledged ÷ offered,
 * PUBACK p99, which Roost sends only after the commit), do alarms still evaluate (publish of a
 * reading over a limit → the socket's alarm count), and what do the overview's and the wall's
 * API answers cost meanwhile. The server is its own process; the gateways are real TCP
 * connections from this one, one per house. Figures, never assertions.
 * `BENCH_ONLY=scale npm run bench` or `npx tsx bench/scale.ts`; BENCH_SCALE_LOG=file keeps the
 * server's output.
 */
const HOUSES = Number(process.env.BENCH_SCALE_HOUSES ?? 20_000);
const INTERVAL_S = Number(process.env.BENCH_SCALE_INTERVAL_S ?? 10);
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 60);
const TOKEN = 'bench-scale-token';
const HOUSES_PER_FARM = 50;
const PROVINCES = ['370000', '130000', '210000', '410000', '440000', '510000', '320000'];
const ALARM_SAMPLES = 20;
/** A sample not heard by then counts as this long. */
const ALARM_TIMEOUT_MS = 30_000;

export interface ScaleFigures {
  houses: number;
  offeredPerSecond: number;
  acknowledgedPerSecond: number;
  /** Acknowledged ÷ offered over the run: 1 when ingest keeps up. */
  keptUp: number;
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
  // One socket per house on each side (this process and the server, which inherits the limit).
  const openFiles = Number(
    /Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 0,
  );
  if (openFiles < HOUSES + 1_000)
    throw new Error(
      `${HOUSES} gateways need more open files than ${openFiles}: run under \`ulimit -n ${HOUSES * 2}\``,
    );
  const created = await pg.create();
  if (created.target.kind !== 'postgres') throw new Error('the scale bench runs on PostgreSQL');
  const databaseUrl = created.target.url;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'roost-scale-'));
  const port = await freePort();
  const mqttPort = await freePort();
  const server = runServer({
    PORT: String(port),
    MQTT_PORT: String(mqttPort),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ROOST_DEMO: '1',
    ROOST_DEMO_HISTORY: 'off',
    ROOST_SIMULATOR: 'off',
    ROOST_CAPTCHA: 'off',
  });
  const clients: BenchGateway[] = [];
  try {
    await server.waitFor(/Roost is running/, 120_000);
    const gateways = await seed(created.target);
    const base = `http://127.0.0.1:${port}`;
    const token = await signIn(base);

    const connectStart = performance.now();
    for (let i = 0; i < gateways.length; i += 200)
      clients.push(
        ...(await Promise.all(
          gateways.slice(i, i + 200).map((g) => connectWithRetry(mqttPort, g.networkId)),
        )),
      );
    process.stderr.write(`  ${clients.length} gateways connected\n`);
    const connectSeconds = Math.round((performance.now() - connectStart) / 100) / 10;

    // The fleet is built before the admin's socket connects: this process's event loop is the
    // socket's too, and a 45 s pause drops it (that once passed for "no alarm heard").
    const fleet = fleetOf(gateways);
    const socket = io(base, { auth: { token }, transports: ['websocket'], reconnection: false });
    await new Promise<void>((r) => socket.once('connect', () => r()));
    let socketDropped: string | null = null;
    socket.on('disconnect', (reason) => (socketDropped ??= reason));
    const load = startLoad(clients, gateways, fleet);
    const loadStart = os1();
    // The first interval warms caches and the JIT and fills every house's state: not measured.
    await sleep(INTERVAL_S * 1000);
    load.reset();

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
        alarms.push(await alarmRoundTrip(socket, load, gateways, i));
      await sleep(1_000);
    }
    const figures = load.stop();
    if (process.env.BENCH_SCALE_LOG) writeFileSync(process.env.BENCH_SCALE_LOG, server.output());
    socket.off('disconnect');
    socket.close();
    const rss = Number(
      /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0,
    );
    return {
      houses: gateways.length,
      ...figures,
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
    for (const c of clients) c.end();
    server.child.kill('SIGTERM');
    await server.exited;
    await created.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
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

interface Load {
  /** Starts counting afresh (after the warm-up). */
  reset(): void;
  /**
   * Sends `payload` from gateway `index` now, outside the schedule, and its regular readings go
   * the same way from now on; resolves on its PUBACK.
   */
  publishNow(index: number, payload: (reading: TelemetryReading) => string): Promise<void>;
  stop(): Omit<
    ScaleFigures,
    | 'houses'
    | 'socketDropped'
    | 'alarmP50Ms'
    | 'alarmP99Ms'
    | 'alarmSamples'
    | 'alarmTimeouts'
    | 'overviewP50Ms'
    | 'wallMapP50Ms'
    | 'wallHousesP50Ms'
    | 'connectSeconds'
    | 'serverRssMiB'
    | 'loadAverage'
  >;
}

/**
 * Every gateway publishes once per INTERVAL_S, their phases spread evenly over the interval, so
 * the offered rate is HOUSES / INTERVAL_S readings a second. A gateway whose previous reading
 * is still unacknowledged skips its turn (as a real one with QoS 1 and one message in flight
 * would queue it): the acknowledged rate then shows that ingest fell behind.
 */
/** The simulator's own house models: the readings (and the odd fault) a real fleet sends. */
function fleetOf(gateways: readonly Gateway[]): HouseModel[] {
  return createFleet(
    gateways.map((g) => ({
      networkId: g.networkId,
      typeKey: 25,
      breed: 'broiler',
      placedOn: new Date(Date.now() - (g.houseId % 42) * 86_400_000).toISOString().slice(0, 10),
      ageAtPlacement: 1,
      headCount: 20_000,
      latitude: 36,
      longitude: 119,
    })),
    7,
    Date.now(),
    INTERVAL_S * 1000,
  );
}

function startLoad(clients: BenchGateway[], gateways: Gateway[], fleet: HouseModel[]): Load {
  const busy = new Array<boolean>(gateways.length).fill(false);
  let offered = 0;
  let acked = 0;
  let failed = 0;
  let latencies: number[] = [];
  let start = performance.now();
  const asIs = (reading: TelemetryReading) => JSON.stringify(reading);
  /**
   * What a sampled house's readings say since its last sample (its CO2 over or under the
   * limit). Without it, the house's next regular reading, with the model's own CO2 a few
   * seconds after a sample raised the alarm, cleared it again; the next sample then waited 30 s
   * for a clear that had already happened, which read as an alarm heard after 30 s.
   */
  const sampled = new Map<number, (reading: TelemetryReading) => string>();
  const send = (g: number, payload: (reading: TelemetryReading) => string): Promise<void> => {
    const sent = performance.now();
    return clients[g]!.publishAsync(
      `roost/v1/${gateways[g]!.networkId}/telemetry`,
      payload(fleet[g]!.next(Date.now()).message),
    ).then(() => {
      latencies.push(performance.now() - sent);
    });
  };
  let next = 0;
  // Due readings from the clock, not from timer ticks: a loaded machine fires 10 ms timers late.
  const rate = gateways.length / INTERVAL_S;
  const began = performance.now();
  let scheduled = 0;
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - began) / 1000) * rate);
    while (scheduled < due) {
      scheduled += 1;
      const g = next;
      next = (next + 1) % gateways.length;
      offered += 1;
      if (busy[g]) continue;
      busy[g] = true;
      send(g, sampled.get(g) ?? asIs).then(
        () => {
          acked += 1;
          busy[g] = false;
        },
        () => {
          failed += 1;
          busy[g] = false;
        },
      );
    }
  }, 10);
  return {
    reset() {
      offered = acked = failed = 0;
      latencies = [];
      start = performance.now();
    },
    publishNow(g, payload) {
      sampled.set(g, payload);
      return send(g, payload);
    },
    stop() {
      clearInterval(timer);
      const seconds = (performance.now() - start) / 1000;
      return {
        offeredPerSecond: Math.round(offered / seconds),
        acknowledgedPerSecond: Math.round(acked / seconds),
        keptUp: Math.round((acked / Math.max(1, offered)) * 100) / 100,
        pubackP50Ms: Math.round(percentile(latencies, 50)),
        pubackP99Ms: Math.round(percentile(latencies, 99)),
        failed,
      };
    },
  };
}

/**
 * One of the sampled houses (which have a 0-second CO2 limit) publishes a reading over the
 * limit, or back under it: the time until the admin's socket hears that house's CO2 alarm
 * raised, or cleared, as the alarm list does. (The open-alarm count is no measure at this size:
 * other houses' alarms come and go meanwhile, and an unchanged total is not sent.)
 */
async function alarmRoundTrip(
  socket: ReturnType<typeof io>,
  load: Load,
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
  await load.publishNow(index, (reading) =>
    JSON.stringify({ ...reading, metrics: { ...reading.metrics, co2: over ? 15_000 : 1_000 } }),
  );
  await Promise.race([heard, sleep(ALARM_TIMEOUT_MS)]);
  socket.off(event, listener);
  return performance.now() - sent;
}

/** As a gateway does: a refused or dropped sign-in is tried again after a pause. */
async function connectWithRetry(port: number, networkId: string): Promise<BenchGateway> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await BenchGateway.connect(port, networkId, TOKEN, 1_800);
    } catch (error) {
      if (attempt >= 5) throw error;
      await sleep(1_000 * attempt);
    }
  }
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
