import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureOf, WebhookAdapter } from '../../server/alarms/channels';
import { NotificationDispatcher } from '../../server/alarms/dispatcher';
import { applySteps } from '../../server/alarms/lifecycle';
import { SEVERITY, type Step } from '../../server/alarms/rules';
import { AlarmService } from '../../server/alarms/service';
import { ServerEvents } from '../../server/events';
import type { AlarmCause } from '../../src/contract/alarms';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import { demoHouse, testClock } from './helpers';

const SECRET = 'test-secret';
const TZ = 'Asia/Shanghai';
/** Local time in Shanghai (UTC+8, no daylight saving) → Date. */
const local = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+08:00`);
const hhmmOf = (d: Date) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: TZ,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(d);

interface Received {
  at: string;
  phone: string;
  channel: string;
  sequence: number;
  cause: string;
}

function receiver(clock: () => Date, status: () => number) {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const ok = req.headers['x-roost-signature'] === signatureOf(body, SECRET);
      const msg = JSON.parse(body) as {
        phone: string;
        channel: string;
        sequence: number;
        alarm: { cause: string };
      };
      if (ok && status() === 200)
        got.push({
          at: hhmmOf(clock()),
          phone: msg.phone,
          channel: msg.channel,
          sequence: msg.sequence,
          cause: msg.alarm.cause,
        });
      res.statusCode = ok ? status() : 401;
      res.end();
    });
  });
  return {
    got,
    server,
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    listen: () => new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r())),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(testDatabaseTargets())('alarm notifications on $name', (target) => {
  let t: TestApp;
  const clock = testClock(local('2025-01-10', '07:00')); // a Friday
  let status = 200;
  const hook = receiver(clock.now, () => status);
  let service: AlarmService;
  let dispatcher: NotificationDispatcher;
  beforeAll(async () => {
    t = await createTestApp(target);
    await hook.listen();
    const log = pino({ level: 'silent' });
    service = new AlarmService(t.database, new ServerEvents(log), clock.now);
    const webhook = new WebhookAdapter({
      url: hook.url(),
      secret: SECRET,
      locale: 'en',
      timeZone: TZ,
      sleep: async () => undefined,
    });
    dispatcher = new NotificationDispatcher(t.database, {
      adapters: { sms: webhook, voice: webhook },
      timeZone: TZ,
      log,
      now: clock.now,
    });
  });
  afterAll(async () => {
    await hook.close();
    await t?.close();
  });

  const step = (kind: Step['kind'], cause: AlarmCause): Step => ({
    kind,
    cause,
    subject: cause.startsWith('nh3') ? 'nh3' : 'temperature',
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
  /** Runs the dispatcher every minute up to `hhmm` on `day`. */
  const until = async (day: string, hhmm: string) => {
    const end = local(day, hhmm).getTime();
    while (clock.now().getTime() < end) {
      await dispatcher.tick();
      clock.advance(60_000);
    }
  };

  it('sends exactly what each alarm phone entry asks for over a scripted day', async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
    const phone = (values: string) =>
      t.database.query(
        `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, period2_start, period2_end, date_type,
           repeat_minutes, closable, alarm_type, delay_minutes, status, notice_types, description)
         values (${values})`,
      );
    // A: work days 08–12 and 14–18, first after 10 min, every 30 min, until acknowledged.
    await phone(
      `${h.farmId}, ${h.houseId}, '13800000001', '08:00', '12:00', '14:00', '18:00', 'workdays', 30, true, 'message', 10, 'open', '["block"]', 'A'`,
    );
    // B: all day every day, at once, hourly, by phone; not closable: acknowledging does not stop it.
    await phone(
      `${h.farmId}, null, '13800000002', '00:00', '00:00', null, null, 'daily', 60, false, 'phone', 0, 'open', '["block"]', 'B'`,
    );
    // C: closed, and D: network alarms only: neither hears anything.
    await phone(
      `${h.farmId}, null, '13800000003', '00:00', '00:00', null, null, 'daily', 5, true, 'message', 0, 'closed', '["block"]', 'C'`,
    );
    await phone(
      `${h.farmId}, null, '13800000004', '00:00', '00:00', null, null, 'daily', 5, true, 'message', 0, 'open', '["network"]', 'D'`,
    );

    const first = await raise(h, 'temperatureHigh'); // Fri 07:00
    await until('2025-01-10', '09:40');
    const farm = await t.signIn('farm');
    const ack = await t.app.inject({
      method: 'POST',
      url: '/api/alarm/acknowledge',
      payload: { id: first },
      headers: { authorization: farm },
    });
    expect(ack.statusCode).toBe(200);
    await until('2025-01-10', '10:30');
    await clear(h, 'temperatureHigh');
    await until('2025-01-10', '12:50');
    await raise(h, 'nh3High');
    await until('2025-01-10', '15:10');
    await clear(h, 'nh3High');
    await until('2025-01-10', '18:30');
    clock.set(local('2025-01-11', '10:00')); // Saturday
    await raise(h, 'temperatureHigh');
    await until('2025-01-11', '11:30');
    await clear(h, 'temperatureHigh');
    await until('2025-01-11', '13:00');

    const of = (p: string) =>
      hook.got
        .filter((g) => g.phone === p)
        .map((g) => `${g.at} ${g.cause} #${g.sequence} ${g.channel}`);
    expect(of('13800000001')).toEqual([
      'Fri 08:00 temperatureHigh #1 sms',
      'Fri 08:30 temperatureHigh #2 sms',
      'Fri 09:00 temperatureHigh #3 sms',
      'Fri 09:30 temperatureHigh #4 sms',
      'Fri 14:00 nh3High #1 sms',
      'Fri 14:30 nh3High #2 sms',
      'Fri 15:00 nh3High #3 sms',
    ]);
    expect(of('13800000002')).toEqual([
      'Fri 07:00 temperatureHigh #1 voice',
      'Fri 08:00 temperatureHigh #2 voice',
      'Fri 09:00 temperatureHigh #3 voice',
      'Fri 10:00 temperatureHigh #4 voice',
      'Fri 12:50 nh3High #1 voice',
      'Fri 13:50 nh3High #2 voice',
      'Fri 14:50 nh3High #3 voice',
      'Sat 10:00 temperatureHigh #1 voice',
      'Sat 11:00 temperatureHigh #2 voice',
    ]);
    expect(hook.got.filter((g) => g.phone === '13800000003' || g.phone === '13800000004')).toEqual(
      [],
    );
  });

  it('retries a failing receiver and shows the failure', async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
    await t.database.query('update alarm_phones set status = $1', ['closed']);
    await t.database.query(
      `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type, repeat_minutes, closable,
         alarm_type, delay_minutes, status, notice_types) values ($1, $2, '13900000009', '00:00', '00:00', 'daily', 0, true,
         'message', 0, 'open', '["block"]')`,
      [h.farmId, h.houseId],
    );
    status = 500;
    const id = await raise(h, 'temperatureLow');
    clock.advance(60_000);
    await dispatcher.tick();
    const admin = await t.signIn('admin');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/alarm/attempts?alarmId=${id}`,
      headers: { authorization: admin },
    });
    const rows = bodyOf<{
      rows: Array<{ try: number; ok: boolean; detail: string; phone: string }>;
    }>(res).data.rows;
    expect(rows.map((r) => [r.try, r.ok, r.detail, r.phone]).reverse()).toEqual([
      [1, false, 'HTTP 500', '13900000009'],
      [2, false, 'HTTP 500', '13900000009'],
      [3, false, 'HTTP 500', '13900000009'],
    ]);
    status = 200;
  });
});
