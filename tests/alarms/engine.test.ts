import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepSilentGateways } from '../../server/ingest/status';
import type { Reading } from '../../server/ingest/types';
import { testDatabaseTargets } from '../helpers/databases';
import { houseReading } from '../helpers/readings';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import { alarmPipeline, demoHouse, openAlarms, setLimits, testClock } from './helpers';

const MIN = 60_000;

describe.each(testDatabaseTargets())('alarm engine on $name', (target) => {
  let t: TestApp;
  const clock = testClock(new Date(Date.now() - 6 * 3_600_000));
  let p: ReturnType<typeof alarmPipeline>;
  // Seeding the demo on a fresh database takes over a minute on the shared, loaded machine.
  beforeAll(async () => {
    t = await createTestApp(target);
    p = alarmPipeline(t.database, clock.now);
  }, 180_000);
  afterAll(() => t?.close());

  /** Stores a reading and waits for the listeners (the pipeline answers once it is stored). */
  const send = async (
    networkId: string,
    metrics: Record<string, number>,
    extra: Record<string, unknown> = {},
  ) => {
    const result = await p.ingest.submitTelemetry(networkId, {
      ts: clock.now().getTime(),
      metrics,
      ...extra,
    });
    await p.ingest.drain();
    expect(result.status).toBe('stored');
  };

  it('raises after the minimum duration, keeps house_state in step, clears with hysteresis after the hold', async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
    await setLimits(t.database, h.houseId, {
      minDurationSeconds: 120,
      clearHoldSeconds: 120,
      temperatureBandHigh: 10,
    });
    await send(h.networkId, { temperature: 60 });
    clock.advance(MIN);
    await send(h.networkId, { temperature: 60 });
    expect(await openAlarms(t.database, h.houseId)).toEqual([]);
    clock.advance(MIN);
    await send(h.networkId, { temperature: 60 });
    const [alarm] = await openAlarms(t.database, h.houseId);
    expect(alarm).toMatchObject({
      cause: 'temperatureHigh',
      subject: 'temperature',
      state: 'active',
    });
    const [hs] = await t.database.query<{ alarm_count: number; alarm_top: { cause: string } }>(
      'select alarm_count, alarm_top from house_state where house_id = $1',
      [h.houseId],
    );
    expect(hs).toMatchObject({ alarm_count: 1, alarm_top: { cause: 'temperatureHigh' } });
    // Back to normal: the alarm stays until the condition has been gone for the hold.
    for (let i = 0; i < 2; i += 1) {
      clock.advance(MIN);
      await send(h.networkId, { temperature: 30 });
      expect(await openAlarms(t.database, h.houseId)).toHaveLength(1);
    }
    clock.advance(MIN);
    await send(h.networkId, { temperature: 30 });
    expect(await openAlarms(t.database, h.houseId)).toEqual([]);
    const [after] = await t.database.query<{ alarm_count: number; alarm_top: unknown }>(
      'select alarm_count, alarm_top from house_state where house_id = $1',
      [h.houseId],
    );
    expect(after).toEqual({ alarm_count: 0, alarm_top: null });
    const logs = await t.database.query<{ function: string }>(
      `select function from operation_logs where house_id = $1 and function like 'alarm.%' order by id`,
      [h.houseId],
    );
    expect(logs.map((l) => l.function)).toEqual(['alarm.raise', 'alarm.clear']);
  });

  it('counts a flapping sensor inside one alarm', async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
    await setLimits(t.database, h.houseId, {
      minDurationSeconds: 0,
      clearHoldSeconds: 600,
      nh3Max: 20,
    });
    for (let i = 0; i < 4; i += 1) {
      clock.advance(MIN);
      await send(h.networkId, { nh3: 35 });
      clock.advance(MIN);
      await send(h.networkId, { nh3: 5 });
    }
    const rows = await t.database.query<{ occurrences: number }>(
      `select occurrences from alarms where house_id = $1 and cause = 'nh3High'`,
      [h.houseId],
    );
    expect(rows).toEqual([{ occurrences: 4 }]);
  });

  it('raises nothing in an empty house', async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 3');
    await setLimits(t.database, h.houseId, { minDurationSeconds: 0 });
    for (let i = 0; i < 5; i += 1) {
      clock.advance(MIN);
      await send(
        h.networkId,
        { temperature: 60, co2: 9000 },
        { mode: 99, devices: { fan_1: { state: 3 } } },
      );
    }
    expect(
      await p.engine.submitEvent(
        h.networkId,
        JSON.stringify({ ts: Date.now(), kind: 'di', code: 'DI1', active: true }),
      ),
    ).toBe(true);
    expect(await openAlarms(t.database, h.houseId)).toEqual([]);
  });

  it('raises and clears a gateway offline, device errors, controller alarms and DI inputs', async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 4');
    await setLimits(t.database, h.houseId, { minDurationSeconds: 0, clearHoldSeconds: 0 });
    clock.advance(MIN);
    await send(h.networkId, { temperature: 25 }, { devices: { fan_2: { state: 3 } } });
    await p.ingest.submitStatus(h.networkId, JSON.stringify({ online: false }));
    await p.ingest.drain();
    await t.database.query(
      `insert into alarm_inputs (gateway_id, di_code, content, horn, shield_test, relay_type, important)
       values ($1, 'DI2', 'Door open', true, false, 'normallyOpen', true)`,
      [h.gatewayId],
    );
    await p.engine.submitEvent(h.networkId, {
      ts: Date.now(),
      kind: 'di',
      code: 'DI2',
      active: true,
    });
    await p.engine.submitEvent(h.networkId, {
      ts: Date.now(),
      kind: 'alarm',
      code: 'fan_failure',
      active: true,
      text: 'Fans 1–2 failed',
    });
    const open = await t.database.query<{
      cause: string;
      subject: string;
      severity: string;
      text: string | null;
    }>(
      `select cause, subject, severity, text from alarms where house_id = $1 and state <> 'cleared' order by cause`,
      [h.houseId],
    );
    expect(open).toEqual([
      {
        cause: 'controllerAlarm',
        subject: 'fan_failure',
        severity: 'major',
        text: 'Fans 1–2 failed',
      },
      { cause: 'deviceError', subject: 'fan_2', severity: 'major', text: null },
      { cause: 'diInput', subject: 'DI2', severity: 'critical', text: 'Door open' },
      { cause: 'gatewayOffline', subject: '', severity: 'critical', text: null },
    ]);
    await p.engine.submitEvent(h.networkId, {
      ts: Date.now(),
      kind: 'di',
      code: 'DI2',
      active: false,
    });
    await p.engine.submitEvent(h.networkId, {
      ts: Date.now(),
      kind: 'alarm',
      code: 'fan_failure',
      active: false,
    });
    clock.advance(MIN);
    await send(h.networkId, { temperature: 25 }, { devices: { fan_2: { state: 1 } } });
    expect(await openAlarms(t.database, h.houseId)).toEqual([]);
  });

  it('raises one offline alarm per house when the sweep finds several silent at once, and clears each', async () => {
    const houses = [
      await demoHouse(t.database, 'Weifang Broiler Farm', 'House 6'),
      await demoHouse(t.database, 'Weifang Broiler Farm', 'House 7'),
      await demoHouse(t.database, 'Weifang Broiler Farm', 'House 8'),
    ];
    const ids = houses.map((h) => h.houseId);
    for (const h of houses) {
      clock.advance(MIN);
      await send(h.networkId, { temperature: 25 });
    }
    // Silent for an hour, as the sweep sees them: all three in one announcement.
    await t.database.query(
      `update house_state set last_seen_at = now() - interval '1 hour' where house_id = any($1::int[])`,
      [ids],
    );
    await p.ingest.announceStatus((await sweepSilentGateways(t.database, 86_400)).states);
    const offline = await t.database.query<{ house_id: number }>(
      `select house_id from alarms where house_id = any($1::int[]) and cause = 'gatewayOffline'
         and state <> 'cleared' order by house_id`,
      [ids],
    );
    expect(offline.map((r) => r.house_id)).toEqual([...ids].sort((a, b) => a - b));
    for (const h of houses) {
      await p.ingest.submitStatus(h.networkId, JSON.stringify({ online: true }));
      clock.advance(MIN);
      await send(h.networkId, { temperature: 25 });
    }
    const still = await t.database.query(
      `select id from alarms where house_id = any($1::int[]) and cause = 'gatewayOffline' and state <> 'cleared'`,
      [ids],
    );
    expect(still).toEqual([]);
  });

  it('answers the count and the list in scope, acknowledges with canOperate only', async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 5');
    await setLimits(t.database, h.houseId, { minDurationSeconds: 0 });
    clock.advance(MIN);
    await send(h.networkId, { co2: 12_000 });
    const admin = await t.signIn('admin');
    const farm = await t.signIn('farm');
    const shack = await t.signIn('shack');
    const get = (token: string, url: string) =>
      t.app.inject({ method: 'GET', url, headers: { authorization: token } });
    const post = (token: string, url: string, payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url,
        payload: payload as object,
        headers: { authorization: token },
      });
    const all = bodyOf<number>(await get(admin, '/api/overview/alarmAmt/')).data;
    expect(all).toBeGreaterThanOrEqual(1);
    const list = bodyOf<{ rows: Array<{ id: number; houseId: number; cause: string }> }>(
      await get(farm, `/api/alarm/list?houseId=${h.houseId}&cause=co2High`),
    ).data;
    const alarm = list.rows[0]!;
    expect(alarm).toMatchObject({ houseId: h.houseId, cause: 'co2High' });
    // The house manager's scope does not hold this house: not found, not acknowledged.
    expect(
      bodyOf<{ rows: unknown[] }>(await get(shack, `/api/alarm/list?houseId=${h.houseId}`)).data
        .rows,
    ).toEqual([]);
    expect((await post(shack, '/api/alarm/acknowledge', { id: alarm.id })).statusCode).toBe(404);
    await t.database.query(`update users set can_operate = false where username = 'farm'`);
    expect((await post(farm, '/api/alarm/acknowledge', { id: alarm.id })).statusCode).toBe(403);
    await t.database.query(`update users set can_operate = true where username = 'farm'`);
    const ack = await post(farm, '/api/alarm/acknowledge', {
      id: alarm.id,
      comment: 'fans checked',
    });
    expect(bodyOf(ack).data).toMatchObject({ state: 'acknowledged', ackComment: 'fans checked' });
    // The house's summary (what its card shows) says so too; the alarm stays open.
    const [hs] = await t.database.query<{ alarm_count: number; alarm_top: unknown }>(
      'select alarm_count, alarm_top from house_state where house_id = $1',
      [h.houseId],
    );
    const top = typeof hs?.alarm_top === 'string' ? JSON.parse(hs.alarm_top) : hs?.alarm_top;
    expect(top).toMatchObject({ cause: 'co2High', acknowledged: true });
    expect(hs?.alarm_count).toBe(1);
    expect((await post(farm, '/api/alarm/acknowledge', { id: alarm.id })).statusCode).toBe(409);
    // A condition-driven alarm cannot be cleared by hand.
    expect((await post(farm, '/api/alarm/clear', { id: alarm.id })).statusCode).toBe(409);
    const today = bodyOf<Array<{ cause: string; count: number }>>(
      await get(farm, '/api/alarm/today'),
    ).data;
    expect(today.find((c) => c.cause === 'co2High')?.count).toBeGreaterThanOrEqual(0);
  });

  it('never lets an evaluation of older readings that finishes last undo a newer one', async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 3');
    await setLimits(t.database, h.houseId, { minDurationSeconds: 120, temperatureBandHigh: 10 });
    const t0 = clock.now().getTime();
    const reading = (ts: number, temperature: number): Reading =>
      houseReading(h, ts, { metrics: { temperature } });
    const lastEvaluated = async () => {
      const [row] = await t.database.query<{ state: { lastTs: number } | string }>(
        'select state from alarm_rule_state where house_id = $1',
        [h.houseId],
      );
      const state = typeof row!.state === 'string' ? JSON.parse(row!.state) : row!.state;
      return (state as { lastTs: number }).lastTs;
    };
    await p.engine.onStored([reading(t0, 60)], []);
    // Both read the house's rule state before either writes it: the newer batch writes first,
    // and the older one, evaluated on what it read, must not overwrite that.
    await Promise.all([
      p.engine.onStored([reading(t0 + MIN, 60)], []),
      p.engine.onStored([reading(t0 + MIN / 2, 30)], []),
    ]);
    expect(await lastEvaluated()).toBe(t0 + MIN);
  });
});
