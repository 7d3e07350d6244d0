import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig, type Config } from '../../server/config';
import { farms, gateways, houses, userHouses, users } from '../../server/db/schema';
import { hashToken } from '../../server/auth/tokens';
import { disableNagle } from '../../server/mqtt/noDelay';
import { startRoost, type RunningRoost } from '../../server/roost';
import type { HouseUpdated } from '../../src/contract/live';
import { testDatabaseTargets } from '../helpers/databases';

const { TEST_DATABASE_URL, TEST_MQTT_URL, TEST_REDIS_URL } = process.env;

// This runs where the real services are named (CI sets all three).
describe.runIf(TEST_DATABASE_URL && TEST_MQTT_URL && TEST_REDIS_URL)(
  'two server processes on PostgreSQL, Mosquitto and Redis',
  () => {
    const postgres = testDatabaseTargets().find((t) => t.name === 'postgres')!;
    let drop: () => Promise<void>;
    let a: RunningRoost;
    let b: RunningRoost;
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
        mqttUrl: TEST_MQTT_URL!,
        mqttPort: null,
        redisUrl: TEST_REDIS_URL!,
        runSimulator: false,
        // A group of this run's own: other runs' sessions on the same broker get their own copies.
        mqttShareGroup: `roost-test-${randomBytes(4).toString('hex')}`,
      };
      a = await startRoost(config);
      b = await startRoost(config);
    });
    afterAll(async () => {
      await Promise.allSettled([a?.close(), b?.close()]);
      await drop?.();
    });

    it('stores a reading published once exactly once, and shows it on a browser of the other process', async () => {
      const [house] = await a.database.db
        .select({ id: houses.id, networkId: gateways.networkId })
        .from(houses)
        .innerJoin(farms, eq(farms.id, houses.farmId))
        .innerJoin(gateways, eq(gateways.houseId, houses.id))
        .where(eq(farms.name, 'Weifang Broiler Farm'))
        .limit(1);
      const login = await fetch(`${b.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'Roost12345' }),
      }).then((r) => r.json() as Promise<{ data: { token: string } }>);
      const socket = io(b.url, {
        auth: { token: login.data.token },
        transports: ['websocket'],
        reconnection: false,
      });
      const seen: number[] = [];
      socket.on('house:updated', (batch: HouseUpdated) => {
        for (const d of batch.deltas)
          if (d.houseId === house!.id && d.metrics?.temperature !== undefined)
            seen.push(d.metrics.temperature);
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });

      const gateway = disableNagle(
        mqtt.connect(TEST_MQTT_URL!, { clientId: `gw-${randomBytes(4).toString('hex')}` }),
      );
      await new Promise((resolve) => gateway.once('connect', resolve));
      const count = async () =>
        Number(
          (
            await a.database.query<{ n: string }>(
              'select count(*) as n from telemetry where house_id = $1',
              [house!.id],
            )
          )[0]!.n,
        );
      // Both processes' subscriptions are in place once a first reading comes through.
      const base = Date.now() - 600_000;
      // Sent again until stored (the same reading: stored once whatever the resends).
      const probe = JSON.stringify({ ts: base, metrics: { temperature: 19 } });
      await waitFor(async () => {
        await gateway.publishAsync(`roost/v1/${house!.networkId}/telemetry`, probe, { qos: 1 });
        await new Promise((r) => setTimeout(r, 200));
        return (await count()) === 1;
      });

      for (let i = 1; i <= 40; i += 1) {
        await gateway.publishAsync(
          `roost/v1/${house!.networkId}/telemetry`,
          JSON.stringify({ ts: base + i * 1000, metrics: { temperature: 20 + i / 10 } }),
          { qos: 1 },
        );
      }
      await waitFor(async () => (await count()) >= 41);
      await new Promise((r) => setTimeout(r, 500));
      expect(await count()).toBe(41);
      // Both processes took a share of the readings (the broker split the shared subscription).
      expect(a.ingest.counters.stored).toBeGreaterThan(0);
      expect(b.ingest.counters.stored).toBeGreaterThan(0);
      expect(a.ingest.counters.stored + b.ingest.counters.stored).toBe(41);
      await waitFor(
        async () => seen.includes(24),
        20_000,
        () => `B's browser saw ${JSON.stringify(seen)}`,
      );

      // A reading stored by process A for certain (its own HTTP ingest) reaches B's browser.
      await a.database.db
        .update(gateways)
        .set({ tokenHash: hashToken('cluster-token') })
        .where(eq(gateways.networkId, house!.networkId));
      a.ingest.directory.forget(house!.networkId);
      const stored = await fetch(`${a.url}/api/ingest/${house!.networkId}`, {
        method: 'POST',
        headers: { authorization: 'Bearer cluster-token', 'content-type': 'application/json' },
        body: JSON.stringify({ ts: base + 100_000, metrics: { temperature: 33.3 } }),
      });
      expect(stored.status).toBe(200);
      await waitFor(
        async () => seen.includes(33.3),
        20_000,
        () => `B's browser saw ${JSON.stringify(seen)}`,
      );
      gateway.end(true);
      socket.close();
    });

    it("stops a house manager's socket on one process hearing a house taken away on the other", async () => {
      const signIn = (url: string, username: string) =>
        fetch(`${url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password: 'Roost12345' }),
        }).then((r) => r.json() as Promise<{ data: { token: string } }>);
      const [shack] = await a.database.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.username, 'shack'));
      const assigned = await a.database.db
        .select({ houseId: userHouses.houseId, networkId: gateways.networkId })
        .from(userHouses)
        .innerJoin(gateways, eq(gateways.houseId, userHouses.houseId))
        .where(eq(userHouses.userId, shack!.id))
        .orderBy(userHouses.houseId);
      expect(assigned.length).toBeGreaterThanOrEqual(2);
      const [taken, kept] = assigned as [(typeof assigned)[0], (typeof assigned)[0]];

      const socket = io(b.url, {
        auth: { token: (await signIn(b.url, 'shack')).data.token },
        transports: ['websocket'],
        reconnection: false,
      });
      const heard = new Map<number, number[]>();
      const hear = (houseId: number, value: number | undefined) => {
        if (value !== undefined) heard.set(houseId, [...(heard.get(houseId) ?? []), value]);
      };
      socket.on('house:updated', (batch: HouseUpdated) => {
        for (const d of batch.deltas) hear(d.houseId, d.metrics?.temperature);
      });
      socket.on('house:reading', (r: { houseId: number; metrics: { temperature?: number } }) =>
        hear(r.houseId, r.metrics.temperature),
      );
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const subscribe = (houseId: number) =>
        socket.emitWithAck('house:subscribe', houseId) as Promise<{ ok: boolean }>;
      expect(await subscribe(taken.houseId)).toEqual({ ok: true });

      // The administrator, signed in on process A, leaves the house manager only `kept`.
      const admin = (await signIn(a.url, 'admin')).data.token;
      const saved = await fetch(`${a.url}/api/user/saveUserShacks`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: shack!.id, roleKey: 'shack_manager', shackIds: [kept.houseId] }),
      });
      expect(saved.status).toBe(200);
      // Process B re-scopes the open socket: the taken house can no longer be followed.
      await waitFor(
        async () => !(await subscribe(taken.houseId)).ok,
        20_000,
        () => 'the socket on B may still follow the house taken away',
      );
      expect(await subscribe(kept.houseId)).toEqual({ ok: true });

      // Readings for both houses, stored by process A: B's socket hears only the kept house.
      for (const house of [taken, kept]) {
        await a.database.db
          .update(gateways)
          .set({ tokenHash: hashToken(`scope-${house.houseId}`) })
          .where(eq(gateways.networkId, house.networkId));
        a.ingest.directory.forget(house.networkId);
      }
      const send = (house: typeof taken, temperature: number) =>
        fetch(`${a.url}/api/ingest/${house.networkId}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer scope-${house.houseId}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ ts: Date.now(), metrics: { temperature } }),
        });
      expect((await send(taken, 41.1)).status).toBe(200);
      expect((await send(kept, 42.2)).status).toBe(200);
      await waitFor(
        async () => (heard.get(kept.houseId) ?? []).includes(42.2),
        20_000,
        () => `B's socket heard ${JSON.stringify([...heard])}`,
      );
      expect(heard.get(taken.houseId) ?? []).not.toContain(41.1);
      socket.close();
    });
  },
);

async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs = 10_000,
  state = () => '',
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out ${state()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
