import type { Database } from '../db/client';
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
  const phones = await database.query<{
    id: number;
    phone: string;
    alarmType: string;
    houseId: number;
  }>(
    `select p.id, p.phone, p.alarm_type as "alarmType", h.id as "houseId"
     from alarm_phones p join houses h on h.farm_id = p.farm_id and (p.house_id is null or p.house_id = h.id)
     where p.status = 'open' and p.notice_types @> '["device"]'::jsonb and h.id = any($1::int[])`,
    [[...new Set(plans.map((p) => p.houseId))]],
  );
  return plans.map((plan) => ({
    plan,
    phones: phones
      .filter((p) => p.houseId === plan.houseId)
      .map(({ id, phone, alarmType }) => ({ id, phone, alarmType })),
  }));
}
