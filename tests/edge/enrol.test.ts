import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { enrolCommand } from '../../edge/enrol';
import { freePort } from '../helpers/processes';
import { testDatabaseTargets } from '../helpers/databases';
import { startServer, type TestServer } from '../e2e/harness';

let server: TestServer;
let admin: string;
let gatewayId: number;
let networkId: string;
let dir: string;

/** What a call wrote to stdout and stderr, and its exit code. */
async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const o = vi
    .spyOn(process.stdout, 'write')
    .mockImplementation((s) => (out.push(String(s)), true));
  const e = vi
    .spyOn(process.stderr, 'write')
    .mockImplementation((s) => (err.push(String(s)), true));
  const l = vi.spyOn(console, 'log');
  try {
    const code = await enrolCommand(argv);
    return { code, out: out.join(''), err: err.join(''), logged: l.mock.calls.flat().join(' ') };
  } finally {
    o.mockRestore();
    e.mockRestore();
    l.mockRestore();
  }
}

async function api(
  method: 'PUT' | 'POST',
  url: string,
  body: object,
  token?: string,
  locale = 'en',
) {
  const res = await fetch(`${server.url}/api${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      locale,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  // The fields these tests read of the three answers (a code, credentials, a session).
  type Data = { code: string; token: string };
  return { status: res.status, ...((await res.json()) as { msg: string; data: Data }) };
}

async function newCode(): Promise<string> {
  const res = await api('PUT', '/gateway/enrolCode', { id: gatewayId }, admin);
  expect(res.status).toBe(200);
  return res.data.code;
}

// Codes are stored, used once and expired by SQL: on PGlite and, where CI names one, PostgreSQL.
for (const db of testDatabaseTargets())
  describe(`on ${db.name}`, () => {
    let drop: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const mqttPort = await freePort();
      const created = await db.create();
      drop = created.drop;
      server = await startServer({
        MQTT_PORT: String(mqttPort),
        ROOST_SIMULATOR: 'off',
        ROOST_EDGE_MQTT_URL: `mqtt://127.0.0.1:${mqttPort}`,
        ...(created.target.kind === 'postgres' ? { DATABASE_URL: created.target.url } : {}),
      });
      dir = await mkdtemp(path.join(tmpdir(), 'h-edgesrv-enrol-'));
      const [row] = await server.roost.database.query<{ id: number; network_id: string }>(
        `select g.id, g.network_id from gateways g join houses h on h.id = g.house_id
     join farms f on f.id = h.farm_id where f.name = 'Weifang Broiler Farm' and h.name = 'House 3'`,
      );
      gatewayId = row!.id;
      networkId = row!.network_id;
      const login = await api('POST', '/login', {
        username: 'admin',
        password: (await import('../../server/demo/demoFarms')).DEMO_PASSWORD,
        codeId: 'x',
        code: 'x',
      });
      admin = login.data.token;
    }, 180_000);
    afterAll(async () => {
      await server?.stop();
      await drop?.();
    });

    describe('enrolling a Roost Edge with a code from the console', () => {
      it('writes the credentials with mode 0600, merged with other houses, and never prints the token', async () => {
        expect(server.roost.database.kind).toBe(db.name);
        const config = path.join(dir, 'edge.json');
        const credentials = path.join(dir, 'edge.credentials.json');
        const other = { networkId: 'other', token: 'kept', mqttUrl: 'mqtt://elsewhere:1883' };
        await writeFile(credentials, JSON.stringify({ houses: { 'House 9': other } }));
        const code = await newCode();
        expect(code).toMatch(/^[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
        const res = await run([
          'enroll',
          code.toLowerCase(),
          '--server',
          server.url,
          '--house',
          'House 3',
          '--config',
          config,
        ]);
        expect(res.err).toBe('');
        expect(res.code).toBe(0);
        const file = JSON.parse(await readFile(credentials, 'utf8'));
        const mine = file.houses['House 3'];
        expect(file.houses['House 9']).toEqual(other);
        expect(mine.networkId).toBe(networkId);
        expect(mine.mqttUrl).toBe(`mqtt://127.0.0.1:${server.roost.mqttPort}`);
        expect(mine.token.length).toBeGreaterThan(30);
        expect((await stat(credentials)).mode & 0o777).toBe(0o600);
        expect(res.out).toContain(networkId);
        expect(res.out + res.err + res.logged).not.toContain(mine.token);

        // A gateway connects to the broker with what was written, and its reading is stored.
        const client = await mqtt.connectAsync(mine.mqttUrl, {
          username: mine.networkId,
          password: mine.token,
          reconnectPeriod: 0,
        });
        const ts = Date.now() - 1_000;
        await client.publishAsync(
          `roost/v1/${mine.networkId}/telemetry`,
          JSON.stringify({ ts, seq: 1, metrics: { temperature: 23.5 } }),
          { qos: 1 },
        );
        await client.endAsync();
        const stored = await server.roost.database.query<{ temperature: number }>(
          'select temperature from telemetry where gateway_id = $1 and ts = $2',
          [gatewayId, new Date(ts)],
        );
        expect(stored.map((r) => r.temperature)).toEqual([23.5]);

        // The same code a second time is refused, and the file stays as it was.
        const again = await run([
          'enroll',
          code,
          '--server',
          server.url,
          '--house',
          'House 3',
          '--config',
          config,
        ]);
        expect(again.code).toBe(1);
        expect(again.err).toContain('has been used already');
        expect(JSON.parse(await readFile(credentials, 'utf8')).houses['House 3']).toEqual(mine);
      });

      it('refuses an expired code and an unknown one, in the caller’s language', async () => {
        const code = await newCode();
        await server.roost.database.query(
          `update gateway_enrol_codes set expires_at = now() - interval '1 minute'
       where gateway_id = $1 and used_at is null`,
          [gatewayId],
        );
        const expired = await run([
          'enroll',
          code,
          '--server',
          server.url,
          '--house',
          'House 3',
          '--config',
          path.join(dir, 'x.json'),
        ]);
        expect(expired.code).toBe(1);
        expect(expired.err).toContain('has expired');
        const zh = await api('POST', '/edge/enrol', { code: 'ABCD-EFGH-JKMN' }, undefined, 'zh');
        expect(zh.status).toBe(400);
        expect(zh.msg).toBe('注册码无效。请核对，或在控制台重新生成。');
        const junk = await api('POST', '/edge/enrol', { code: 'x'.repeat(500) });
        expect(junk.status).toBe(400);
        expect(junk.msg).toContain('not known');
      });

      it('enrolling gives a new token: the one the gateway had stops working', async () => {
        const file = JSON.parse(await readFile(path.join(dir, 'edge.credentials.json'), 'utf8'));
        const old = file.houses['House 3'];
        const code = await newCode();
        const res = await api('POST', '/edge/enrol', { code });
        expect(res.status).toBe(200);
        expect(res.data.token).not.toBe(old.token);
        await expect(
          mqtt.connectAsync(old.mqttUrl, {
            username: old.networkId,
            password: old.token,
            reconnectPeriod: 0,
            connectTimeout: 5_000,
          }),
        ).rejects.toThrow();
      });

      it('throttles wrong codes from one address like sign-in', async () => {
        for (let i = 0; i < 6; i++)
          await api('POST', '/edge/enrol', { code: `ZZZZ-ZZZZ-ZZ${i + 2}Z` });
        const res = await api('POST', '/edge/enrol', { code: await newCode() });
        expect(res.status).toBe(429);
        expect(res.msg).toContain('Too many wrong enrolment codes');
      });
    });
  });
