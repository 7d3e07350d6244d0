import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueNotifications } from '../../server/alarms/queue.sql';
import { presentAlarm, alarmsWithNames } from '../../server/alarms/lifecycle';
import type { Database } from '../../server/db/client';
import { alarmNotifications, alarmPhones, alarms } from '../../server/db/alarmSchema';
import { notifyPhoneLevels } from '../../server/db/notifySchema';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';
import { farmWithHouses } from './helpers';

describe.each(testDatabaseTargets())('notification queue statement on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, close } = await openTestDatabase(target));
  });
  afterAll(() => close?.());

  it('queues one notification per open entry covering the house and notice type, after its delay', async () => {
    const { farmId, houseIds } = await farmWithHouses(database, 2);
    const [house, other] = houseIds as [number, number];
    const entry = {
      farmId,
      phone: '13800000000',
      period1Start: '00:00',
      period1End: '23:59',
      dateType: 'daily',
      repeatMinutes: 0,
      closable: true,
      alarmType: 'sms',
      delayMinutes: 0,
      status: 'open',
      noticeTypes: ['block'],
    };
    const phones = await database.db
      .insert(alarmPhones)
      .values([
        { ...entry, houseId: null, delayMinutes: 5 }, // the whole farm: queued
        { ...entry, houseId: house, noticeTypes: ['device', 'block'] }, // this house: queued
        { ...entry, houseId: other }, // another house
        { ...entry, houseId: null, status: 'closed' },
        { ...entry, houseId: null, noticeTypes: ['network'] },
        { ...entry, houseId: null }, // a later escalation level
      ])
      .returning({ id: alarmPhones.id });
    const ids = phones.map((p) => p.id);
    await database.db.insert(notifyPhoneLevels).values({ phoneId: ids[5]!, level: 1 });
    const [raised] = await database.db
      .insert(alarms)
      .values({
        houseId: house,
        farmId,
        cause: 'temperatureHigh',
        severity: 'major',
        raisedAt: new Date('2026-01-02T00:00:00Z'),
      })
      .returning({ id: alarms.id });
    const [row] = await alarmsWithNames(database.db).where(eq(alarms.id, raised!.id));
    const alarm = presentAlarm(row!);
    const now = new Date('2026-01-02T00:01:00Z');

    await database.transaction(({ query }) => enqueueNotifications(query, alarm, now));
    // Twice: an entry is queued once per alarm.
    await database.transaction(({ query }) => enqueueNotifications(query, alarm, now));

    const queued = await database.db
      .select({ phoneId: alarmNotifications.phoneId, nextAt: alarmNotifications.nextAt })
      .from(alarmNotifications)
      .where(eq(alarmNotifications.alarmId, alarm.id))
      .orderBy(alarmNotifications.phoneId);
    expect(queued).toEqual([
      { phoneId: ids[0], nextAt: new Date('2026-01-02T00:06:00Z') },
      { phoneId: ids[1], nextAt: now },
    ]);
  });
});
