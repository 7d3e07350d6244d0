import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelAdapter, Notification, TryResult } from '../../server/alarms/channels';
import { NotificationDispatcher } from '../../server/alarms/dispatcher';
import { DrillSender, startDrill } from '../../server/notify/drill';
import type { DrillReport, DrillSummary } from '../../src/contract/notifyDrill';
import { demoHouse, testClock } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

/**
 * The next Monday 10:00 in Asia/Shanghai (02:00 UTC): the confirm route reads the real clock,
 * so links the test clock signs must not have expired in real time.
 */
const start = (() => {
  const d = new Date(Date.now() + 86_400_000);
  d.setUTCHours(2, 0, 0, 0);
  while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1);
  return d;
})();

describe.each(testDatabaseTargets())('alarm drills on $name', (target) => {
  let t: TestApp;
  const clock = testClock(start);
  const got: Notification[] = [];
  /** Text messages answer at once; calls to the failing number are refused every try. */
  const adapter = (name: string): ChannelAdapter => ({
    name,
    async send(n: Notification, onTry: (t: number, r: TryResult) => Promise<void>) {
      got.push(n);
      const ok = !(n.channel === 'voice' && n.phone === '13800000093');
      const r = ok ? { ok, detail: `OK ${name}-${got.length}` } : { ok, detail: 'HTTP 500 busy' };
      await onTry(1, r);
      return r;
    },
  });
  let dispatcher: NotificationDispatcher;
  let admin: string;
  let h: { farmId: number; houseId: number };
  const phones: number[] = [];
  beforeAll(async () => {
    t = await createTestApp(target);
    const log = pino({ level: 'silent' });
    const drills = new DrillSender(t.database, {
      adapters: { sms: adapter('sms-standin'), voice: adapter('voice-standin') },
      locale: 'en',
      timeZone: 'Asia/Shanghai',
      log,
      publicUrl: 'https://roost.example',
      now: clock.now,
    });
    dispatcher = new NotificationDispatcher(t.database, {
      adapters: { sms: adapter('sms-standin'), voice: adapter('voice-standin') },
      drills: (now) => drills.send(now),
      timeZone: 'Asia/Shanghai',
      log,
      now: clock.now,
    });
    admin = await t.signIn('admin');
    h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
    const other = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
    // Three people cover House 1 (one farm-wide, one at escalation level 1, whose periods
    // exclude 10:00: a drill reaches them all the same); one covers only House 2.
    for (const [house, phone, type, period] of [
      [h.houseId, '13800000091', 'message', '00:00'],
      [null, '13800000092', 'message', '00:00'],
      [h.houseId, '13800000093', 'phoneAndMessage', '20:00'],
      [other.houseId, '13800000094', 'message', '00:00'],
    ] as const) {
      const [row] = await t.database.query<{ id: number }>(
        `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type, repeat_minutes,
           closable, alarm_type, delay_minutes, status, notice_types)
         values ($1, $2, $3, $4, '21:00', 'daily', 10, true, $5, 5, 'open', '["block"]') returning id`,
        [h.farmId, house, phone, period, type],
      );
      phones.push(row!.id);
    }
    await t.database.query(`insert into notify_phone_levels (phone_id, level) values ($1, 1)`, [
      phones[2],
    ]);
  });
  afterAll(async () => t?.close());
  beforeEach(() => {
    got.length = 0;
    clock.set(start);
  });

  const api = (method: 'GET' | 'POST', url: string, payload?: object, token = admin) =>
    t.app.inject({ method, url: `/api${url}`, payload, headers: { authorization: token } });

  it('reaches every person by every channel and reports who confirmed, with timings', async () => {
    const id = await startDrill(t.database, h, 'Admin', false, clock.now());
    expect(id).not.toBeNull();
    clock.advance(20_000);
    await dispatcher.tick();
    expect(got.map((n) => `${n.phone} ${n.channel}`).sort()).toEqual([
      '13800000091 sms',
      '13800000092 sms',
      '13800000093 sms',
      '13800000093 voice',
    ]);
    // The message says it is a drill and carries the person's own confirm link.
    expect(got[0]!.alarm.houseName).toBe('[DRILL] House 1');
    const link = got.find((n) => n.phone === '13800000091')!.link!;
    expect(link).toMatch(/^https:\/\/roost\.example\/ack\/d\d+\.\d+\.\d+\.[\w-]{43}$/);
    // A second round sends nothing again.
    await dispatcher.tick();
    expect(got).toHaveLength(4);

    // The first person confirms through the link 3 minutes in; the page says it is a drill.
    clock.advance(160_000);
    const token = link.split('/ack/')[1]!;
    const page = await t.app.inject({ method: 'GET', url: `/api/notify/ack/${token}` });
    expect(bodyOf<{ drill: boolean; state: string }>(page).data).toMatchObject({
      drill: true,
      state: 'active',
    });
    const tampered = token.replace(/\.(\d+)\./, (_m, p: string) => `.${Number(p) + 1}.`);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/notify/ack', payload: { token: tampered } }))
        .statusCode,
    ).toBe(403);
    // An alarm's link and a drill's are signed apart: the drill token without its mark fails.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/notify/ack/${token.slice(1)}` })).statusCode,
    ).toBe(403);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/notify/ack',
      payload: { token, comment: 'Got it' },
    });
    expect(confirmed.statusCode).toBe(200);
    // The route reads the real clock; the report's timings are the test clock's, so set it.
    await t.database.query(
      `update notify_drill_receipts set acknowledged_at = $2 where drill_id = $1 and acknowledged_at is not null`,
      [id, clock.now()],
    );

    const report = bodyOf<DrillReport>(await api('GET', `/notify/drill/report?id=${id}`)).data;
    expect(report.drill).toMatchObject({ people: 3, confirmed: 1, houseName: 'House 1' });
    const rows = report.receipts.map((r) => [
      r.phone,
      r.level,
      r.channel,
      r.sentSeconds,
      r.ackSeconds,
      r.failedDetail,
    ]);
    expect(rows).toEqual([
      ['13800000091', 0, 'sms', 20, 180, null],
      ['13800000092', 0, 'sms', 20, null, null],
      ['13800000093', 1, 'sms', 20, null, null],
      ['13800000093', 1, 'voice', null, null, 'HTTP 500 busy'],
    ]);
    expect(report.receipts[0]).toMatchObject({ ackComment: 'Got it', adapter: 'sms-standin' });
    expect(report.unconfirmed.map((u) => u.phone)).toEqual(['13800000092', '13800000093']);

    const csv = await api('GET', `/notify/drill/report.csv?id=${id}`);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^13800000091,0,SMS,sms-standin,1,.*,20,,,.*,180,Got it,$/);
  });

  it('starts from the console for administrators only, and runs weekly on schedule', async () => {
    const farm = await t.signIn('farm');
    expect(
      (await api('POST', '/notify/drill/start', { houseId: h.houseId }, farm)).statusCode,
    ).toBe(403);
    const started = await api('POST', '/notify/drill/start', { houseId: h.houseId });
    expect(started.statusCode).toBe(200);
    expect(bodyOf<DrillSummary>(started).data).toMatchObject({ people: 3, confirmed: 0 });
    const nobody = await demoHouse(t.database, 'Gaocheng Broiler Farm', 'House 1');
    expect((await api('POST', '/notify/drill/start', { houseId: nobody.houseId })).statusCode).toBe(
      409,
    );

    // Mondays at 10:05 local: nothing at 10:04, one drill at 10:05, none again that week.
    const saved = await api('POST', '/notify/drill/schedule', {
      houseId: h.houseId,
      weekday: 1,
      time: '10:05',
    });
    expect(saved.statusCode).toBe(200);
    const count = async () =>
      (
        await t.database.query<{ n: number }>(
          `select count(*)::int as n from notify_drills where scheduled`,
        )
      )[0]!.n;
    clock.set(new Date(start.getTime() + 4 * 60_000));
    await dispatcher.tick();
    expect(await count()).toBe(0);
    clock.set(new Date(start.getTime() + 5 * 60_000));
    await dispatcher.tick();
    expect(await count()).toBe(1);
    clock.set(new Date(start.getTime() + 65 * 60_000));
    await dispatcher.tick();
    expect(await count()).toBe(1);
    const list = bodyOf<{ rows: DrillSummary[] }>(
      await api('GET', `/notify/drill/list?houseId=${h.houseId}`),
    ).data.rows;
    expect(list.filter((d) => d.scheduled)).toHaveLength(1);
  });
});
