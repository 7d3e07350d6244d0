import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Command, GatewayDetails } from '../../src/contract/envcontrol';
import type { DemoGateway } from '../../server/demo/seed';
import { startSimulator } from '../../server/simulator/simulator';
import { testDatabaseTargets } from '../helpers/databases';
import { freePort, runServer, type ServerProcess } from '../helpers/processes';

const tmp = mkdtempSync(path.join(tmpdir(), 'roost-commands-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.each(testDatabaseTargets())('commands through a server crash on $name', (target) => {
  it('keeps a queued command through a SIGKILL and applies it when its gateway comes', async () => {
    const created = await target.create();
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
    if (created.target.kind === 'postgres') env.DATABASE_URL = created.target.url;
    const base = `http://127.0.0.1:${env.PORT}/api`;
    let server: ServerProcess = runServer(env);
    try {
      await server.waitFor(/Roost is running/, 90_000);
      const login = await fetch(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'Roost12345', code: 'x' }),
      });
      const token = ((await login.json()) as { data: { token: string } }).data.token;
      const gateway = (
        JSON.parse(readFileSync(path.join(dataDir, 'demo-gateways.json'), 'utf8')) as DemoGateway[]
      )[0]!;
      // Nobody is connected: the command waits in the database.
      const sent = await fetch(`${base}/envcontrol/send`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify({ houseIds: [gateway.houseId], params: { light_hours: 16 } }),
      });
      const command = ((await sent.json()) as { data: { commands: Command[] } }).data.commands[0]!;
      expect(command.state).toBe('queued');

      server.child.kill('SIGKILL');
      await server.exited;
      server = runServer(env);
      await server.waitFor(/Roost is running/, 90_000);

      const sim = await startSimulator({
        url: `mqtt://127.0.0.1:${env.MQTT_PORT}`,
        gateways: [gateway],
        intervalMs: 1_000,
        seed: 1,
        controller: { applyDelayMs: [50, 100], localChangeChance: 0 },
      });
      try {
        const started = Date.now();
        let state: Command | undefined;
        while (Date.now() - started < 30_000) {
          const res = await fetch(`${base}/envcontrol/house?houseId=${gateway.houseId}`, {
            headers: { authorization: token },
          });
          const details = ((await res.json()) as { data: GatewayDetails }).data;
          state = details.commands.find((c) => c.id === command.id);
          if (state?.state === 'applied') break;
          await new Promise((r) => setTimeout(r, 200));
        }
        expect(state).toMatchObject({ state: 'applied', readBack: { light_hours: 16 } });
      } finally {
        await sim.stop();
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await created.drop();
    }
  }, 240_000);
});
