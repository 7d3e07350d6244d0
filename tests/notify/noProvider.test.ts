import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogAdapter, type TryResult } from '../../server/alarms/channels';
import { DrillSender, startDrill } from '../../server/notify/drill';
import { warnUnreachable } from '../../server/notify/reach';
import { NO_PROVIDER, type DrillReport, type DrillSummary } from '../../src/contract/notifyDrill';
import { demoHouse } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import { NOTE } from './standIn';

/** A real pino logger whose lines the test reads: level and message. */
function capturedLog() {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { lines, log: pino({ level: 'warn' }, stream) };
}
const WARN = 40;

describe('a text or call without a provider or webhook is not delivered', () => {
  it('answers "not delivered: no provider", never "sent", and says so at warn', async () => {
    const { lines, log } = capturedLog();
    const tries: TryResult[] = [];
    const result = await new LogAdapter(log).send(NOTE, async (_n, r) => {
      tries.push(r);
    });
    expect(result).toEqual({ ok: false, detail: NO_PROVIDER });
    expect(tries).toEqual([{ ok: false, detail: NO_PROVIDER }]);
    // The default LOG_LEVEL is warn: an info line would never be read.
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe(WARN);
    expect(lines[0]!.msg).toContain(NO_PROVIDER);
  });
});

describe.each(testDatabaseTargets())('nobody reachable, on $name', (target) => {
  let t: TestApp;
  let h: { farmId: number; houseId: number };
  beforeAll(async () => {
    t = await createTestApp(target);
    h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
    await t.database.query(`update alarm_phones set status = 'closed'`);
    await t.database.query(
      `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type, repeat_minutes,
         closable, alarm_type, delay_minutes, status, notice_types)
       values ($1, $2, '13800000061', '00:00', '00:00', 'daily', 0, true, 'message', 0, 'open', '["block"]')`,
      [h.farmId, h.houseId],
    );
  });
  afterAll(async () => t?.close());

  it('warns once at start when open entries ask for a channel nothing can carry', async () => {
    const { lines, log } = capturedLog();
    const none = new LogAdapter(log);
    const said = await warnUnreachable(t.database, { sms: none, voice: none }, log);
    // The entry asks for text messages only: one line, about text messages.
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^1 open alarm phone entry asks for text messages, but no provider/);
    expect(lines.map((l) => l.level)).toEqual([WARN]);
    // A webhook carries them: nothing to say.
    const hook = { name: 'webhook', send: none.send.bind(none) };
    expect(await warnUnreachable(t.database, { sms: hook, voice: none }, log)).toEqual([]);
  });

  it('ends a drill nobody can receive and says "not delivered" in the report, en and zh', async () => {
    const log = pino({ level: 'silent' });
    const none = new LogAdapter(log);
    const sender = new DrillSender(t.database, {
      adapters: { sms: none, voice: none },
      locale: 'en',
      timeZone: 'Asia/Shanghai',
      log,
    });
    const id = await startDrill(t.database, h, 'Admin', false, new Date());
    await sender.send(new Date());
    const admin = await t.signIn('admin');
    const get = (url: string, locale = 'en') =>
      t.app.inject({ method: 'GET', url: `/api${url}`, headers: { authorization: admin, locale } });

    const report = bodyOf<DrillReport>(await get(`/notify/drill/report?id=${id}`)).data;
    // Not "Confirmed 0 / 1" for ever: the one person was reached by nothing, so it has ended.
    expect(report.drill).toMatchObject({ people: 1, confirmed: 0, notDelivered: 1 });
    expect(report.receipts).toHaveLength(1);
    expect(report.receipts[0]).toMatchObject({
      sentAt: null,
      tries: 1,
      adapter: 'log',
      failedDetail: NO_PROVIDER,
    });
    const list = bodyOf<{ rows: DrillSummary[] }>(
      await get(`/notify/drill/list?houseId=${h.houseId}`),
    );
    expect(list.data.rows.find((d) => d.id === id)).toMatchObject({ notDelivered: 1 });

    const csv = (locale: string) =>
      get(`/notify/drill/report.csv?id=${id}`, locale).then((r) =>
        r.body
          .replace(/^\uFEFF/, '')
          .trim()
          .split('\r\n'),
      );
    expect((await csv('en'))[1]).toMatch(
      /,Not delivered: no SMS\/voice provider or webhook is set$/,
    );
    expect((await csv('zh'))[1]).toMatch(/,未送达：未配置短信\/语音服务商或 Webhook$/);
  });
});
