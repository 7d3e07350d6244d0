import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelAdapter, Notification, TryResult } from '../../server/alarms/channels';
import { NotificationDispatcher } from '../../server/alarms/dispatcher';
import { DrillSender, startDrill } from '../../server/notify/drill';
import { demoHouse } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';

/**
 * A drill whose process stopped after it claimed the drill and before it sent the messages:
 * the process that runs next (or another one beside it) sends each of them once, after the
 * dead process's claim ran out, and never again.
 */
describe.each(testDatabaseTargets())('a drill left unsent by a crash on $name', (target) => {
  let t: TestApp;
  const log = pino({ level: 'silent' });
  const got: string[] = [];
  /** Each process's channels: they record who was reached, by which process. */
  const adapter = (process: string): ChannelAdapter => ({
    name: `standin-${process}`,
    async send(n: Notification, onTry: (t: number, r: TryResult) => Promise<void>) {
      got.push(`${n.phone} ${n.channel}`);
      const r = { ok: true, detail: `OK ${process}` };
      await onTry(1, r);
      return r;
    },
  });
  /** One server process's dispatcher, on its own clock. */
  const processAt = (name: string, now: Date) => {
    const channels = { sms: adapter(name), voice: adapter(name) };
    const drills = new DrillSender(t.database, {
      adapters: channels,
      locale: 'en',
      timeZone: 'Asia/Shanghai',
      log,
      now: () => now,
    });
    return new NotificationDispatcher(t.database, {
      adapters: channels,
      drills: (at) => drills.send(at),
      timeZone: 'Asia/Shanghai',
      log,
      now: () => now,
    });
  };
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => t?.close());

  it('sends the unsent receipts once after a restart, with two processes running', async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 4');
    for (const [phone, type] of [
      ['13800000071', 'message'],
      ['13800000072', 'phoneAndMessage'],
    ])
      await t.database.query(
        `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type, repeat_minutes,
           closable, alarm_type, delay_minutes, status, notice_types)
         values ($1, $2, $3, '00:00', '00:00', 'daily', 0, true, $4, 0, 'open', '["block"]')`,
        [h.farmId, h.houseId, phone, type],
      );
    const started = new Date();
    const id = await startDrill(t.database, h, 'Admin', false, started);
    // What the process that crashed left: the drill taken for sending, its three receipts
    // claimed for two minutes, none tried.
    await t.database.query(`update notify_drills set dispatched_at = $2 where id = $1`, [
      id,
      started,
    ]);
    await t.database.query(
      `update notify_drill_receipts set claimed_until = $2 where drill_id = $1`,
      [id, new Date(started.getTime() + 120_000)],
    );

    // Restarted a minute later: the dead process's claim still holds them.
    const minute = new Date(started.getTime() + 60_000);
    await processAt('a', minute).tick();
    expect(got).toEqual([]);

    // Once it ran out, two processes look at the same moment: each message goes once.
    const later = new Date(started.getTime() + 180_000);
    await Promise.all([processAt('a', later).tick(), processAt('b', later).tick()]);
    expect(got.sort()).toEqual(['13800000071 sms', '13800000072 sms', '13800000072 voice']);
    const receipts = await t.database.query<{ tries: number; sent: boolean }>(
      `select tries, sent_at is not null as sent from notify_drill_receipts where drill_id = $1`,
      [id],
    );
    expect(receipts).toEqual(Array(3).fill({ tries: 1, sent: true }));

    // Later rounds, and later restarts, send nothing again.
    await processAt('a', new Date(later.getTime() + 600_000)).tick();
    await processAt('c', new Date(later.getTime() + 3_600_000)).tick();
    expect(got).toHaveLength(3);
  });
});
