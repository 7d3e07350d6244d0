import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { alarmPhones } from '../db/alarmSchema';
import type { Database } from '../db/client';
import { houses } from '../db/schema';
import { readPlans, type PlanWithFarm } from './maintenance';

/**
 * The hook for alarm delivery: the maintenance items due or overdue today, each with the alarm
 * phone entries that asked for "device" notices on its house (an entry of the whole farm counts
 * for every house of it). Delivery itself (SMS, voice, e-mail, its schedule and repeats) belongs
 * to the alarm notification channels; they call this once a day and send what it answers.
 */
export interface DeviceNotice {
  plan: PlanWithFarm;
  phones: Array<{ id: number; phone: string; alarmType: string }>;
}

export async function deviceNotices(
  database: Database,
  now: Date,
  timeZone: string,
): Promise<DeviceNotice[]> {
  const plans = (await readPlans(database, { all: true }, now, timeZone)).filter(
    (p) => p.state !== 'ok',
  );
  if (plans.length === 0) return [];
  const p = alarmPhones;
  const phones = await database.db
    .select({ id: p.id, phone: p.phone, alarmType: p.alarmType, houseId: houses.id })
    .from(p)
    .innerJoin(
      houses,
      and(eq(houses.farmId, p.farmId), or(isNull(p.houseId), eq(p.houseId, houses.id))),
    )
    .where(
      and(
        eq(p.status, 'open'),
        sql`${p.noticeTypes} @> '["device"]'::jsonb`,
        inArray(houses.id, [...new Set(plans.map((plan) => plan.houseId))]),
      ),
    );
  return plans.map((plan) => ({
    plan,
    phones: phones
      .filter((p) => p.houseId === plan.houseId)
      .map(({ id, phone, alarmType }) => ({ id, phone, alarmType })),
  }));
}
