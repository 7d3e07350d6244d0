import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig, type Config } from '../../server/config';
import { hashToken } from '../../server/auth/tokens';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import { gateways } from '../../server/db/schema';
import { startRoost, type RunningRoost } from '../../server/roost';
import { testDatabaseTargets } from '../helpers/databases';
import { waitFor } from '../helpers/waitFor';

const { TEST_DATABASE_URL, TEST_REDIS_URL } = process.env;

/**
 * Two Roost processes on one PostgreSQL and Redis, each with its own embedded broker: a
 * gateway's token rotated on one is refused by the other at once, not when the other's 30 s
 * cache entry runs out, and the other's open session of that gateway ends.
 */
describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)('revoked gateways across processes', () => {
  const postgres = testDatabaseTargets().find((t) => t.name === 'postgres')!;
  let drop: () => Promise<void>;
  let a: RunningRoost;
  let b: RunningRoost;
  let gateway: { id: number; networkId: string };
  const clients: MqttClient[] = [];
  const old = `old-${randomBytes(8).toString('hex')}`;

  const connect = (roost: RunningRoost, token: string) =>
    new Promise<MqttClient>((resolve, reject) => {
      const client = mqtt.connect(`mqtt://127.0.0.1:${roost.mqttPort}`, {
        username: gateway.networkId,
        password: token,
        reconnectPeriod: 0,
      });
      clients.push(client);
      client.once('connect', () => resolve(client));
      client.once('error', reject);
    });

  beforeAll(async () => {
    const created = await postgres.create();
    drop = created.drop;
    const config: Config = {
      ...readConfig({
        PORT: '0',
        ROOST_DEMO: '1',
        ROOST_DEMO_HISTORY: 'off',
        ROOST_CAPTCHA: 'off',
        LOG_LEVEL: 'silent',
        DATA_DIR: 'memory://',
      }),
      databaseUrl: created.target.kind === 'postgres' ? created.target.url : null,
      mqttPort: 0,
      redisUrl: TEST_REDIS_URL!,
      runSimulator: false,
    };
    a = await startRoost(config);
    b = await startRoost(config);
    const [row] = await a.database.db
      .update(gateways)
      .set({ tokenHash: hashToken(old) })
      .where(eq(gateways.networkId, a.boot.demoGateways![0]!.networkId))
      .returning({ id: gateways.id, networkId: gateways.networkId });
    gateway = row!;
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await Promise.allSettled([a?.close(), b?.close()]);
    await drop?.();
  });

  it('refuses a rotated token on the other process at once, and ends its session there', async () => {
    // B has the gateway cached with its old token, and a session signed in with it.
    expect(await b.ingest.directory.verifyToken(gateway.networkId, old)).not.toBeNull();
    const session = await connect(b, old);
    const closed = new Promise<void>((resolve) => session.once('close', () => resolve()));

    const login = await fetch(`${a.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
    }).then((r) => r.json() as Promise<{ data: { token: string } }>);
    const rotated = await fetch(`${a.url}/api/gateway/rotateToken`, {
      method: 'PUT',
      headers: { authorization: login.data.token, 'content-type': 'application/json' },
      body: JSON.stringify({ id: gateway.id }),
    }).then((r) => r.json() as Promise<{ data: { token: string } }>);
    const fresh = rotated.data.token;

    // The answer came after Redis took the message: B has heard it (a moment to read it).
    await waitFor(
      async () =>
        (await b.ingest.directory.verifyToken(gateway.networkId, old)) === null ? true : undefined,
      1_000,
      10,
    );
    expect(await b.ingest.directory.verifyToken(gateway.networkId, fresh)).not.toBeNull();
    await closed;
    await expect(connect(b, old)).rejects.toThrow(/Bad username or password|Not authorized/i);
    (await connect(b, fresh)).end(true);
  });
});
