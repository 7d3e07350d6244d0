import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateways } from '../../server/db/schema';
import type { HouseDelta, HouseReading, HouseUpdated } from '../../src/contract/live';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';

type Socket = Awaited<ReturnType<TestRoost['socket']>>;

/** Every delta a socket receives for one house, with the time it arrived. */
function recordDeltas(socket: Socket, houseId: number) {
  const seen: Array<{ at: number; delta: HouseDelta }> = [];
  let batches = 0;
  socket.on('house:updated', (batch: HouseUpdated) => {
    batches += 1;
    for (const delta of batch.deltas)
      if (delta.houseId === houseId) seen.push({ at: Date.now(), delta });
  });
  return {
    seen,
    batches: () => batches,
    until(predicate: (d: HouseDelta) => boolean, timeoutMs = 20_000): Promise<HouseDelta> {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          const hit = seen.find((s) => predicate(s.delta));
          if (hit) {
            clearInterval(poll);
            resolve(hit.delta);
          } else if (Date.now() - started > timeoutMs) {
            clearInterval(poll);
            reject(
              new Error(
                `no matching delta within ${timeoutMs} ms; got ${JSON.stringify(seen.map((s) => s.delta))}`,
              ),
            );
          }
        }, 10);
      });
    },
  };
}

const publish = (
  client: MqttClient,
  id: string,
  metrics: Record<string, number>,
  ts = Date.now(),
) => client.publishAsync(`roost/v1/${id}/telemetry`, JSON.stringify({ ts, metrics }), { qos: 1 });

describe.each(testDatabaseTargets())('live updates on $name', (target) => {
  let t: TestRoost;
  beforeAll(async () => {
    t = await startTestRoost(target);
  });
  afterAll(() => t?.stop());

  it('reaches the sockets allowed to see the house, and never the others', async () => {
    const weifang5 = await t.gatewayOf('Weifang Broiler Farm', 'House 5', 'tok-w5');
    const qingyuan1 = await t.gatewayOf('Qingyuan Layer Farm', 'House 1', 'tok-q1');
    const [admin, farm, shack] = await Promise.all(
      ['admin', 'farm', 'shack'].map(async (u) => t.socket(await t.signIn(u))),
    );
    const adminW5 = recordDeltas(admin!, weifang5.houseId);
    const farmW5 = recordDeltas(farm!, weifang5.houseId);
    const shackW5 = recordDeltas(shack!, weifang5.houseId);
    const adminQ1 = recordDeltas(admin!, qingyuan1.houseId);
    const farmQ1 = recordDeltas(farm!, qingyuan1.houseId);

    await publish(await t.gateway(weifang5.networkId, 'tok-w5'), weifang5.networkId, {
      temperature: 25.5,
      humidity: 60,
    });
    await publish(await t.gateway(qingyuan1.networkId, 'tok-q1'), qingyuan1.networkId, {
      temperature: 21,
    });
    const first = await adminW5.until((d) => d.metrics?.temperature === 25.5);
    expect(first).toMatchObject({ online: true, metrics: { temperature: 25.5, humidity: 60 } });
    await farmW5.until((d) => d.metrics?.temperature === 25.5);
    // How fast is measured by `npm run bench` (publish → socket p50/p99), not asserted here.
    await adminQ1.until((d) => d.metrics?.temperature === 21);
    // The flush that reached the admin reached everyone: anything else would have arrived by now.
    await new Promise((r) => setTimeout(r, 400));
    expect(shackW5.seen).toEqual([]);
    expect(farmQ1.seen).toEqual([]);
  });

  it('coalesces a burst into a few batches carrying only what changed, latest value last', async () => {
    const house = await t.gatewayOf('Weifang Broiler Farm', 'House 7', 'tok-w7');
    const gw = await t.gateway(house.networkId, 'tok-w7');
    const admin = await t.socket(await t.signIn('admin'));
    const deltas = recordDeltas(admin, house.houseId);
    await publish(gw, house.networkId, { temperature: 20, humidity: 55 }, Date.now() - 30_000);
    await deltas.until((d) => d.metrics?.temperature === 20);
    const start = Date.now();
    const before = deltas.seen.length;
    for (let i = 1; i <= 40; i += 1)
      await publish(
        gw,
        house.networkId,
        { temperature: 20 + i / 10, humidity: 55 },
        Date.now() - 30_000 + i,
      );
    const last = await deltas.until((d) => d.metrics?.temperature === 24);
    const received = deltas.seen.length - before;
    // 4 batches a second at most: the burst took `elapsed`, so at most elapsed/250 + 2 batches.
    expect(received).toBeLessThanOrEqual(Math.ceil((Date.now() - start) / 250) + 2);
    expect(received).toBeLessThan(40);
    expect(Object.keys(last).sort()).toEqual(['houseId', 'lastSeenAt', 'lastTs', 'metrics']);
  });

  it('gives the monitor every reading of a subscribed house, and refuses a house outside the scope', async () => {
    const inside = await t.gatewayOf('Weifang Broiler Farm', 'House 1', 'tok-w1');
    const outside = await t.gatewayOf('Suqian Layer Farm', 'House 2', 'tok-s2');
    const shack = await t.socket(await t.signIn('shack'));
    expect(await shack.emitWithAck('house:subscribe', outside.houseId)).toEqual({
      ok: false,
      error: 'forbidden',
    });
    expect(await shack.emitWithAck('house:subscribe', inside.houseId)).toEqual({ ok: true });
    const readings: HouseReading[] = [];
    shack.on('house:reading', (r) => readings.push(r));
    const gw = await t.gateway(inside.networkId, 'tok-w1');
    const outsideGw = await t.gateway(outside.networkId, 'tok-s2');
    for (let i = 0; i < 5; i += 1) {
      await publish(gw, inside.networkId, { temperature: 30 + i }, Date.now() - 10_000 + i);
      await publish(outsideGw, outside.networkId, { temperature: 10 + i }, Date.now() - 10_000 + i);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(readings.map((r) => [r.houseId, r.metrics.temperature])).toEqual(
      [30, 31, 32, 33, 34].map((v) => [inside.houseId, v]),
    );
    shack.emit('house:unsubscribe', inside.houseId);
    await new Promise((r) => setTimeout(r, 100));
    await publish(gw, inside.networkId, { temperature: 40 }, Date.now() - 5_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(readings).toHaveLength(5);
  });

  it('marks a gateway that stops publishing offline within 3 intervals', async () => {
    const house = await t.gatewayOf('Tieling Broiler Farm', 'House 3', 'tok-t3');
    await t.roost.database.db
      .update(gateways)
      .set({ intervalSeconds: 1 })
      .where(eq(gateways.id, house.gatewayId));
    t.roost.ingest.directory.forget(house.networkId);
    const admin = await t.socket(await t.signIn('admin'));
    const deltas = recordDeltas(admin, house.houseId);
    await publish(await t.gateway(house.networkId, 'tok-t3'), house.networkId, { temperature: 22 });
    const lastReading = Date.now();
    await deltas.until((d) => d.online === true);
    await deltas.until((d) => d.online === false);
    const offlineAfter = deltas.seen.find((s) => s.delta.online === false)!.at - lastReading;
    expect(offlineAfter).toBeGreaterThanOrEqual(2_500);
    // 3 intervals, plus the 1 s sweep, plus the 250 ms flush: not long after, with room for a
    // loaded machine (the lower bound is the rule; the upper one says the sweep runs at all).
    expect(offlineAfter).toBeLessThan(3_000 + 1_000 + 250 + 5_000);
    const log = await t.roost.database.query<{ online: boolean; reason: string }>(
      'select online, reason from gateway_online_log where gateway_id = $1 order by id',
      [house.gatewayId],
    );
    expect(log).toEqual([
      { online: true, reason: 'data' },
      { online: false, reason: 'silent' },
    ]);
  });

  it('follows the retained status and the will: online, network, then offline when the link dies', async () => {
    const house = await t.gatewayOf('Mianyang Layer Farm', 'House 2', 'tok-m2');
    const admin = await t.socket(await t.signIn('admin'));
    const deltas = recordDeltas(admin, house.houseId);
    const statusTopic = `roost/v1/${house.networkId}/status`;
    const gw = await t.gateway(house.networkId, 'tok-m2', {
      will: { topic: statusTopic, payload: Buffer.from('{"online":false}'), qos: 1, retain: true },
    });
    await gw.publishAsync(
      statusTopic,
      JSON.stringify({ online: true, network: 'wireless', version: '3.2.1' }),
      { qos: 1, retain: true },
    );
    await deltas.until(
      (d) => d.online === true && d.network === 'wireless' && d.gatewayVersion === '3.2.1',
    );
    gw.stream.destroy();
    await deltas.until((d) => d.online === false);
  });

  it('ends a session’s live socket when it logs out, without waiting for a poll', async () => {
    const token = await t.signIn('company');
    const socket = await t.socket(token);
    const ended = new Promise<number>((resolve) =>
      socket.on('disconnect', () => resolve(Date.now())),
    );
    const start = Date.now();
    await fetch(`${t.url}/api/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    // Well before the 30 s poll would have found out; a loaded machine gets room.
    expect((await ended) - start).toBeLessThan(5_000);
  });

  it('refuses a handshake without a valid token, or from another site', async () => {
    await expect(t.socket('not-a-token')).rejects.toThrow(/unauthorized/);
    const token = await t.signIn('admin');
    const crossSite = io(t.url, {
      auth: { token },
      transports: ['polling'],
      reconnection: false,
      extraHeaders: { origin: 'https://evil.example' },
    });
    const error = await new Promise<Error>((resolve) => crossSite.once('connect_error', resolve));
    crossSite.close();
    expect(error.message).toMatch(/xhr poll error|cross-site/i);
  });
});
