import { mkdtempSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, runServer } from '../helpers/processes';

const tmp = mkdtempSync(path.join(tmpdir(), 'roost-start-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The lines a person sees, without Node's own warnings. */
const errorLines = (output: string) =>
  output.split('\n').filter((l) => l.startsWith('Roost cannot start'));

async function api(base: string, method: string, url: string, body?: object, token?: string) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return {
    status: res.status,
    body: (await res.json()) as { data: { token?: string } | null; msg: string },
  };
}

describe('starting and stopping the server process', () => {
  it('stops with one clear line and exit 1 when a variable is wrong', async () => {
    const server = runServer({ PORT: 'eighty', DATA_DIR: path.join(tmp, 'bad-var') });
    expect(await server.exited).toBe(1);
    expect(errorLines(server.output())).toEqual(['Roost cannot start: PORT must be a port number']);
  });

  it('stops with one clear line and exit 1 when the port is in use', async () => {
    const port = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const server = runServer({
        PORT: String(port),
        MQTT_PORT: '0',
        DATA_DIR: path.join(tmp, 'busy'),
      });
      expect(await server.exited).toBe(1);
      expect(errorLines(server.output())).toEqual([
        `Roost cannot start: Port ${port} on 127.0.0.1 is already in use: stop the program using it, or start Roost with PORT=<another port>.`,
      ]);
    } finally {
      blocker.close();
    }
  });

  it('stops with one clear line and exit 1 when DATA_DIR cannot be used', async () => {
    const file = path.join(tmp, 'a-file');
    writeFileSync(file, 'not a folder');
    const server = runServer({
      PORT: String(await freePort()),
      MQTT_PORT: '0',
      DATA_DIR: path.join(file, 'data'),
    });
    expect(await server.exited).toBe(1);
    const lines = errorLines(server.output());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Roost cannot start: DATA_DIR .*a-file\/data cannot be read and written \(ENOTDIR\)/,
    );
  });

  it('keeps a changed password across a graceful restart, and refuses a second process on the same DATA_DIR', async () => {
    const dataDir = path.join(tmp, 'persist');
    const port = await freePort();
    const env = {
      PORT: String(port),
      MQTT_PORT: '0',
      DATA_DIR: dataDir,
      ROOST_CAPTCHA: 'off',
      ROOST_DEMO_HISTORY: 'off',
    };
    const base = `http://127.0.0.1:${port}`;

    const first = runServer(env);
    await first.waitFor(/Roost is running: open (\S+)/);
    expect(first.output()).toContain('sign in as admin / Roost12345');
    expect(statSync(path.join(dataDir, 'demo-gateways.json')).mode & 0o777).toBe(0o600);

    const second = runServer({ ...env, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(errorLines(second.output())[0]).toMatch(
      /Another Roost process \(pid \d+\) is using DATA_DIR/,
    );

    const token = (
      await api(base, 'POST', '/api/login', { username: 'admin', password: 'Roost12345' })
    ).body.data?.token;
    expect(token).toBeTruthy();
    const changed = await api(
      base,
      'PUT',
      '/api/user/modifyPwd',
      { type: true, oldPassword: 'Roost12345', newPassword: 'Restart2026' },
      token,
    );
    expect(changed.status).toBe(200);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('Roost stopped.');
    expect(existsSync(path.join(dataDir, 'roost.lock'))).toBe(false);

    const again = runServer(env);
    await again.waitFor(/Roost is running/);
    try {
      expect(
        (await api(base, 'POST', '/api/login', { username: 'admin', password: 'Roost12345' }))
          .status,
      ).toBe(401);
      expect(
        (await api(base, 'POST', '/api/login', { username: 'admin', password: 'Restart2026' }))
          .status,
      ).toBe(200);
      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      again.child.kill('SIGINT');
      expect(await again.exited).toBe(0);
    }
  }, 120_000);
});
