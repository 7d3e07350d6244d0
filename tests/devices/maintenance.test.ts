import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MaintenanceHistory, MaintenancePlan, Terminal } from '../../src/contract/devices';
import { addDays, dayIn, readPlans } from '../../server/devices/maintenance';
import { deviceNotices } from '../../server/devices/notify';
import { deviceExpiryReminders } from '../../server/devices/reminders';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { caller, houseNamed } from './helpers';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe.each(testDatabaseTargets())('maintenance plans on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  }, 180_000);
  afterAll(() => t?.close());

  /** Readings every 5 minutes from `from` for `hours`, the fan in `state`. */
  const play = async (networkId: string, from: number, hours: number, state: 0 | 1) => {
    for (let at = from; at <= from + hours * HOUR; at += 5 * MINUTE) {
      const result = await t.ingest.submitTelemetry(networkId, {
        ts: at,
        metrics: { temperature: 22 },
        devices: { fan_1: { state }, fan_2: { state: 1 } },
      });
      expect(result.status).toBe('stored');
    }
    await t.ingest.drain();
  };

  it('a duration plan of 2 run hours is due after the fan ran 2 hours, not after 2 hours of readings with it off', async () => {
    const farm = caller(t, await t.signIn('farm'));
    const { houseId, networkId } = await houseNamed(t, 'Weifang Broiler Farm', 'House 2');
    const fan = await farm<Terminal>('POST', '/terminal/create', {
      houseId,
      name: 'Fan 1',
      code: 'FAN1',
      controlPort: 'fan_1',
      type: 'fan',
    });
    const plan = await farm<MaintenancePlan>('POST', '/maintenance/create', {
      houseId,
      deviceId: fan.data.id,
      type: 'duration',
      content: 'Grease the fan bearings',
      interval: 2,
    });
    expect(plan.data).toMatchObject({ state: 'ok', runHours: 0 });

    const start = Date.now() - 6 * HOUR;
    await play(networkId, start, 2, 0);
    const off = await farm<{ rows: MaintenancePlan[] }>(
      'GET',
      `/maintenance/list?houseId=${houseId}`,
    );
    expect(off.data.rows[0]).toMatchObject({ state: 'ok', runHours: 0 });

    await play(networkId, start + 2 * HOUR + 5 * MINUTE, 2, 1);
    const on = await farm<{ rows: MaintenancePlan[] }>(
      'GET',
      `/maintenance/list?houseId=${houseId}`,
    );
    expect(on.data.rows[0]).toMatchObject({ state: 'due', runHours: 2 });
    const device = await farm<{ rows: Terminal[] }>('GET', `/terminal/list?houseId=${houseId}`);
    expect(device.data.rows[0]!.runHours).toBe(2);

    const reminders = await farm<{
      rows: Array<{ kind: string; text: string; params: Record<string, unknown> }>;
    }>('GET', `/reminder/today?houseId=${houseId}`);
    expect(reminders.data.rows).toContainEqual(
      expect.objectContaining({
        kind: 'deviceExpiry',
        text: 'devices.reminder.runHours',
        params: expect.objectContaining({ content: 'Grease the fan bearings', hours: 2 }),
      }),
    );

    // Completing it starts the count again from the hours the fan has now.
    const done = await farm<{ plan: MaintenancePlan }>('POST', '/maintenance/complete', {
      id: plan.data.id,
      notes: 'bearings greased',
    });
    expect(done.data.plan).toMatchObject({ state: 'ok', runHours: 0 });
  });

  it('a regular plan of 7 days is due on day 7, overdue on day 8; completing it records who and schedules the next', async () => {
    const farm = caller(t, await t.signIn('farm'));
    const { houseId } = await houseNamed(t, 'Weifang Broiler Farm', 'House 3');
    const tz = t.config.timeZone;
    const now = new Date();
    const today = dayIn(now, tz);
    const plan = await farm<MaintenancePlan>('POST', '/maintenance/create', {
      houseId,
      type: 'regular',
      content: 'Clean the cooling pad',
      plannedDate: addDays(today, 7),
      interval: 7,
    });
    expect(plan.data.state).toBe('ok');

    const on = (days: number) => new Date(now.getTime() + days * 24 * HOUR);
    const stateOn = async (days: number) =>
      (await readPlans(t.database, { all: true }, on(days), tz, { id: plan.data.id }))[0]!.state;
    expect(await stateOn(6)).toBe('ok');
    expect(await stateOn(7)).toBe('due');
    expect(await stateOn(8)).toBe('overdue');
    const day8 = await deviceExpiryReminders.read({
      database: t.database,
      scope: { all: true },
      now: on(8),
      timeZone: tz,
      houseId,
    });
    expect(day8).toEqual([
      expect.objectContaining({
        id: `deviceExpiry:${plan.data.id}`,
        overdue: true,
        text: 'devices.reminder.planned',
      }),
    ]);

    // The alarm phone entries of the farm that asked for device notices get the overdue plan.
    const [{ farmId }] = (await t.database.query<{ farmId: number }>(
      'select farm_id as "farmId" from houses where id = $1',
      [houseId],
    )) as [{ farmId: number }];
    for (const [phone, noticeTypes] of [
      ['13800000021', ['device']],
      ['13800000022', ['network']],
    ] as const) {
      const saved = await farm('POST', '/alarmPhone/create', {
        farmId,
        houseId: null,
        phone,
        period1Start: '00:00',
        period1End: '23:59',
        dateType: 'daily',
        repeatMinutes: 0,
        closable: true,
        alarmType: 'message',
        delayMinutes: 0,
        status: 'open',
        noticeTypes,
      });
      expect(saved.status).toBe(200);
    }
    const notices = await deviceNotices(t.database, on(8), tz);
    const notice = notices.find((n) => n.plan.id === plan.data.id);
    expect(notice?.phones.map((p) => p.phone)).toEqual(['13800000021']);

    const done = await farm<{ plan: MaintenancePlan }>('POST', '/maintenance/complete', {
      id: plan.data.id,
      notes: 'pads rinsed',
    });
    expect(done.status).toBe(200);
    expect(done.data.plan.plannedDate).toBe(addDays(today, 7));
    const history = await farm<{ rows: MaintenanceHistory[] }>(
      'GET',
      `/maintenance/history?houseId=${houseId}`,
    );
    expect(history.data.rows[0]).toMatchObject({
      content: 'Clean the cooling pad',
      notes: 'pads rinsed',
      doneBy: expect.stringContaining('Liu Yang'),
    });

    const gone = await farm<{ remaining: number }>('DELETE', '/maintenance/delete', {
      id: plan.data.id,
    });
    expect(gone.data.remaining).toBe(0);
  });

  it('a run-hours plan is saved for a device that has already run a fraction of an hour, and counts from there', async () => {
    const farm = caller(t, await t.signIn('farm'));
    const { houseId, networkId } = await houseNamed(t, 'Weifang Broiler Farm', 'House 4');
    const fan = await farm<Terminal>('POST', '/terminal/create', {
      houseId,
      name: 'Fan 1',
      code: 'FAN1-H4',
      controlPort: 'fan_1',
      type: 'fan',
    });
    expect(fan.status).toBe(200);
    // The fan runs 361.5 s: 0.1 h, a count that is no whole number of seconds or hours.
    const start = Date.now() - 3 * HOUR;
    for (const at of [start, start + 361_500]) {
      const stored = await t.ingest.submitTelemetry(networkId, {
        ts: at,
        metrics: { temperature: 22 },
        devices: { fan_1: { state: 1 } },
      });
      expect(stored.status).toBe('stored');
    }
    await t.ingest.drain();
    const ran = await farm<{ rows: Terminal[] }>('GET', `/terminal/list?houseId=${houseId}`);
    expect(ran.data.rows.find((d) => d.id === fan.data.id)?.runHours).toBe(0.1);

    const plan = await farm<MaintenancePlan>('POST', '/maintenance/create', {
      houseId,
      deviceId: fan.data.id,
      type: 'duration',
      content: 'Check the fan belt',
      interval: 500,
    });
    expect(plan.msg).not.toMatch(/not valid/);
    expect(plan.status).toBe(200);
    expect(plan.data).toMatchObject({ state: 'ok', runHours: 0, interval: 500 });

    // Another 30 minutes of running count from the plan's start.
    await play(networkId, start + 361_500 + 5 * MINUTE, 0.5, 1);
    const listed = await farm<{ rows: MaintenancePlan[] }>(
      'GET',
      `/maintenance/list?houseId=${houseId}`,
    );
    expect(listed.data.rows.find((p) => p.id === plan.data.id)?.runHours).toBe(0.58);
  });

  it('refuses a duration plan without a device, in the caller language', async () => {
    const farm = caller(t, await t.signIn('farm'), 'zh');
    const { houseId } = await houseNamed(t, 'Weifang Broiler Farm', 'House 3');
    const res = await farm('POST', '/maintenance/create', {
      houseId,
      type: 'duration',
      content: 'x',
      interval: 5,
    });
    expect(res.status).toBe(400);
    expect(res.msg).toContain('请选择该栏舍的设备');
  });
});
