import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/open';
import { rollUp } from '../../server/ingest/rollup';
import { disableNagle } from '../../server/mqtt/noDelay';
import type { DemoGateway } from '../../server/demo/seed';
import { testDatabaseTargets } from '../helpers/databases';
import { startDelayProxy } from '../helpers/delayProxy';
import { freePort, runServer, type ServerProcess } from '../helpers/processes';

const GATEWAYS = 10;
const READINGS_PER_GATEWAY = 2_000;
const TOTAL = GATEWAYS * READINGS_PER_GATEWAY;
/** Each gateway keeps this many readings unacknowledged at once, as a backlogged gateway would. */
const WINDOW = 100;
/** A publish with no answer by then is sent again (the database drops duplicates). */
const PUBLISH_TIMEOUT_MS = 10_000;

const tmp = mkdtempSync(path.join(tmpdir(), 'roost-crash-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.each(testDatabaseTargets())('crash safety on $name', (target) => {
  it(`keeps every acknowledged reading of ${TOTAL} through two SIGKILLs, and stores none twice`, async () => {
    const created = await target.create();
    const proxy =
      created.target.kind === 'postgres'
        ? await startDelayProxy(
            {
              host: new URL(created.target.url).hostname,
              port: Number(new URL(created.target.url).port || 5432),
            },
            10,
          )
        : null;
    const dataDir = path.join(tmp, target.name);
    const env: Record<string, string> = {
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      ROOST_DEMO: '1',
      ROOST_DEMO_HISTORY: 'off',
      ROOST_SIMULATOR: 'off',
      ROOST_CAPTCHA: 'off',
    };
    if (created.target.kind === 'postgres' && proxy) {
      const url = new URL(created.target.url);
      url.host = `127.0.0.1:${proxy.port}`;
      env.DATABASE_URL = url.toString();
    }
    let server: ServerProcess = runServer(env);
    const clients: MqttClient[] = [];
    try {
      await server.waitFor(/Roost is running/, 90_000);
      const gateways = (
        JSON.parse(readFileSync(path.join(dataDir, 'demo-gateways.json'), 'utf8')) as DemoGateway[]
      ).slice(0, GATEWAYS);
      const base = Date.now() - 10 * 86_400_000;
      let acked = 0;
      const sends = { total: 0 };

      const runGateway = async (gw: DemoGateway, index: number) => {
        const client = disableNagle(
          mqtt.connect(`mqtt://127.0.0.1:${env.MQTT_PORT}`, {
            username: gw.networkId,
            password: gw.token,
            clientId: `crash-${gw.networkId}`,
            clean: false,
            reconnectPeriod: 100,
            connectTimeout: 5_000,
          }),
        );
        client.on('error', () => undefined);
        clients.push(client);
        const pending = Array.from({ length: READINGS_PER_GATEWAY }, (_, i) => i);
        const inFlight = new Set<Promise<void>>();
        const send = (i: number): Promise<void> => {
          sends.total += 1;
          const payload = JSON.stringify({
            ts: base + i * 1000 + index,
            seq: i,
            metrics: { temperature: 20 + (i % 50) / 10, co2: 1500 },
          });
          const timeout = new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('no ack')), PUBLISH_TIMEOUT_MS),
          );
          return Promise.race([
            client.publishAsync(`roost/v1/${gw.networkId}/telemetry`, payload, { qos: 1 }),
            timeout,
          ]).then(
            () => {
              acked += 1;
            },
            // Any failure ("Connection closed", no answer): queue it again.
            () => {
              pending.push(i);
            },
          );
        };
        while (pending.length > 0 || inFlight.size > 0) {
          while (pending.length > 0 && inFlight.size < WINDOW && client.connected) {
            const p = send(pending.shift()!).finally(() => inFlight.delete(p));
            inFlight.add(p);
          }
          await (inFlight.size > 0
            ? Promise.race(inFlight)
            : new Promise((r) => setTimeout(r, 50)));
        }
      };
      const publishing = Promise.all(gateways.map((gw, i) => runGateway(gw, i)));

      for (const killAt of [TOTAL * 0.3, TOTAL * 0.65]) {
        while (acked < killAt) await new Promise((r) => setTimeout(r, 20));
        server.child.kill('SIGKILL');
        await server.exited;
        server = runServer(env);
        await server.waitFor(/Roost is running/, 90_000);
      }
      await publishing;
      expect(acked).toBe(TOTAL);
      expect(sends.total).toBeGreaterThanOrEqual(TOTAL);
      for (const c of clients) c.end(true);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);

      const database = await openDatabase(
        created.target.kind === 'postgres' ? created.target : { kind: 'pglite', dataDir },
      );
      try {
        const [row] = await database.query<{ n: string; distinct_n: string }>(
          'select count(*) as n, count(distinct (gateway_id, ts)) as distinct_n from telemetry',
        );
        expect(Number(row!.n)).toBe(TOTAL);
        expect(Number(row!.distinct_n)).toBe(TOTAL);
        // Rollups are crash-safe too: every reading is counted once in the hours.
        await rollUp(database, 'Asia/Shanghai');
        const [hours] = await database.query<{ n: string }>(
          'select sum(readings) as n from telemetry_hourly',
        );
        expect(Number(hours!.n)).toBe(TOTAL);
      } finally {
        await database.close();
      }
    } finally {
      for (const c of clients) c.end(true);
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await proxy?.close();
      await created.drop().catch(() => undefined);
    }
  }, 240_000);
});
