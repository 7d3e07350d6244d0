import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitsInForce } from '../../src/contract/alarmLimits';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import { alarmPipeline, demoHouse, openAlarms, testClock } from './helpers';

const MIN = 60_000;

/**
 * The controller's own alarm limits and Roost's meet in a house: the page says which one Roost
 * raises at and why, and a house can follow its controller's.
 */
describe.each(testDatabaseTargets())("a house's alarm limits in force on $name", (target) => {
  let t: TestApp;
  const clock = testClock(new Date(Date.now() - 3 * 3_600_000));
  let p: ReturnType<typeof alarmPipeline>;
  beforeAll(async () => {
    t = await createTestApp(target);
    p = alarmPipeline(t.database, clock.now);
  }, 180_000);
  afterAll(() => t?.close());

  const inForce = async (token: string, houseId: number) =>
    t.app.inject({
      method: 'GET',
      url: `/api/alarm/limitsInForce?houseId=${houseId}`,
      headers: { authorization: `Bearer ${token}` },
    });
  const limitOf = (answer: LimitsInForce, cause: string) =>
    answer.limits.find((l) => l.cause === cause)!;
  const send = async (networkId: string, temperature: number) => {
    const result = await p.ingest.submitTelemetry(networkId, {
      ts: clock.now().getTime(),
      metrics: { temperature },
    });
    await p.ingest.drain();
    expect(result.status).toBe('stored');
  };

  it("says Roost's limit is the breed's target plus a band until the house follows its controller, then raises at the controller's", async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
    await t.database.query(
      `insert into gateway_params (gateway_id, params) values ($1, $2::jsonb)
       on conflict (gateway_id) do update set params = excluded.params`,
      [h.gatewayId, JSON.stringify({ alarm_temp_high: 35, alarm_temp_low: 12, heat_offset: 1 })],
    );
    const admin = await t.signIn('admin');

    const own = bodyOf<LimitsInForce>(await inForce(admin, h.houseId)).data;
    expect(own).toMatchObject({ followController: false, controllerReported: true });
    const high = limitOf(own, 'temperatureHigh');
    expect(high.basis).toBe('breed');
    expect(high.target).not.toBeNull();
    expect(high.raise).toBeCloseTo(high.target! + high.band!, 5);
    expect(high.raise).toBeLessThan(35);

    // Between Roost's limit and the controller's: Roost raises its own alarm.
    const between = Math.round((high.raise + 35) / 2);
    for (let i = 0; i < 3; i += 1) {
      await send(h.networkId, between);
      clock.advance(MIN);
    }
    expect((await openAlarms(t.database, h.houseId)).map((a) => a.cause)).toContain(
      'temperatureHigh',
    );

    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/alarm/limits',
      headers: { authorization: `Bearer ${admin}` },
      payload: { houseId: h.houseId, limits: { followController: true } },
    });
    expect(saved.statusCode).toBe(200);
    const followed = bodyOf<LimitsInForce>(await inForce(admin, h.houseId)).data;
    expect(followed.followController).toBe(true);
    expect(limitOf(followed, 'temperatureHigh')).toMatchObject({ basis: 'controller', raise: 35 });
    expect(limitOf(followed, 'temperatureLow')).toMatchObject({ basis: 'controller', raise: 12 });
    // A cause the controller has no limit for keeps Roost's.
    expect(limitOf(followed, 'co2High').basis).not.toBe('controller');

    // The engine reads house rules again after its minute: the same heat now clears.
    clock.advance(2 * MIN);
    for (let i = 0; i < 5; i += 1) {
      await send(h.networkId, between);
      clock.advance(MIN);
    }
    expect((await openAlarms(t.database, h.houseId)).map((a) => a.cause)).not.toContain(
      'temperatureHigh',
    );
  });

  it('answers only for a house the caller may see', async () => {
    const outside = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 5');
    const shack = await t.signIn('shack');
    expect((await inForce(shack, outside.houseId)).statusCode).toBe(404);
    const own = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
    expect((await inForce(shack, own.houseId)).statusCode).toBe(200);
  });
});
