import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command, GatewayDetails } from '../../src/contract/envcontrol';
import type { HouseUpdated } from '../../src/contract/live';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import { DEMO_GATEWAYS_FILE, type DemoGateway } from '../../server/demo/seed';
import { startSimulator, type RunningSimulator } from '../../server/simulator/simulator';
import { testDatabaseTargets } from '../helpers/databases';
import { freePort, runServer, type ServerProcess } from '../helpers/processes';
import { waitFor } from '../helpers/waitFor';
import { launchBrowser, signIn } from '../e2e/harness';
import { startKitMosquitto, type KitMosquitto } from './kitMosquitto';
import { startKitNginx, type KitNginx } from './kitNginx';

const ROOT = path.resolve(import.meta.dirname, '../..');
const { TEST_DATABASE_URL, TEST_REDIS_URL } = process.env;

/**
 * The variables the kit's systemd unit sets for one process (`Environment=` lines, `%i` the
 * port), and its command, which must be the one `runServer` runs.
 */
function unitEnvironment(port: number, dataDir: string): Record<string, string> {
  const unit = readFileSync(path.join(ROOT, 'deploy/systemd/roost@.service'), 'utf8');
  expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node --import tsx server\/main\.ts$/m);
  const env: Record<string, string> = {};
  for (const [, name, value] of unit.matchAll(/^Environment=([A-Z_0-9]+)=(.*)$/gm))
    env[name!] = value!.replaceAll('%i', String(port));
  // The unit's /var/lib/roost/<port> is systemd's to make; the test's own folder instead.
  env.DATA_DIR = path.join(dataDir, String(port));
  return env;
}

/**
 * The acceptance of the deployment kit, on loopback: Debian's nginx (self-signed certificate),
 * Debian's Mosquitto with TLS and the dynamic security plugin, PostgreSQL, Redis and two Roost
 * processes, each from the kit's own files. A gateway and a browser go through it as a farm's
 * would; the console's changes to the gateway reach Mosquitto at once.
 */
describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)('the deployment kit, end to end', () => {
  let mosquitto: KitMosquitto;
  let nginx: KitNginx;
  const roosts: ServerProcess[] = [];
  let drop: () => Promise<void>;
  let dataDir: string;
  let sim: RunningSimulator | null = null;
  let socket: Socket | null = null;
  let browser: Browser | null = null;
  let admin: string;
  let gateway: DemoGateway & { gatewayId: number };
  const clients: MqttClient[] = [];

  /** A request through nginx (https, its self-signed certificate trusted): status and envelope. */
  const call = <T>(
    method: string,
    route: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; body: { data: T; msg: string } }> =>
    new Promise((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const req = httpsRequest({
        method,
        host: '127.0.0.1',
        port: nginx.httpsPort,
        path: `/api${route}`,
        ca: nginx.cert,
        servername: 'localhost',
        headers: {
          ...(token ? { authorization: token } : {}),
          ...(text
            ? {
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(text)),
              }
            : {}),
        },
      });
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.once('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: T; msg: string },
          }),
        );
      });
      req.once('error', reject);
      req.end(text);
    });

  /** A gateway's own connection over TLS, never reconnecting: resolves connected or rejects. */
  const connectGateway = (username: string, password: string): Promise<MqttClient> =>
    new Promise((resolve, reject) => {
      const client = mqtt.connect(`mqtts://127.0.0.1:${mosquitto.tlsPort}`, {
        username,
        password,
        ca: mosquitto.cert,
        clientId: `kit-${randomBytes(3).toString('hex')}`,
        reconnectPeriod: 0,
        connectTimeout: 5_000,
      });
      clients.push(client);
      client.once('connect', () => resolve(client));
      client.once('error', (error) => {
        client.end(true);
        reject(error);
      });
    });

  beforeAll(async () => {
    // The processes serve the console from the repository's build, as the kit's unit does.
    if (!existsSync(path.join(ROOT, 'dist/index.html')))
      execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], {
        cwd: ROOT,
        stdio: 'ignore',
      });
    browser = await launchBrowser();
    const postgres = testDatabaseTargets().find((t) => t.name === 'postgres')!;
    const created = await postgres.create();
    drop = created.drop;
    dataDir = mkdtempSync(path.join(tmpdir(), 'roost-kit-'));
    mosquitto = await startKitMosquitto();
    const ports = [await freePort(), await freePort()];
    nginx = await startKitNginx(
      [`127.0.0.1:${ports[0]}`, `127.0.0.1:${ports[1]}`],
      mkdtempSync(path.join(dataDir, 'dist-')),
    );
    // /etc/roost/roost.env, as the README's "Deploy to a server" fills it in.
    const shared = {
      DATABASE_URL: created.target.kind === 'postgres' ? created.target.url : '',
      REDIS_URL: TEST_REDIS_URL!,
      MQTT_URL: mosquitto.roostUrl,
      ROOST_DYNSEC_USER: mosquitto.admin.username,
      ROOST_DYNSEC_PASSWORD: mosquitto.admin.password,
      ROOST_TRUSTED_PROXIES: '127.0.0.1',
      ROOST_PUBLIC_URL: `https://localhost:${nginx.httpsPort}`,
      // Both processes open the gateways' sealed broker passwords.
      ROOST_SECRET_KEY: randomBytes(32).toString('hex'),
      // The demo organisation stands in for a farm's houses; its gateways are real ones here.
      ROOST_DEMO: '1',
      ROOST_DEMO_HISTORY: 'off',
      ROOST_CAPTCHA: 'off',
    };
    // One after the other: the first migrates and seeds, the second finds it done.
    for (const port of ports) {
      const roost = runServer({ ...shared, ...unitEnvironment(port, dataDir) });
      roosts.push(roost);
      await waitFor(
        () =>
          fetch(`http://127.0.0.1:${port}/api/health`).then(
            (r) => (r.ok ? true : undefined),
            () => undefined,
          ),
        // Generous: a shared, loaded machine starts a process slowly.
        180_000,
        200,
      ).catch((error: Error) => {
        throw new Error(`${error.message}: ${roost.output()}`);
      });
    }
    const demo = JSON.parse(
      readFileSync(path.join(dataDir, String(ports[0]), DEMO_GATEWAYS_FILE), 'utf8'),
    ) as DemoGateway[];
    const chosen = demo.find((g) => g.farmName === 'Weifang Broiler Farm')!;
    const login = await call<{ token: string }>('POST', '/login', {
      username: 'admin',
      password: DEMO_PASSWORD,
    });
    admin = login.body.data.token;
    const db = new pg.Client({ connectionString: shared.DATABASE_URL });
    await db.connect();
    const row = await db
      .query<{ id: number }>('select id from gateways where network_id = $1', [chosen.networkId])
      .finally(() => db.end());
    gateway = { ...chosen, gatewayId: row.rows[0]!.id };
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
    socket?.disconnect();
    for (const c of clients) c.end(true);
    await sim?.stop();
    await Promise.all(
      roosts.map((r) => {
        r.child.kill('SIGTERM');
        return r.exited;
      }),
    );
    await nginx?.stop();
    await mosquitto?.stop();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** Gives the gateway a new token in the console (through nginx): the token. */
  const rotate = async () => {
    const answer = await call<{ token: string }>(
      'PUT',
      '/gateway/rotateToken',
      { id: gateway.gatewayId },
      admin,
    );
    expect(answer.status, answer.body.msg).toBe(200);
    return answer.body.data.token;
  };

  it('brings a gateway’s reading over TLS to a browser signed in over https, and its set-point back applied', async () => {
    const token = await rotate();
    socket = io(`https://localhost:${nginx.httpsPort}`, {
      auth: { token: admin },
      transports: ['websocket'],
      reconnection: false,
      ca: nginx.cert,
    });
    const temperatures: number[] = [];
    socket.on('house:updated', (batch: HouseUpdated) => {
      for (const d of batch.deltas)
        if (d.houseId === gateway.houseId && d.metrics?.temperature !== undefined)
          temperatures.push(d.metrics.temperature);
    });
    await new Promise<void>((resolve, reject) => {
      socket!.once('connect', () => resolve());
      socket!.once('connect_error', reject);
    });
    // And a real browser, signed in over https through nginx: its live stream is a WebSocket
    // (wss) that carries the house's reading.
    const origin = `https://localhost:${nginx.httpsPort}`;
    const context = await browser!.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    const sockets: string[] = [];
    const framesOfHouse: string[] = [];
    page.on('websocket', (ws) => {
      sockets.push(ws.url());
      ws.on('framereceived', ({ payload }) => {
        const text = typeof payload === 'string' ? payload : payload.toString('utf8');
        if (
          text.includes('"house:updated"') &&
          new RegExp(`"houseId":${gateway.houseId}[,}]`).test(text) &&
          text.includes('"temperature"')
        )
          framesOfHouse.push(text);
      });
    });
    await signIn(page, origin, 'admin');
    expect(page.url().startsWith(`${origin}/`)).toBe(true);
    sim = await startSimulator({
      url: `mqtts://127.0.0.1:${mosquitto.tlsPort}`,
      ca: mosquitto.cert,
      gateways: [{ ...gateway, token }],
      intervalMs: 1_000,
      seed: 48,
      controller: { applyDelayMs: [50, 200], localChangeChance: 0 },
    });
    await waitFor(() => (temperatures.length > 0 ? true : undefined), 20_000);
    await waitFor(() => (framesOfHouse.length > 0 ? true : undefined), 20_000);
    expect(sockets.some((u) => u.startsWith(`wss://localhost:${nginx.httpsPort}/socket.io/`))).toBe(
      true,
    );
    await context.close();

    // The controller has reported its parameters: it listens for commands.
    const house = () =>
      call<GatewayDetails>('GET', `/envcontrol/house?houseId=${gateway.houseId}`, undefined, admin);
    await waitFor(async () =>
      Object.keys((await house()).body.data.params).length ? true : undefined,
    );
    const sent = await call<{ commands: Command[] }>(
      'POST',
      '/envcontrol/send',
      { houseIds: [gateway.houseId], params: { heat_offset: 2.5 } },
      admin,
    );
    expect(sent.status).toBe(200);
    const id = sent.body.data.commands[0]!.id;
    const applied = await waitFor(async () => {
      const c = (await house()).body.data.commands.find((x) => x.id === id);
      return c?.state === 'applied' ? c : undefined;
    }, 20_000);
    expect(applied.readBack).toEqual({ heat_offset: 2.5 });
    await sim.stop();
    sim = null;
  }, 120_000);

  it('ends a rotated gateway’s session within 5 s, refuses its old password, then a deleted one', async () => {
    const old = await rotate();
    const client = await connectGateway(gateway.networkId, old);
    const closed = new Promise<number>((resolve) =>
      client.once('close', () => resolve(Date.now())),
    );
    const before = Date.now();
    const fresh = await rotate();
    expect((await closed) - before).toBeLessThan(5_000);
    await expect(connectGateway(gateway.networkId, old)).rejects.toThrow(/Not authorized|Bad/i);
    (await connectGateway(gateway.networkId, fresh)).end(true);

    const deleted = await call('DELETE', '/gateway/delete', { id: gateway.gatewayId }, admin);
    expect(deleted.status, deleted.body.msg).toBe(200);
    await expect(connectGateway(gateway.networkId, fresh)).rejects.toThrow(/Not authorized|Bad/i);
  });

  it('refuses plain text on the TLS port', async () => {
    // An MQTT CONNECT in clear: the TLS listener never answers it with a CONNACK.
    const answer = await new Promise<string>((resolve) => {
      const plain = tcpConnect(mosquitto.tlsPort, '127.0.0.1');
      let got = Buffer.alloc(0);
      plain.once('connect', () =>
        plain.write(Buffer.from('101000044d5154540402003c000474657374', 'hex')),
      );
      plain.on('data', (d: Buffer) => (got = Buffer.concat([got, d])));
      plain.once('close', () => resolve(got.toString('hex')));
      plain.once('error', () => undefined);
      setTimeout(() => plain.destroy(), 3_000);
    });
    expect(answer.startsWith('20')).toBe(false);
    // And mqtt.js in plain text gets no session there.
    const client = mqtt.connect(`mqtt://127.0.0.1:${mosquitto.tlsPort}`, {
      username: gateway.networkId,
      password: 'whatever',
      reconnectPeriod: 0,
      connectTimeout: 3_000,
    });
    clients.push(client);
    const connected = await new Promise<boolean>((resolve) => {
      client.once('connect', () => resolve(true));
      client.once('close', () => resolve(false));
      client.once('error', () => resolve(false));
    });
    expect(connected).toBe(false);
  });
});
