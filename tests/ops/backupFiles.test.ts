import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import type { GatewayDetails } from '../../src/contract/envcontrol';
import { gatewayTopic, type UpgradeOrder } from '../../src/contract/gateway';
import type { UpgradeFile } from '../../src/contract/upgrade';
import { openDatabase } from '../../server/db/open';
import { DEMO_GATEWAYS_FILE, type DemoGateway } from '../../server/demo/seed';
import { secretBoxFrom } from '../../server/devices/secrets';
import { freePort, runServer, type ServerProcess } from '../helpers/processes';
import { api, runScript, signIn } from './operatorClient';
import { waitFor } from '../helpers/waitFor';

const TOKEN = 'backup-token-0123456789abcdef';
const CAMERA_PASSWORD = 'Gate-Cam-Pa55!';
const FIRMWARE = Buffer.from('ROOST-FIRMWARE 2.9.1\n'.repeat(8192));

const tmp = mkdtempSync(path.join(tmpdir(), 'roost-backup-files-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every file under `dir` but the database's folder and the lock, with its SHA-256. */
function filesOf(dir: string, under = ''): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of readdirSync(path.join(dir, under))) {
    const rel = under ? `${under}/${name}` : name;
    if (rel === 'pgdata' || rel === 'roost.lock') continue;
    const full = path.join(dir, rel);
    if (statSync(full).isDirectory()) Object.assign(found, filesOf(dir, rel));
    else found[rel] = createHash('sha256').update(readFileSync(full)).digest('hex');
  }
  return found;
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = runServer(env);
  await server.waitFor(/Roost is running/, 240_000);
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

describe('a backup holds everything the server keeps on disk', () => {
  it('a server started on the restore sends a stored upgrade file whole and opens the sealed camera password', async () => {
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
    let server: ServerProcess | null = await start(env);
    let cameraId = 0;
    let file: UpgradeFile;
    const demo = JSON.parse(
      readFileSync(path.join(sourceDir, DEMO_GATEWAYS_FILE), 'utf8'),
    ) as DemoGateway[];
    const gateway = demo[0]!;
    try {
      const base = `http://127.0.0.1:${env.PORT}`;
      const admin = await signIn(base);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(FIRMWARE)]), 'roost-gw');
      const types = [...new Set(demo.map((g) => g.typeKey))].join(',');
      const uploaded = await fetch(
        `${base}/api/upgrade/uploadFile?version=2.9.1&typeKeys=${types}`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${admin}` },
          body: form,
        },
      );
      expect(uploaded.status).toBe(200);
      file = ((await uploaded.json()) as { data: UpgradeFile }).data;
      const camera = await api<{ id: number }>(base, admin, 'POST', '/camera/create', {
        houseId: gateway.houseId,
        name: 'Gate camera',
        code: 'CAM-GATE',
        vendor: 'dahua',
        userName: 'viewer',
        password: CAMERA_PASSWORD,
      });
      cameraId = camera.id;

      const backup = await runScript('server/ops/backupCli.ts', ['--out', backupFile], {
        ROOST_BACKUP_TOKEN: TOKEN,
        PORT: env.PORT!,
      });
      expect(backup.output).toMatch(/Backup written to/);
      expect(backup.code).toBe(0);
      await stop(server);
      server = null;

      const restore = await runScript('server/ops/restoreCli.ts', [
        '--from',
        backupFile,
        '--data-dir',
        restoredDir,
      ]);
      expect(restore.output).toMatch(/Restored into/);
      expect(restore.code).toBe(0);
      // Every file the server kept beside its database is back, byte for byte.
      expect(filesOf(restoredDir)).toEqual(filesOf(sourceDir));

      const restoredEnv = {
        ...env,
        PORT: String(await freePort()),
        MQTT_PORT: String(await freePort()),
        DATA_DIR: restoredDir,
      };
      const restoredBase = `http://127.0.0.1:${restoredEnv.PORT}`;
      server = await start(restoredEnv);
      const token = await signIn(restoredBase);
      const listed = await api<UpgradeFile[]>(restoredBase, token, 'GET', '/upgrade/files');
      expect(listed.map((f) => f.sha256)).toContain(file.sha256);

      // A gateway built from the contract: online, sent the upgrade, downloads its file.
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${restoredEnv.MQTT_PORT}`, {
        username: gateway.networkId,
        password: gateway.token,
        clientId: gateway.networkId,
        reconnectPeriod: 0,
      });
      try {
        const orders: UpgradeOrder[] = [];
        client.on('message', (_topic, payload) => orders.push(JSON.parse(payload.toString())));
        await client.subscribeAsync(gatewayTopic(gateway.networkId, 'upgrade'), { qos: 1 });
        await client.publishAsync(
          gatewayTopic(gateway.networkId, 'status'),
          JSON.stringify({ online: true }),
          { qos: 1 },
        );
        await waitFor(async () => {
          const house = await api<GatewayDetails>(
            restoredBase,
            token,
            'GET',
            `/envcontrol/house?houseId=${gateway.houseId}`,
          );
          return house.gateway?.online ? true : undefined;
        });
        await api(restoredBase, token, 'POST', '/upgrade/send', {
          houseIds: [gateway.houseId],
          sha256: file.sha256,
        });
        const order = await waitFor(() => orders[0]);
        expect(order.sha256).toBe(file.sha256);
        const download = await fetch(order.url, {
          headers: { authorization: `Bearer ${gateway.token}` },
        });
        expect(download.status).toBe(200);
        expect(Buffer.from(await download.arrayBuffer()).equals(FIRMWARE)).toBe(true);
      } finally {
        await client.endAsync(true);
      }
      await stop(server);
      server = null;
    } finally {
      if (server) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
    }

    // The restored server kept the key it was restored with: the sealed password opens.
    const database = await openDatabase({ kind: 'pglite', dataDir: restoredDir });
    try {
      const [row] = await database.query<{ secret: string }>(
        'select password_secret as secret from cameras where id = $1',
        [cameraId],
      );
      expect(secretBoxFrom({}, restoredDir).open(row!.secret)).toBe(CAMERA_PASSWORD);
    } finally {
      await database.close();
    }
  }, 600_000);
});
