import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/open';
import { disableNagle } from '../../server/mqtt/noDelay';
import type { DemoGateway } from '../../server/demo/seed';
import { testDatabaseTargets } from '../helpers/databases';
import { startFaultProxy } from '../helpers/faultProxy';
import { freePort, runServer } from '../helpers/processes';

const GATEWAYS = 10;
/** Each gateway sends this many readings a second: 200 readings/s in all. */
const PER_GATEWAY_PER_SECOND = 20;
const CUTS = 10;
/** How long the database stays away each time. */
const AWAY_MS = 800;

const tmp = mkdtempSync(path.join(tmpdir(), 'roost-dbfault-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The link to PostgreSQL is what is cut here: PGlite runs inside the process and has none.
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL cut off during ingest', () => {
  it(`survives ${CUTS} cuts at 200 readings/s: the process stays up, every acknowledged reading is stored once, health follows the database`, async () => {
    const postgres = testDatabaseTargets().find((t) => t.name === 'postgres')!;
    const created = await postgres.create();
    if (created.target.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const dbUrl = new URL(created.target.url);
    const proxy = await startFaultProxy({
      host: dbUrl.hostname,
      port: Number(dbUrl.port || 5432),
    });
    const viaProxy = new URL(created.target.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const dataDir = path.join(tmp, 'data');
    const port = await freePort();
    const env: Record<string, string> = {
      PORT: String(port),
      MQTT_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DATABASE_URL: viaProxy.toString(),
      ROOST_DEMO: '1',
      ROOST_DEMO_HISTORY: 'off',
      ROOST_SIMULATOR: 'off',
      ROOST_CAPTCHA: 'off',
    };
    const server = runServer(env);
    let exitedEarly = false;
    void server.exited.then(() => (exitedEarly = true));
    const clients: MqttClient[] = [];
    const health = async (): Promise<number> => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/api/health`)).status;
      } catch {
        return 0;
      }
    };
    const healthBecomes = async (status: number, withinMs: number): Promise<boolean> => {
      const until = Date.now() + withinMs;
      while (Date.now() < until) {
        if ((await health()) === status) return true;
        await sleep(100);
      }
      return false;
    };
    try {
      await server.waitFor(/Roost is running/, 90_000);
      const gateways = (
        JSON.parse(readFileSync(path.join(dataDir, 'demo-gateways.json'), 'utf8')) as DemoGateway[]
      ).slice(0, GATEWAYS);
      const acked = new Map<string, number>();
      let sending = true;
      const start = Date.now() - 60_000;
      const runGateway = async (gw: DemoGateway, index: number) => {
        const client = disableNagle(
          mqtt.connect(`mqtt://127.0.0.1:${env.MQTT_PORT}`, {
            username: gw.networkId,
            password: gw.token,
            clientId: `fault-${gw.networkId}`,
            clean: false,
            reconnectPeriod: 200,
            connectTimeout: 3_000,
          }),
        );
        client.on('error', () => undefined);
        clients.push(client);
        const inFlight = new Set<Promise<unknown>>();
        for (let i = 0; sending; i += 1) {
          const ts = start + i * 10 + index;
          const payload = JSON.stringify({ ts, seq: i, metrics: { temperature: 21.5, co2: 1400 } });
          const p = client
            .publishAsync(`roost/v1/${gw.networkId}/telemetry`, payload, { qos: 1 })
            .then(
              () => acked.set(`${gw.networkId}|${ts}`, Date.now()),
              () => undefined,
            );
          inFlight.add(p);
          void p.finally(() => inFlight.delete(p));
          await sleep(1000 / PER_GATEWAY_PER_SECOND);
        }
        // What is still unanswered after a short wait is not acknowledged, so not counted.
        await Promise.race([Promise.all(inFlight), sleep(5_000)]);
      };
      const publishing = Promise.all(gateways.map((gw, i) => runGateway(gw, i)));

      let downSeen = 0;
      let backWithin5s = 0;
      for (let cut = 0; cut < CUTS; cut += 1) {
        await sleep(600);
        proxy.cutOff();
        if (await healthBecomes(503, AWAY_MS + 2_000)) downSeen += 1;
        proxy.restore();
        if (await healthBecomes(200, 5_000)) backWithin5s += 1;
      }
      // Ingest must resume after the last return. How fast depends on the machine (a loaded
      // one acknowledged 811 in all where a quiet one does ~3,000), so wait for enough readings,
      // not for a fixed time: at least 100 more, and 1,000 in all to judge losses on.
      const ackedBeforeLast = acked.size;
      const until = Date.now() + 60_000;
      while (Date.now() < until && (acked.size < 1_000 || acked.size - ackedBeforeLast <= 100))
        await sleep(200);
      const resumed = acked.size - ackedBeforeLast;
      sending = false;
      await publishing;
      for (const c of clients) c.end(true);

      expect(exitedEarly).toBe(false);
      expect(downSeen).toBe(CUTS);
      expect(backWithin5s).toBe(CUTS);
      expect(resumed).toBeGreaterThan(100);

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);

      const database = await openDatabase(created.target);
      try {
        const rows = await database.query<{ network_id: string; ts: number; n: number }>(
          `select g.network_id, (extract(epoch from t.ts) * 1000)::float8 as ts, count(*)::int as n
             from telemetry t join gateways g on g.id = t.gateway_id
            group by g.network_id, t.ts`,
        );
        const stored = new Map(rows.map((r) => [`${r.network_id}|${Number(r.ts)}`, r.n]));
        const lost = [...acked.keys()].filter((key) => stored.get(key) !== 1);
        expect(acked.size).toBeGreaterThan(1_000);
        expect(lost).toEqual([]);
        expect(rows.every((r) => r.n === 1)).toBe(true);
      } finally {
        await database.close();
      }
    } finally {
      for (const c of clients) c.end(true);
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await proxy.close();
      await created.drop();
    }
  }, 240_000);
});
