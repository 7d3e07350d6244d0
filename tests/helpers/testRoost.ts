import { and, eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { io, type Socket } from 'socket.io-client';
import { readConfig, type Config } from '../../server/config';
import { gateways, houses, farms } from '../../server/db/schema';
import { hashToken } from '../../server/auth/tokens';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import { startRoost, type RunningRoost } from '../../server/roost';
import type { ClientToServerEvents, ServerToClientEvents } from '../../src/contract/live';
import { disableNagle } from '../../server/mqtt/noDelay';
import type { TestDatabaseTarget } from './databases';

export interface TestRoost {
  roost: RunningRoost;
  url: string;
  mqttUrl: string;
  stop(): Promise<void>;
  signIn(username: string, password?: string): Promise<string>;
  /** Gives the named demo house's gateway a known token; answers its network id. */
  gatewayOf(
    farmName: string,
    houseName: string,
    token: string,
  ): Promise<{ networkId: string; houseId: number; gatewayId: number }>;
  gateway(networkId: string, token: string, options?: mqtt.IClientOptions): Promise<MqttClient>;
  socket(token: string): Promise<Socket<ServerToClientEvents, ClientToServerEvents>>;
  /** GET (no body) or POST (a body) to /api`path` as `token`, in `locale`: status and envelope. */
  api<T>(
    token: string,
    path: string,
    body?: unknown,
    locale?: string,
  ): Promise<{ status: number; body: { data: T; msg: string } }>;
}

/** A whole running server (database, embedded broker on a free port, HTTP, live hub). */
export async function startTestRoost(
  target: TestDatabaseTarget,
  overrides: Partial<Config> = {},
): Promise<TestRoost> {
  const created = await target.createMigrated();
  const base = readConfig({
    PORT: '0',
    DATA_DIR: 'memory://',
    ROOST_DEMO: '1',
    // The demo's past only where a test is about it: the others count rows and alarms from zero.
    ROOST_DEMO_HISTORY: 'off',
    ROOST_CAPTCHA: 'off',
    ROOST_CHECK_ANSWERS: 'on',
    LOG_LEVEL: 'silent',
  });
  const config: Config = {
    ...base,
    databaseUrl: created.target.kind === 'postgres' ? created.target.url : null,
    mqttPort: 0,
    runSimulator: false,
    ...overrides,
  };
  const roost = await startRoost(config);
  const clients: Array<{ end(force?: boolean): unknown }> = [];
  const sockets: Socket[] = [];
  const url = roost.url;
  return {
    roost,
    url,
    mqttUrl: `mqtt://127.0.0.1:${roost.mqttPort ?? 0}`,
    async api<T>(token: string, path: string, body?: unknown, locale = 'en') {
      const res = await fetch(`${url}/api${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: token, 'content-type': 'application/json', locale },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { data: T; msg: string } };
    },
    async stop() {
      for (const s of sockets) s.disconnect();
      for (const c of clients) c.end(true);
      await roost.close();
      await created.drop();
    },
    async signIn(username, password = DEMO_PASSWORD) {
      const res = await fetch(`${url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      const body = (await res.json()) as { data: { token: string } | null; msg: string };
      if (!body.data) throw new Error(body.msg);
      return body.data.token;
    },
    async gatewayOf(farmName, houseName, token) {
      const db = roost.database.db;
      const [house] = await db
        .select({ id: houses.id })
        .from(houses)
        .innerJoin(farms, eq(farms.id, houses.farmId))
        .where(and(eq(farms.name, farmName), eq(houses.name, houseName)));
      if (!house) throw new Error(`no house ${houseName} in ${farmName}`);
      const [gw] = await db
        .update(gateways)
        .set({ tokenHash: hashToken(token) })
        .where(eq(gateways.houseId, house.id))
        .returning();
      if (!gw) throw new Error(`house ${houseName} in ${farmName} has no gateway`);
      roost.ingest.directory.forget(gw.networkId);
      return { networkId: gw.networkId, houseId: house.id, gatewayId: gw.id };
    },
    async gateway(networkId, token, options = {}) {
      const client = mqtt.connect(`mqtt://127.0.0.1:${roost.mqttPort}`, {
        username: networkId,
        password: token,
        clientId: `test-${networkId}-${Math.random().toString(36).slice(2, 8)}`,
        reconnectPeriod: 0,
        ...options,
      });
      disableNagle(client);
      clients.push(client);
      await new Promise<void>((resolve, reject) => {
        client.once('connect', () => resolve());
        client.once('error', reject);
      });
      return client;
    },
    async socket(token) {
      const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(url, {
        auth: { token },
        transports: ['websocket'],
        reconnection: false,
      });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      return socket;
    },
  };
}
