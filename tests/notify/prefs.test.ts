import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelAdapter, Notification, TryResult } from '../../server/alarms/channels';
import { NotificationDispatcher } from '../../server/alarms/dispatcher';
import { applySteps } from '../../server/alarms/lifecycle';
import { SEVERITY, type Step } from '../../server/alarms/rules';
import { AlarmService } from '../../server/alarms/service';
import { ServerEvents } from '../../server/events';
import type { AlarmCause } from '../../src/contract/alarms';
import type { MyPrefs, NotifyPrefsInput } from '../../src/contract/notifyPrefs';
import { demoHouse, testClock } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

// Monday 23:00 in Asia/Shanghai: inside quiet hours of 22:00–06:30.
const start = new Date('2026-01-05T15:00:00Z');
const MOBILE = '138 0000 0077';

describe.each(testDatabaseTargets())('per-user notification preferences on $name', (target) => {
  let t: TestApp;
  const clock = testClock(start);
  const got: string[] = [];
  const adapter: ChannelAdapter = {
    name: 'recorder',
    async send(n: Notification, onTry: (t: number, r: TryResult) => Promise<void>) {
      const minute = Math.round((clock.now().getTime() - start.getTime()) / 60_000);
      got.push(`+${minute} ${n.phone} ${n.alarm.cause} ${n.channel}`);
      const r = { ok: true, detail: 'recorded' };
      await onTry(1, r);
      return r;
    },
  };
  let service: AlarmService;
  let dispatcher: NotificationDispatcher;
  let farm: string;
  beforeAll(async () => {
    t = await createTestApp(target);
    const log = pino({ level: 'silent' });
    service = new AlarmService(t.database, new ServerEvents(log), clock.now);
    dispatcher = new NotificationDispatcher(t.database, {
      adapters: { sms: adapter, voice: adapter },
      timeZone: 'Asia/Shanghai',
      log,
      now: clock.now,
    });
    farm = await t.signIn('farm');
    await t.database.query(`update users set mobile = $1 where username = 'farm'`, [MOBILE]);
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    got.length = 0;
    clock.set(start);
    await t.database.query(`update alarm_phones set status = 'closed'`);
  });

  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, payload, headers: { authorization: farm } });
  const save = (prefs: NotifyPrefsInput) => api('POST', '/notify/prefs/save', prefs);
  const raise = async (house: { houseId: number; farmId: number }, cause: AlarmCause) => {
    const step: Step = {
      kind: 'raise',
      cause,
      subject: 'x',
      severity: SEVERITY[cause],
      value: 1,
      limit: 0,
      text: null,
      at: clock.now().getTime(),
    };
    await service.change(({ db }) => applySteps(db, house, [step]));
  };
  const clearAll = async (house: { houseId: number; farmId: number }) =>
    t.database.query(`update alarms set state = 'cleared' where house_id = $1`, [house.houseId]);
  const tick = async () => {
    await dispatcher.tick();
    await dispatcher.tick();
  };
  /** An entry with the user's number written the way the farm wrote it (no spaces). */
  const entry = (h: { farmId: number; houseId: number }, alarmType = 'message') =>
    t.database.query(
      `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type, repeat_minutes,
         closable, alarm_type, delay_minutes, status, notice_types)
       values ($1, $2, '13800000077', '00:00', '00:00', 'daily', 0, true, $3, 0, 'open', '["block","device","network"]')`,
      [h.farmId, h.houseId, alarmType],
    );

  it('lets a critical alarm through quiet hours and holds a minor one until they end', async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
    await entry(h);
    const saved = await save({
      severities: ['critical', 'major', 'minor'],
      channels: ['sms', 'voice'],
      quietStart: '22:00',
      quietEnd: '06:30',
    });
    expect(saved.statusCode).toBe(200);
    expect(bodyOf<MyPrefs>(saved).data).toMatchObject({ saved: true, mobile: MOBILE, entries: 1 });

    await raise(h, 'temperatureHigh'); // critical
    await raise(h, 'humidityHigh'); // minor
    await tick();
    expect(got).toEqual(['+0 13800000077 temperatureHigh sms']);
    // Still quiet at 06:29 local.
    clock.set(new Date(start.getTime() + (7 * 60 + 29) * 60_000));
    await tick();
    expect(got).toHaveLength(1);
    // The quiet hours end at 06:30: the minor alarm, still open, goes then.
    clock.set(new Date(start.getTime() + (7 * 60 + 30) * 60_000));
    await tick();
    expect(got).toEqual([
      '+0 13800000077 temperatureHigh sms',
      '+450 13800000077 humidityHigh sms',
    ]);
    await clearAll(h);
  });

  it('keeps only the farms, severities and channels the user chose', async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
    await entry(h, 'phoneAndMessage');
    expect(
      (await save({ severities: ['critical'], channels: ['voice'], farmIds: [h.farmId] }))
        .statusCode,
    ).toBe(200);
    await raise(h, 'humidityHigh'); // minor: not wanted
    await raise(h, 'temperatureLow'); // critical: by call only
    await tick();
    expect(got).toEqual(['+0 13800000077 temperatureLow voice']);
    const [skipped] = await t.database.query<{ done_reason: string }>(
      `select n.done_reason from alarm_notifications n join alarms a on a.id = n.alarm_id
       where a.house_id = $1 and a.cause = 'humidityHigh'`,
      [h.houseId],
    );
    expect(skipped?.done_reason).toBe('prefSeverity');
    await clearAll(h);

    // Another farm of the user's is not among the chosen ones: nothing reaches them from it.
    const other = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 3');
    const [otherFarm] = await t.database.query<{ id: number }>(
      `select id from farms where level = 'farm' and id <> $1 limit 1`,
      [h.farmId],
    );
    expect(
      (await save({ severities: ['critical'], channels: ['voice'], farmIds: [otherFarm!.id] }))
        .statusCode,
    ).toBe(404);
    got.length = 0;
    await t.database.query(`update notify_prefs set farm_ids = '[999999]'::jsonb`);
    await entry(other);
    await raise(other, 'temperatureHigh');
    await tick();
    expect(got).toEqual([]);
    await clearAll(other);
    await t.database.query(`delete from notify_prefs`);
  });

  it('refuses bad preferences in the reader’s language', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/notify/prefs/save',
      headers: { authorization: farm, locale: 'zh' },
      payload: { severities: [], channels: ['sms'], quietStart: '22:00', quietEnd: null },
    });
    expect(bad.statusCode).toBe(400);
    expect(bodyOf(bad).msg).toMatch(/报警级别|免打扰/);
    const mine = bodyOf<MyPrefs>(await api('GET', '/notify/prefs/mine')).data;
    expect(mine.saved).toBe(false);
    expect(mine.prefs.severities).toEqual(['critical', 'major', 'minor']);
    expect(mine.farms.length).toBeGreaterThan(0);
  });
});
