import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelAdapter, Notification } from '../../server/alarms/channels';
import { NotificationDispatcher } from '../../server/alarms/dispatcher';
import { addDays } from '../../server/devices/maintenance';
import { DeviceNoticeSender } from '../../server/devices/noticeSender';
import type { MaintenancePlan } from '../../src/contract/devices';
import { testClock } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { caller, houseNamed } from './helpers';

const TZ = 'Asia/Shanghai';
const DAY0 = '2026-03-02';
/** Local time in Shanghai (UTC+8, no daylight saving) on day `n` after DAY0. */
const on = (n: number, hhmm: string) => new Date(`${addDays(DAY0, n)}T${hhmm}:00+08:00`);

describe.each(testDatabaseTargets())('daily maintenance notices on $name', (target) => {
  let t: TestApp;
  const clock = testClock(on(0, '09:00'));
  const got: Notification[] = [];
  const recorder: ChannelAdapter = {
    name: 'recorder',
    async send(n, onTry) {
      got.push(n);
      await onTry(1, { ok: true, detail: 'recorded' });
      return { ok: true, detail: 'recorded' };
    },
  };
  let dispatcher: NotificationDispatcher;
  beforeAll(async () => {
    t = await createTestApp(target);
    const log = pino({ level: 'silent' });
    const adapters = { sms: recorder, voice: recorder };
    const sender = new DeviceNoticeSender(t.database, {
      adapters,
      timeZone: TZ,
      locale: 'en',
      log,
    });
    dispatcher = new NotificationDispatcher(t.database, {
      adapters,
      timeZone: TZ,
      log,
      now: clock.now,
      deviceNotices: (now) => sender.send(now),
    });
  }, 180_000);
  afterAll(() => t?.close());

  it('the dispatcher sends a due and an overdue plan once a day, inside the entry periods, only to "device" entries', async () => {
    const farm = caller(t, await t.signIn('farm'));
    const { houseId } = await houseNamed(t, 'Weifang Broiler Farm', 'House 3');
    const plan = await farm<MaintenancePlan>('POST', '/maintenance/create', {
      houseId,
      type: 'regular',
      content: 'Descale the drinker line',
      plannedDate: addDays(DAY0, 7),
      interval: 7,
    });
    expect(plan.status).toBe(200);
    const [{ farmId }] = (await t.database.query<{ farmId: number }>(
      'select farm_id as "farmId" from houses where id = $1',
      [houseId],
    )) as [{ farmId: number }];
    for (const [phone, noticeTypes, alarmType] of [
      ['13800000031', ['device'], 'phoneAndMessage'],
      ['13800000032', ['network'], 'message'],
    ] as const) {
      const saved = await farm('POST', '/alarmPhone/create', {
        farmId,
        houseId: null,
        phone,
        period1Start: '08:00',
        period1End: '20:00',
        dateType: 'daily',
        repeatMinutes: 0,
        closable: true,
        alarmType,
        delayMinutes: 0,
        status: 'open',
        noticeTypes,
      });
      expect(saved.status).toBe(200);
    }
    const mine = () => got.filter((n) => n.alarm.text?.includes('Descale the drinker line'));
    const at = async (day: number, hhmm: string) => {
      clock.set(on(day, hhmm));
      await dispatcher.tick();
      return mine().map((n) => `${n.phone} ${n.channel} ${n.alarm.text}`);
    };

    expect(await at(3, '09:00')).toEqual([]);
    // Due on day 7, but 06:00 is outside the entry's periods: it waits for 08:00.
    expect(await at(7, '06:00')).toEqual([]);
    const due = `Maintenance due: Descale the drinker line (${addDays(DAY0, 7)})`;
    expect(await at(7, '09:00')).toEqual([`13800000031 sms ${due}`, `13800000031 voice ${due}`]);
    // Later rounds the same day send nothing more.
    expect(await at(7, '15:00')).toHaveLength(2);
    const overdue = `Maintenance overdue: Descale the drinker line (${addDays(DAY0, 7)})`;
    expect((await at(8, '08:30')).slice(2)).toEqual([
      `13800000031 sms ${overdue}`,
      `13800000031 voice ${overdue}`,
    ]);
    expect(mine().every((n) => n.alarm.houseName === 'House 3')).toBe(true);
  });
});
