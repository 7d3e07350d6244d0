import { io, type Socket } from 'socket.io-client';
import { hashToken } from '../server/auth/tokens';
import { readConfig } from '../server/config';
import { DEMO_PASSWORD } from '../server/demo/demoFarms';
import type { DemoGateway } from '../server/demo/seed';
import { startRoost } from '../server/roost';
import { startSimulator } from '../server/simulator/simulator';
import type { Command } from '../src/contract/envcontrol';
import type { ClientToServerEvents, ServerToClientEvents } from '../src/contract/live';

/**
 * Remote configuration through the embedded broker: GATEWAYS simulated gateways connected
 * (their controllers answer at once, so the figures are Roost's own: HTTP, database, broker,
 * live hub), then ROUND_TRIPS single changes one after another (POST /envcontrol/send until
 * the browser's socket hears "applied"), then one change sent to FAN_OUT houses at once (until
 * the last "applied"). Everything shares this machine's cores. Runs only when named:
 * `BENCH_ONLY=commands npm run bench` or `npx tsx bench/commands.ts`.
 */
const GATEWAYS = Number(process.env.BENCH_COMMAND_GATEWAYS ?? 1_000);
const ROUND_TRIPS = Number(process.env.BENCH_COMMAND_ROUND_TRIPS ?? 200);
const FAN_OUT = Number(process.env.BENCH_COMMAND_FAN_OUT ?? 500);
const TOKEN = 'bench-command-token';
/** Readings are rare here: the bench is about commands, not ingest. */
const READING_INTERVAL_MS = 60_000;

export interface CommandBench {
  gateways: number;
  roundTripMs: { p50: number; p99: number; max: number; n: number };
  fanOut: { houses: number; allAppliedMs: number };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function benchCommands(): Promise<CommandBench> {
  const port = await freePort();
  const server = await startRoost(
    readConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: 'memory://',
      MQTT_PORT: String(port),
      ROOST_DEMO: '1',
      ROOST_DEMO_HISTORY: 'off',
      ROOST_SIMULATOR: 'off',
      ROOST_CAPTCHA: 'off',
      LOG_LEVEL: 'silent',
    }),
  );
  try {
    const gateways = await seedGateways(server.database, GATEWAYS);
    const sim = await startSimulator({
      url: `mqtt://127.0.0.1:${port}`,
      gateways,
      intervalMs: READING_INTERVAL_MS,
      seed: 11,
      controller: { applyDelayMs: [0, 0], localChangeChance: 0 },
    });
    try {
      // Every controller has reported: connected and subscribed.
      for (;;) {
        const [row] = await server.database.query<{ n: number }>(
          'select count(*)::int as n from gateway_params',
        );
        if (Number(row?.n) >= GATEWAYS) break;
        // Progress on stderr: on a loaded machine connecting 1,000 gateways takes a while.
        process.stderr.write(
          `  reported ${Number(row?.n)} / ${GATEWAYS}, connected ${sim.stats().connected}\n`,
        );
        await new Promise((r) => setTimeout(r, 500));
      }
      const login = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD, code: 'x' }),
      });
      const token = ((await login.json()) as { data: { token: string } }).data.token;
      const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(server.url, {
        auth: { token },
        transports: ['websocket'],
      });
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const applied = new Map<string, number>();
      const waiters = new Map<string, () => void>();
      socket.on('command:updated', (c: Command) => {
        if (c.state !== 'applied') return;
        applied.set(c.id, performance.now());
        waiters.get(c.id)?.();
      });
      const send = async (houseIds: number[], value: number) => {
        const res = await fetch(`${server.url}/api/envcontrol/send`, {
          method: 'POST',
          headers: { authorization: token, 'content-type': 'application/json' },
          body: JSON.stringify({ houseIds, params: { alarm_nh3_high: value } }),
        });
        return ((await res.json()) as { data: { commands: Command[] } }).data.commands;
      };

      const times: number[] = [];
      for (let i = 0; i < ROUND_TRIPS; i += 1) {
        const gw = gateways[(i * 7) % gateways.length]!;
        const start = performance.now();
        const [command] = await send([gw.houseId], 20 + (i % 30));
        await new Promise<void>((resolve) => {
          if (applied.has(command!.id)) resolve();
          else waiters.set(command!.id, resolve);
        });
        times.push(applied.get(command!.id)! - start);
      }
      times.sort((a, b) => a - b);

      const targets = gateways.slice(0, FAN_OUT).map((g) => g.houseId);
      const start = performance.now();
      const commands = await send(targets, 40);
      await new Promise<void>((resolve) => {
        const check = () => {
          if (commands.every((c) => applied.has(c.id))) resolve();
        };
        for (const c of commands) waiters.set(c.id, check);
        check();
      });
      const last = Math.max(...commands.map((c) => applied.get(c.id)!));
      socket.disconnect();
      return {
        gateways: GATEWAYS,
        roundTripMs: {
          p50: Math.round(pct(times, 50)),
          p99: Math.round(pct(times, 99)),
          max: Math.round(times[times.length - 1]!),
          n: times.length,
        },
        fanOut: { houses: targets.length, allAppliedMs: Math.round(last - start) },
      };
    } finally {
      await sim.stop();
    }
  } finally {
    await server.close();
  }
}

/** GATEWAYS houses of bench farms with a gateway each (iEC12, an environment controller). */
async function seedGateways(
  database: Awaited<ReturnType<typeof startRoost>>['database'],
  count: number,
): Promise<DemoGateway[]> {
  await database.query(
    `insert into farms (org_id, parent_id, level, name, province_adcode, province_name, longitude, latitude)
     select (select id from organizations order by id limit 1), null, 'farm',
       'Command bench farm ' || lpad(g::text, 3, '0'), '370000', 'Shandong', 119, 36
     from generate_series(1, $1::int) g`,
    [Math.ceil(count / 100)],
  );
  const houses = await database.query<{ id: number; name: string; farm: string }>(
    `insert into houses (farm_id, name, sort)
     select f.id, 'House ' || s, s
     from (select id, row_number() over (order by id) as r from farms where name like 'Command bench farm %') f,
          generate_series(1, 100) s
     where (f.r - 1) * 100 + s <= $1
     returning id, name, (select name from farms where id = farm_id) as farm`,
    [count],
  );
  await database.query(
    `insert into gateways (house_id, network_id, type_key, token_hash, interval_seconds)
     select h, 'CMD' || lpad(h::text, 6, '0'), 25, $2, 60 from unnest($1::int[]) h`,
    [houses.map((h) => h.id), hashToken(TOKEN)],
  );
  return houses.map((h) => ({
    networkId: `CMD${String(h.id).padStart(6, '0')}`,
    token: TOKEN,
    houseId: Number(h.id),
    houseName: h.name,
    farmName: h.farm,
    typeKey: 25,
    breed: 'broiler',
    placedOn: new Date().toISOString().slice(0, 10),
    ageAtPlacement: 1,
    headCount: 20_000,
    provinceAdcode: '370000',
    longitude: 119,
    latitude: 36,
  }));
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchCommands().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
