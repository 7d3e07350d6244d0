import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';
import { startRoost, type RunningRoost } from '../../server/roost';
import type { AlarmEvent } from '../../src/contract/live';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { demoHouse, openAlarms, setLimits } from './helpers';

const waitFor = async <T>(probe: () => T | undefined, timeoutMs = 20_000): Promise<T> => {
  const start = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`nothing within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe.each(testDatabaseTargets())('alarms live on $name', (target) => {
  let t: TestRoost;
  beforeAll(async () => {
    t = await startTestRoost(target);
  });
  afterAll(() => t?.stop());

  it('pushes raised, the count and acknowledged to sockets in scope only, within 2 s of the publish', async () => {
    const h = await demoHouse(t.roost.database, 'Weifang Broiler Farm', 'House 6');
    await setLimits(t.roost.database, h.houseId, { minDurationSeconds: 0 });
    await t.gatewayOf('Weifang Broiler Farm', 'House 6', 'tok-a6');
    const [farmToken, shackToken] = [await t.signIn('farm'), await t.signIn('shack')];
    const farm = await t.socket(farmToken);
    const shack = await t.socket(shackToken);
    const farmEvents: Array<[string, AlarmEvent | number]> = [];
    const shackEvents: Array<[string, AlarmEvent | number]> = [];
    for (const [socket, list] of [
      [farm, farmEvents],
      [shack, shackEvents],
    ] as const) {
      socket.on('alarm:raised', (a) => list.push(['raised', a]));
      socket.on('alarm:acknowledged', (a) => list.push(['acknowledged', a]));
      socket.on('alarm:count', (n) => list.push(['count', n]));
    }
    const amount = await fetch(`${t.url}/api/overview/alarmAmt/`, {
      headers: { authorization: farmToken },
    });
    const initial = ((await amount.json()) as { data: number }).data;
    const gw = await t.gateway(h.networkId, 'tok-a6');
    await gw.publishAsync(
      `roost/v1/${h.networkId}/telemetry`,
      JSON.stringify({ ts: Date.now(), metrics: { co2: 15_000 } }),
      { qos: 1 },
    );
    const raised = await waitFor(
      () => farmEvents.find((e) => e[0] === 'raised')?.[1] as AlarmEvent | undefined,
    );
    expect(raised).toMatchObject({ houseId: h.houseId, cause: 'co2High', state: 'active' });
    await waitFor(() =>
      farmEvents.some((e) => e[0] === 'count' && e[1] === initial + 1) ? true : undefined,
    );
    // How fast is `npm run bench`'s business (publish → alarm:count p50/p99).

    const res = await fetch(`${t.url}/api/alarm/acknowledge`, {
      method: 'POST',
      headers: { authorization: farmToken, 'content-type': 'application/json' },
      body: JSON.stringify({ id: raised.id }),
    });
    expect(res.status).toBe(200);
    await waitFor(() => farmEvents.find((e) => e[0] === 'acknowledged'));
    await new Promise((r) => setTimeout(r, 300));
    expect(shackEvents.filter((e) => e[0] !== 'count')).toEqual([]);
  });

  it('raises controller alarms from the event topic', async () => {
    const h = await demoHouse(t.roost.database, 'Weifang Broiler Farm', 'House 8');
    await t.gatewayOf('Weifang Broiler Farm', 'House 8', 'tok-a8');
    const gw = await t.gateway(h.networkId, 'tok-a8');
    await gw.publishAsync(
      `roost/v1/${h.networkId}/event`,
      JSON.stringify({
        ts: Date.now(),
        kind: 'alarm',
        code: 'fan_failure',
        active: true,
        text: 'Fans failed',
      }),
      { qos: 1 },
    );
    const open = await (async () => {
      for (let i = 0; i < 100; i += 1) {
        const rows = await openAlarms(t.roost.database, h.houseId);
        if (rows.length > 0) return rows;
        await new Promise((r) => setTimeout(r, 20));
      }
      return [];
    })();
    expect(open).toMatchObject([{ cause: 'controllerAlarm', subject: 'fan_failure' }]);
  });
});

const postgres = testDatabaseTargets().find((d) => d.name === 'postgres');
if (postgres) {
  describe('two server processes on one PostgreSQL database', () => {
    const roosts: RunningRoost[] = [];
    let drop: () => Promise<void> = async () => undefined;
    afterAll(async () => {
      for (const r of roosts) await r.close();
      await drop();
    });

    it('never open two alarms for one cause', async () => {
      const created = await postgres.create();
      drop = created.drop;
      const url = created.target.kind === 'postgres' ? created.target.url : '';
      const base = readConfig({
        PORT: '0',
        DATA_DIR: 'memory://',
        ROOST_DEMO: '1',
        ROOST_DEMO_HISTORY: 'off',
        ROOST_CAPTCHA: 'off',
        LOG_LEVEL: 'silent',
      });
      for (let i = 0; i < 2; i += 1)
        roosts.push(
          await startRoost({ ...base, databaseUrl: url, mqttPort: null, runSimulator: false }),
        );
      const [a, b] = roosts as [RunningRoost, RunningRoost];
      const h = await demoHouse(a.database, 'Weifang Broiler Farm', 'House 1');
      await setLimits(a.database, h.houseId, { minDurationSeconds: 0, clearHoldSeconds: 0 });
      const token = 'tok-two';
      const { hashToken } = await import('../../server/auth/tokens');
      await a.database.query('update gateways set token_hash = $1 where id = $2', [
        hashToken(token),
        h.gatewayId,
      ]);
      const start = Date.now() - 60_000;
      // Both processes take readings of the same house at once, all over the limit.
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fetch(`${(i % 2 ? a : b).url}/api/ingest/${h.networkId}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ ts: start + i * 1000, metrics: { co2: 15_000 } }),
          }).then((r) => expect(r.status).toBe(200)),
        ),
      );
      await Promise.all(roosts.map((r) => r.ingest.drain()));
      const rows = await a.database.query<{ n: number }>(
        `select count(*)::int as n from alarms where house_id = $1 and cause = 'co2High'`,
        [h.houseId],
      );
      expect(rows).toEqual([{ n: 1 }]);
    });
  });
}
