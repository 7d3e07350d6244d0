import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/tokens';
import { readConfig, type Config } from '../../server/config';
import { openDatabase } from '../../server/db/open';
import { startRoost, type RunningRoost } from '../../server/roost';
import { testDatabaseTargets } from '../helpers/databases';
import { freePort } from '../helpers/processes';

/** Short enough that the downtime below is many allowances (3 × interval = 6 s). */
const INTERVAL_S = 2;
const ALLOWANCE_MS = 3 * INTERVAL_S * 1000;
/** Longer than the allowance, as a routine upgrade at night is. */
const DOWNTIME_MS = ALLOWANCE_MS + 3_000;
/**
 * Gateways retry about as often as the simulator's first retries: after a restart they come
 * back a few seconds later, well inside their allowance, but after the first offline sweep.
 */
const RETRY_MS = 2_500;

const tmp = mkdtempSync(path.join(tmpdir(), 'grace-restart-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number) {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** A gateway as the firmware behaves: a will, its status on every connect, a reading a second. */
function runGateway(port: number, networkId: string, token: string, retryMs: number) {
  const status = `roost/v1/${networkId}/status`;
  const client: MqttClient = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
    username: networkId,
    password: token,
    clientId: `grace-${networkId}`,
    reconnectPeriod: retryMs,
    connectTimeout: 2_000,
    will: { topic: status, payload: Buffer.from('{"online":false}'), qos: 1, retain: true },
  });
  client.on('error', () => undefined);
  client.on('connect', () => {
    client.publish(status, '{"online":true,"network":"wired"}', { qos: 1, retain: true });
  });
  const timer = setInterval(() => {
    if (!client.connected) return;
    const reading = JSON.stringify({ ts: Date.now(), metrics: { temperature: 22 } });
    client.publish(`roost/v1/${networkId}/telemetry`, reading, { qos: 1 }, () => undefined);
  }, 1_000);
  return {
    client,
    stop() {
      clearInterval(timer);
      client.end(true);
    },
  };
}

describe.each(testDatabaseTargets())('a clean restart on $name', (target) => {
  it('raises no gateway offline for its own downtime, yet still finds silent and dead gateways', async () => {
    const created = await target.create();
    const mqttPort = await freePort();
    const config: Config = {
      ...readConfig({
        PORT: '0',
        DATA_DIR: path.join(tmp, target.name),
        ROOST_DEMO: '1',
        // The demo's past holds offline alarms of its own; this test counts only the restart's.
        ROOST_DEMO_HISTORY: 'off',
        ROOST_CAPTCHA: 'off',
        LOG_LEVEL: 'silent',
      }),
      databaseUrl: created.target.kind === 'postgres' ? created.target.url : null,
      mqttPort,
      runSimulator: false,
    };
    let roost: RunningRoost = await startRoost(config);
    const gateways: Array<ReturnType<typeof runGateway>> = [];
    try {
      const rows = await roost.database.query<{ id: number; network_id: string; house_id: number }>(
        `update gateways set token_hash = $1, interval_seconds = $2
         where id in (select id from gateways where house_id is not null order by id limit 3)
         returning id, network_id, house_id`,
        [hashToken('tok-restart'), INTERVAL_S],
      );
      const [a, b, silent] = rows.sort((x, y) => x.id - y.id) as [
        (typeof rows)[0],
        (typeof rows)[0],
        (typeof rows)[0],
      ];
      // Every farm's alarm phone hears network alarms at once: a notification would be queued.
      await roost.database.query(
        `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type,
           repeat_minutes, closable, alarm_type, delay_minutes, status, notice_types, description)
         select id, null, '13800000009', '00:00', '00:00', 'daily', 60, true, 'message', 0, 'open',
           '["network"]', 'night duty' from farms`,
      );
      gateways.push(runGateway(mqttPort, a.network_id, 'tok-restart', RETRY_MS));
      gateways.push(runGateway(mqttPort, b.network_id, 'tok-restart', RETRY_MS));
      // This one never comes back after the stop.
      const silentGateway = runGateway(mqttPort, silent.network_id, 'tok-restart', 0);
      gateways.push(silentGateway);
      const online = () =>
        roost.database.query<{ house_id: number; online: boolean }>(
          'select house_id, online from house_state where house_id = any($1::int[])',
          [rows.map((r) => r.house_id)],
        );
      await until(
        'all three online',
        async () => ((await online()).filter((s) => s.online).length === 3 ? true : undefined),
        20_000,
      );
      await sleep(1_500);

      const [{ stopped_at: stoppedAt }] = (await roost.database.query<{ stopped_at: Date }>(
        'select now() as stopped_at',
      )) as [{ stopped_at: Date }];
      await roost.close();
      await sleep(DOWNTIME_MS);
      // The allowance runs from a moment inside startRoost: measure from just before it.
      const restartedAt = Date.now();
      roost = await startRoost(config);

      // (ii) The silent gateway gets its whole allowance from the restart, then goes offline.
      await sleep(Math.max(0, restartedAt + ALLOWANCE_MS - 1_500 - Date.now()));
      expect((await online()).every((s) => s.online)).toBe(true);
      await until(
        'the silent gateway offline',
        async () =>
          (await online()).some((s) => s.house_id === silent.house_id && !s.online)
            ? true
            : undefined,
        ALLOWANCE_MS + 10_000,
      );
      expect(Date.now() - restartedAt).toBeGreaterThanOrEqual(ALLOWANCE_MS);
      // (i) By now the others have been back for longer than their allowance, still online.
      await sleep(2_000);
      expect(
        (await online())
          .filter((s) => s.online)
          .map((s) => s.house_id)
          .sort(),
      ).toEqual([a.house_id, b.house_id].sort());

      const offlineLog = await roost.database.query<{ gateway_id: number; reason: string }>(
        `select gateway_id, reason from gateway_online_log
         where not online and at >= $1 order by id`,
        [stoppedAt],
      );
      expect(offlineLog).toEqual([{ gateway_id: silent.id, reason: 'silent' }]);
      const alarms = await roost.database.query<{ house_id: number; raised_at: Date }>(
        `select house_id, raised_at from alarms where cause = 'gatewayOffline'`,
      );
      expect(alarms.map((r) => r.house_id)).toEqual([silent.house_id]);
      expect(new Date(alarms[0]!.raised_at).getTime()).toBeGreaterThanOrEqual(
        restartedAt + ALLOWANCE_MS - 1_000,
      );
      const notified = await roost.database.query<{ house_id: number }>(
        `select a.house_id from alarm_notifications n join alarms a on a.id = n.alarm_id`,
      );
      expect(notified.map((r) => r.house_id)).toEqual([silent.house_id]);

      // (iii) A connection that dies while the server runs: the will counts at once.
      const died = Date.now();
      gateways[0]!.client.stream.destroy();
      gateways[0]!.stop();
      await until(
        'the dead gateway offline',
        async () =>
          (await online()).some((s) => s.house_id === a.house_id && !s.online) ? true : undefined,
        ALLOWANCE_MS,
      );
      expect(Date.now() - died).toBeLessThan(ALLOWANCE_MS - 1_000);
      const [last] = await roost.database.query<{ reason: string }>(
        'select reason from gateway_online_log where gateway_id = $1 and not online order by id desc limit 1',
        [a.id],
      );
      expect(last).toEqual({ reason: 'status' });
    } finally {
      for (const g of gateways) g.stop();
      await roost.close();
      await created.drop().catch(() => undefined);
    }
  }, 180_000);
  it('writes nothing offline when it stops its own demo simulator and broker', async () => {
    const created = await target.create();
    const dataDir = path.join(tmp, `${target.name}-demo`);
    const roost = await startRoost({
      ...readConfig({
        PORT: '0',
        DATA_DIR: dataDir,
        ROOST_DEMO: '1',
        // The demo's past holds offline alarms of its own; this test counts only the restart's.
        ROOST_DEMO_HISTORY: 'off',
        ROOST_CAPTCHA: 'off',
        LOG_LEVEL: 'silent',
      }),
      databaseUrl: created.target.kind === 'postgres' ? created.target.url : null,
      mqttPort: await freePort(),
      runSimulator: true,
    });
    let stoppedAt = new Date();
    try {
      const gateways = roost.boot.demoGateways?.length ?? 0;
      expect(gateways).toBeGreaterThan(0);
      await until(
        'every simulated gateway online',
        async () => {
          const [row] = await roost.database.query<{ n: number }>(
            'select count(*)::int as n from house_state where online',
          );
          return row!.n === gateways ? true : undefined;
        },
        30_000,
      );
      [{ now: stoppedAt }] = (await roost.database.query<{ now: Date }>('select now()')) as [
        { now: Date },
      ];
    } finally {
      await roost.close();
    }
    const database = await openDatabase(
      created.target.kind === 'postgres' ? created.target : { kind: 'pglite', dataDir },
    );
    try {
      // The simulator's goodbyes and the broker's wills are the server's own doing.
      expect(
        await database.query(
          'select gateway_id, reason from gateway_online_log where not online and at >= $1',
          [stoppedAt],
        ),
      ).toEqual([]);
      expect(
        await database.query(
          `select house_id from alarms where cause = 'gatewayOffline' and raised_at >= $1`,
          [stoppedAt],
        ),
      ).toEqual([]);
      expect(
        (
          await database.query<{ n: number }>(
            'select count(*)::int as n from house_state where online',
          )
        )[0],
      ).toMatchObject({ n: roost.boot.demoGateways!.length });
    } finally {
      await database.close();
      await created.drop().catch(() => undefined);
    }
  }, 120_000);
});
