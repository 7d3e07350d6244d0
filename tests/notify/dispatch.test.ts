import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelAdapter, Notification, TryResult } from '../../server/alarms/channels';
import { NotificationDispatcher } from '../../server/alarms/dispatcher';
import { applySteps } from '../../server/alarms/lifecycle';
import { SEVERITY, type Step } from '../../server/alarms/rules';
import { AlarmService } from '../../server/alarms/service';
import { ServerEvents } from '../../server/events';
import { TencentSmsAdapter } from '../../server/notify/tencent';
import { WecomRobotAdapter } from '../../server/notify/wecom';
import type { AlarmCause } from '../../src/contract/alarms';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import { demoHouse, testClock } from '../alarms/helpers';
import { json, noSleep, standIn } from './standIn';

/** A channel that records what reached whom, at the test clock's minute. */
function recorder(clock: () => Date) {
  const got: string[] = [];
  const adapter: ChannelAdapter = {
    name: 'recorder',
    async send(n: Notification, onTry: (t: number, r: TryResult) => Promise<void>) {
      const minute = Math.round((clock().getTime() - start.getTime()) / 60_000);
      got.push(`+${minute} ${n.phone} ${n.alarm.cause} #${n.sequence} ${n.channel}`);
      const r = { ok: true, detail: 'recorded' };
      await onTry(1, r);
      return r;
    },
  };
  return { got, adapter };
}

// The next whole minute: the silence API reads the real clock, so the test's day starts now.
const start = new Date(Math.ceil((Date.now() + 1) / 60_000) * 60_000);

describe.each(testDatabaseTargets())(
  'notifications with silences and escalation on $name',
  (target) => {
    let t: TestApp;
    const clock = testClock(start);
    const rec = recorder(clock.now);
    let service: AlarmService;
    let dispatcher: NotificationDispatcher;
    let farm: string;
    beforeAll(async () => {
      t = await createTestApp(target);
      const log = pino({ level: 'silent' });
      service = new AlarmService(t.database, new ServerEvents(log), clock.now);
      dispatcher = new NotificationDispatcher(t.database, {
        adapters: { sms: rec.adapter, voice: rec.adapter },
        timeZone: 'Asia/Shanghai',
        log,
        now: clock.now,
      });
      farm = await t.signIn('farm');
    });
    afterAll(async () => t?.close());
    beforeEach(async () => {
      rec.got.length = 0;
      clock.set(start);
      await t.database.query(`update alarm_phones set status = 'closed'`);
    });

    const step = (kind: Step['kind'], cause: AlarmCause): Step => ({
      kind,
      cause,
      subject: 'temperature',
      severity: SEVERITY[cause],
      value: 1,
      limit: 0,
      text: null,
      at: clock.now().getTime(),
    });
    const raise = async (house: { houseId: number; farmId: number }, cause: AlarmCause) => {
      const [change] = await service.change(({ db }) =>
        applySteps(db, house, [step('raise', cause)]),
      );
      return change!.alarm.id;
    };
    const clear = (house: { houseId: number; farmId: number }, cause: AlarmCause) =>
      service.change(({ db }) => applySteps(db, house, [step('clear', cause)]));
    const minutes = async (n: number) => {
      for (let i = 0; i < n; i += 1) {
        await dispatcher.tick();
        clock.advance(60_000);
      }
      // Twice: what one look queued for now (an escalation) goes at the next look, seconds later.
      await dispatcher.tick();
      await dispatcher.tick();
    };
    const entry = async (
      h: { farmId: number; houseId: number },
      phone: string,
      repeat: number,
      alarmType = 'message',
    ) => {
      const [row] = await t.database.query<{ id: number }>(
        `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type, repeat_minutes,
         closable, alarm_type, delay_minutes, status, notice_types)
       values ($1, $2, $3, '00:00', '00:00', 'daily', $4, true, $5, 0, 'open', '["block","device","network"]') returning id`,
        [h.farmId, h.houseId, phone, repeat, alarmType],
      );
      return row!.id;
    };
    const api = (method: 'GET' | 'POST', url: string, payload?: object, token = farm) =>
      t.app.inject({ method, url: `/api${url}`, payload, headers: { authorization: token } });

    it('escalates to the next entry when nobody acknowledges within the repeat interval', async () => {
      const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
      const first = await entry(h, '13800000011', 10);
      const second = await entry(h, '13800000012', 10);
      const saved = await api('POST', '/notify/escalation/save', { phoneId: second, level: 1 });
      expect(saved.statusCode).toBe(200);
      await raise(h, 'temperatureHigh');
      await minutes(9);
      expect(rec.got).toEqual(['+0 13800000011 temperatureHigh #1 sms']);
      await minutes(1);
      expect(rec.got).toEqual([
        '+0 13800000011 temperatureHigh #1 sms',
        '+10 13800000011 temperatureHigh #2 sms',
        '+10 13800000012 temperatureHigh #1 sms',
      ]);
      await clear(h, 'temperatureHigh');

      // Acknowledged in time: the second entry hears nothing.
      rec.got.length = 0;
      const id = await raise(h, 'temperatureHigh');
      await minutes(5);
      const ack = await api('POST', '/alarm/acknowledge', { id });
      expect(ack.statusCode).toBe(200);
      await minutes(20);
      // Without the minute: this alarm came later in the test's day.
      expect(rec.got.map((g) => g.replace(/^\+\d+ /, ''))).toEqual([
        '13800000011 temperatureHigh #1 sms',
      ]);
      await clear(h, 'temperatureHigh');
      expect(first).toBeGreaterThan(0);
    });

    it('climbs one level at a time: the third level hears only once the second let a repeat pass', async () => {
      const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
      await entry(h, '13800000021', 10);
      const second = await entry(h, '13800000022', 10);
      const third = await entry(h, '13800000023', 10);
      for (const [phoneId, level] of [
        [second, 1],
        [third, 2],
      ] as const)
        expect((await api('POST', '/notify/escalation/save', { phoneId, level })).statusCode).toBe(
          200,
        );
      await raise(h, 'temperatureHigh');
      const heard = (phone: string) => rec.got.filter((g) => g.includes(phone));
      await minutes(10);
      // The first entry's repeat at +10 woke the second level only, never the third.
      expect(heard('13800000022')).toEqual(['+10 13800000022 temperatureHigh #1 sms']);
      await minutes(9);
      expect(heard('13800000023')).toEqual([]);
      // The second level's own repeat, unacknowledged, wakes the third.
      await minutes(1);
      expect(heard('13800000022')).toHaveLength(2);
      expect(heard('13800000023')).toEqual(['+20 13800000023 temperatureHigh #1 sms']);
      await clear(h, 'temperatureHigh');
    });

    it("stores a silenced house's alarm, sends nothing, marks it, and delivers after the expiry", async () => {
      const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
      const other = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 3');
      await entry(h, '13800000021', 0);
      await entry(other, '13800000023', 0);
      const endsAt = new Date(start.getTime() + 30 * 60_000).toISOString();
      const made = await api('POST', '/notify/silence/create', {
        farmId: h.farmId,
        houseId: h.houseId,
        reason: 'Changing the fans',
        // Before the test clock's start, however long the set-up took.
        startsAt: new Date(start.getTime() - 5 * 60_000).toISOString(),
        endsAt,
      });
      expect(made.statusCode).toBe(200);
      const silence = bodyOf<{ id: number; state: string; owner: string }>(made).data;
      expect(silence).toMatchObject({ state: 'active' });

      const quiet = await raise(h, 'temperatureHigh');
      const loud = await raise(other, 'temperatureHigh');
      await minutes(10);
      // The alarm is recorded (it is in the list) but only the other house was told.
      const list = bodyOf<{ rows: Array<{ id: number }> }>(
        await api('GET', `/alarm/list?houseId=${h.houseId}`),
      ).data.rows;
      expect(list.map((r) => r.id)).toContain(quiet);
      expect(rec.got).toEqual(['+0 13800000023 temperatureHigh #1 sms']);
      const [mark] = await t.database.query<{ silence_id: number }>(
        'select silence_id from notify_silenced_alarms where alarm_id = $1',
        [quiet],
      );
      expect(mark?.silence_id).toBe(silence.id);
      const held = bodyOf<{ rows: Array<{ id: number; heldAlarms: number }> }>(
        await api('GET', '/notify/silence/list'),
      ).data.rows;
      expect(held.find((s) => s.id === silence.id)?.heldAlarms).toBe(1);
      expect(loud).toBeGreaterThan(0);

      // At its expiry the silence ends by itself: the alarm, still active, now reaches the entry.
      await minutes(19);
      expect(rec.got).toHaveLength(1);
      await minutes(1);
      expect(rec.got).toEqual([
        '+0 13800000023 temperatureHigh #1 sms',
        '+30 13800000021 temperatureHigh #1 sms',
      ]);
      await clear(h, 'temperatureHigh');
      await clear(other, 'temperatureHigh');
    });

    it('sends held notifications soon after a silence is ended early, and logs both changes', async () => {
      const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 4');
      await entry(h, '13800000041', 0);
      const made = await api('POST', '/notify/silence/create', {
        farmId: h.farmId,
        cause: 'temperatureHigh',
        reason: 'Vaccination day',
        startsAt: new Date(clock.now().getTime() - 60_000).toISOString(),
        endsAt: new Date(clock.now().getTime() + 4 * 3_600_000).toISOString(),
      });
      const id = bodyOf<{ id: number }>(made).data.id;
      await raise(h, 'temperatureHigh');
      await minutes(3);
      expect(rec.got).toEqual([]);
      const ended = await api('POST', '/notify/silence/end', { id });
      expect(bodyOf<{ state: string }>(ended).data.state).toBe('ended');
      await minutes(0);
      expect(rec.got.map((g) => g.replace(/^\+\d+ /, ''))).toEqual([
        '13800000041 temperatureHigh #1 sms',
      ]);
      const logs = await t.database.query<{ function: string }>(
        `select function from operation_logs where function like 'notify.silence.%' order by id`,
      );
      expect(logs.map((l) => l.function).slice(-2)).toEqual([
        'notify.silence.create',
        'notify.silence.end',
      ]);
      await clear(h, 'temperatureHigh');
    });

    it('shows a failing provider on the alarm and still delivers the robot message at once', async () => {
      const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
      await entry(h, '13800000031', 0);
      let release: () => void = () => undefined;
      const held = new Promise<void>((r) => (release = r));
      // The SMS provider first hangs, then refuses: the robot must not wait for it.
      const sms = await standIn(async (_r, res) => {
        await held;
        json(res, 200, {
          Response: {
            Error: { Code: 'LimitExceeded.PhoneNumberDailyLimit', Message: 'daily limit' },
          },
        });
      });
      const robotArrived: number[] = [];
      const robot = await standIn((_r, res) => {
        robotArrived.push(Date.now());
        json(res, 200, { errcode: 0, errmsg: 'ok' });
      });
      const log = pino({ level: 'silent' });
      const withProviders = new NotificationDispatcher(t.database, {
        adapters: {
          sms: new TencentSmsAdapter({
            secretId: 'id',
            secretKey: 'key',
            appId: '1400000000',
            signName: 'Roost',
            templateId: '1',
            region: 'ap-guangzhou',
            countryCode: '86',
            url: sms.url,
            locale: 'en',
            timeZone: 'Asia/Shanghai',
            sleep: noSleep,
          }),
          voice: rec.adapter,
        },
        group: [
          new WecomRobotAdapter({
            key: 'k',
            url: robot.url,
            locale: 'en',
            timeZone: 'Asia/Shanghai',
            sleep: noSleep,
          }),
        ],
        timeZone: 'Asia/Shanghai',
        log,
        now: clock.now,
      });
      const id = await raise(h, 'temperatureLow');
      const tick = withProviders.tick();
      await expect.poll(() => robotArrived.length, { timeout: 10_000 }).toBe(1);
      expect(sms.got).toHaveLength(1); // still waiting for its answer
      release();
      await tick;
      const admin = await t.signIn('admin');
      const rows = bodyOf<{
        rows: Array<{ channel: string; adapter: string; try: number; ok: boolean; detail: string }>;
      }>(await api('GET', `/alarm/attempts?alarmId=${id}`, undefined, admin)).data.rows;
      const summary = rows
        .map((r) => `${r.channel} ${r.adapter} ${r.try} ${r.ok} ${r.detail}`)
        .sort();
      expect(summary).toEqual([
        'robot wecom 1 true ok',
        'sms tencent-sms 1 false HTTP 200 LimitExceeded.PhoneNumberDailyLimit daily limit',
        'sms tencent-sms 2 false HTTP 200 LimitExceeded.PhoneNumberDailyLimit daily limit',
        'sms tencent-sms 3 false HTTP 200 LimitExceeded.PhoneNumberDailyLimit daily limit',
      ]);
      await sms.close();
      await robot.close();
      await clear(h, 'temperatureLow');
    });
  },
);
