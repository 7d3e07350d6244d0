import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/open';
import type { DemoGateway } from '../../server/demo/seed';
import { disableNagle } from '../../server/mqtt/noDelay';
import { freePort, runServer, type ServerProcess } from '../helpers/processes';
import { api, runScript, signIn } from './operatorClient';

const TOKEN = 'backup-token-0123456789abcdef';
/** Gateways publishing all through the backup, each with this many readings unacknowledged. */
const GATEWAYS = 6;
const WINDOW = 5;
const NEW_USER = { username: 'night-ops', password: 'NightOps12345' };

const tmp = mkdtempSync(path.join(tmpdir(), 'roost-backup-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000) {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(200);
  }
}

/** A gateway sending readings back to back, QoS 1, a few unacknowledged at a time. */
function publishing(port: string, gw: DemoGateway, base: number, acked: string[]) {
  const client: MqttClient = disableNagle(
    mqtt.connect(`mqtt://127.0.0.1:${port}`, {
      username: gw.networkId,
      password: gw.token,
      clientId: `backup-${gw.networkId}`,
      reconnectPeriod: 0,
    }),
  );
  client.on('error', () => undefined);
  let running = true;
  let next = 0;
  const lane = async () => {
    while (running) {
      const ts = base + next * 1000;
      next += 1;
      const payload = JSON.stringify({
        ts,
        seq: next,
        metrics: { temperature: 20 + (next % 50) / 10 },
      });
      await client.publishAsync(`roost/v1/${gw.networkId}/telemetry`, payload, { qos: 1 });
      acked.push(`${gw.networkId}@${ts}`);
    }
  };
  const lanes = new Promise<void>((resolve) => client.once('connect', () => resolve())).then(() =>
    Promise.all(Array.from({ length: WINDOW }, lane)),
  );
  return {
    client,
    async stop() {
      running = false;
      await lanes.catch(() => undefined);
      client.end(true);
    },
  };
}

describe('backup and restore of the embedded database', () => {
  it('backs up a running server under ingest, and a server started on the restore finds every reading, alarm and user', async () => {
    const sourceDir = path.join(tmp, 'source');
    const restoredDir = path.join(tmp, 'restored');
    const backupFile = path.join(tmp, 'roost.tar');
    const env: Record<string, string> = {
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
      DATA_DIR: sourceDir,
      ROOST_DEMO: '1',
      ROOST_DEMO_HISTORY: 'off',
      ROOST_SIMULATOR: 'off',
      ROOST_CAPTCHA: 'off',
      ROOST_BACKUP_TOKEN: TOKEN,
    };
    const base = `http://127.0.0.1:${env.PORT}`;
    let server: ServerProcess | null = runServer(env);
    const gateways: Array<ReturnType<typeof publishing>> = [];
    const acked: string[] = [];
    let ackedBeforeBackup: string[] = [];
    let alarmIds: number[] = [];
    try {
      await server.waitFor(/Roost is running/, 120_000);
      const demo = JSON.parse(
        readFileSync(path.join(sourceDir, 'demo-gateways.json'), 'utf8'),
      ) as DemoGateway[];
      const readingsBase = Date.now() - 2 * 86_400_000;
      for (const gw of demo.slice(0, GATEWAYS))
        gateways.push(publishing(env.MQTT_PORT!, gw, readingsBase, acked));
      await until('readings flowing', async () => (acked.length >= 300 ? true : undefined));

      // While the readings flow: a new user, and an alarm (a gateway reporting itself offline).
      const admin = await signIn(base, 'admin');
      await api(base, admin, 'POST', '/user/save', {
        ...NEW_USER,
        realName: 'Night operator',
        roleKey: 'administrator',
      });
      const quiet = demo[GATEWAYS]!;
      const statusClient = await mqtt.connectAsync(`mqtt://127.0.0.1:${env.MQTT_PORT}`, {
        username: quiet.networkId,
        password: quiet.token,
        reconnectPeriod: 0,
      });
      await statusClient.publishAsync(`roost/v1/${quiet.networkId}/status`, '{"online":false}', {
        qos: 1,
      });
      await statusClient.endAsync();
      alarmIds = await until('the offline alarm listed', async () => {
        const page = await api<{ rows: Array<{ id: number }> }>(
          base,
          admin,
          'GET',
          '/alarm/list?state=all&size=200',
        );
        return page.rows.length > 0 ? page.rows.map((r) => r.id) : undefined;
      });

      // Everything acknowledged before the request was committed: the backup must hold it.
      ackedBeforeBackup = [...acked];
      const backup = await runScript('server/ops/backupCli.ts', ['--out', backupFile], {
        ROOST_BACKUP_TOKEN: TOKEN,
        PORT: env.PORT!,
      });
      expect(backup.output).toMatch(/Backup written to/);
      expect(backup.code).toBe(0);
      expect(statSync(backupFile).size).toBeGreaterThan(0);
      const ackedDuringBackup = acked.length - ackedBeforeBackup.length;
      // The server went on taking readings after the backup: they are not in it.
      await until('readings after the backup', async () =>
        acked.length > ackedBeforeBackup.length + ackedDuringBackup + 200 ? true : undefined,
      );
      for (const g of gateways) await g.stop();
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      server = null;

      // A second backup to the same file is refused; so is a restore over a non-empty folder.
      const again = await runScript('server/ops/backupCli.ts', ['--out', backupFile], {
        ROOST_BACKUP_TOKEN: TOKEN,
        PORT: env.PORT!,
      });
      expect(again.code).toBe(1);
      expect(again.output).toMatch(/already exists/);
      const restore = await runScript('server/ops/restoreCli.ts', [
        '--from',
        backupFile,
        '--data-dir',
        restoredDir,
      ]);
      expect(restore.output).toMatch(/Restored into/);
      expect(restore.code).toBe(0);
      const over = await runScript('server/ops/restoreCli.ts', [
        '--from',
        backupFile,
        '--data-dir',
        sourceDir,
      ]);
      expect(over.code).toBe(1);
      expect(over.output).toMatch(/is not empty/);

      // Roost starts on the restored folder: the new user signs in, the alarm is listed.
      const restoredEnv = {
        ...env,
        PORT: String(await freePort()),
        MQTT_PORT: String(await freePort()),
        DATA_DIR: restoredDir,
      };
      const restoredBase = `http://127.0.0.1:${restoredEnv.PORT}`;
      server = runServer(restoredEnv);
      await server.waitFor(/Roost is running/, 120_000);
      const nightOps = await signIn(restoredBase, NEW_USER.username, NEW_USER.password);
      const listed = await api<{ rows: Array<{ id: number }> }>(
        restoredBase,
        nightOps,
        'GET',
        '/alarm/list?state=all&size=200',
      );
      expect(listed.rows.map((r) => r.id)).toEqual(expect.arrayContaining(alarmIds));
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      server = null;
    } finally {
      for (const g of gateways) await g.stop();
      if (server) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
    }

    // Row by row: the restore against what was acknowledged and against the source.
    const read = async (dataDir: string) => {
      const database = await openDatabase({ kind: 'pglite', dataDir });
      try {
        const readings = await database.query<{ key: string }>(
          `select g.network_id || '@' || (extract(epoch from t.ts) * 1000)::bigint as key
           from telemetry t join gateways g on g.id = t.gateway_id`,
        );
        const users = await database.query<{ username: string }>(
          'select username from users order by username',
        );
        const alarms = await database.query<{ id: number }>('select id from alarms order by id');
        // Rollups are written in the same transaction as their raw rows: a torn copy breaks this.
        const torn = await database.query(
          `select r.house_id, r.hour, r.n, h.readings
           from (select house_id, date_trunc('hour', ts) as hour, count(*)::int as n
                 from telemetry group by 1, 2) r
           left join telemetry_hourly h on h.house_id = r.house_id and h.bucket = r.hour
           where h.readings is distinct from r.n`,
        );
        return {
          readings: new Set(readings.map((r) => r.key)),
          users: users.map((u) => u.username),
          alarms: alarms.map((a) => a.id),
          torn,
        };
      } finally {
        await database.close();
      }
    };
    const restored = await read(restoredDir);
    const source = await read(sourceDir);
    expect(ackedBeforeBackup.filter((key) => !restored.readings.has(key))).toEqual([]);
    expect([...restored.readings].filter((key) => !source.readings.has(key))).toEqual([]);
    expect(restored.readings.size).toBeLessThan(source.readings.size);
    expect(restored.torn).toEqual([]);
    expect(restored.users).toEqual(source.users);
    expect(restored.users).toContain(NEW_USER.username);
    expect(restored.alarms).toEqual(expect.arrayContaining(alarmIds));
    expect(restored.alarms.every((id) => source.alarms.includes(id))).toBe(true);
  }, 400_000);
});
