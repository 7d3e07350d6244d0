import { and, inArray, sql } from 'drizzle-orm';
import type { FlockKpis, Tariff } from '../../src/contract/production';
import type { PowerMonth, PowerMonthDay } from '../../src/contract/productionPower';
import type { Database } from '../db/client';
import { dailyRecords } from '../db/productionSchema';
import { telemetryHourly } from '../db/telemetrySchema';
import { addDays } from './kpi';
import { powerDay } from './tariff';

/** The days of a month, `2026-11` → 2026-11-01 … 2026-11-30. */
export function daysOfMonth(month: string): string[] {
  const first = `${month}-01`;
  const days: string[] = [];
  for (let d = first; d.startsWith(month); d = addDays(d, 1)) days.push(d);
  return days;
}

/**
 * What the month's flocks produced, in kg: the eggs entered, and for meat birds the live weight
 * gained between each flock's first and last weighing inside the month (alive × average weight).
 * Null when nothing was weighed twice and no eggs were entered: a figure, not a guess.
 */
export function producedKg(
  flocks: readonly FlockKpis[],
  month: string,
  eggKg: number | null,
): number | null {
  let kg = eggKg;
  for (const { flock, days } of flocks) {
    if (flock.layer) continue;
    const weighed = days.filter(
      (d) => d.day.startsWith(month) && d.bodyWeightG !== null && d.alive !== null,
    );
    if (weighed.length < 2) continue;
    const first = weighed[0]!;
    const last = weighed[weighed.length - 1]!;
    kg = (kg ?? 0) + (last.alive! * last.bodyWeightG! - first.alive! * first.bodyWeightG!) / 1000;
  }
  return kg;
}

/** Birds housed on average over the month's days that have any record. */
export function averageBirds(flocks: readonly FlockKpis[], month: string): number | null {
  const byDay = new Map<string, number>();
  for (const { days } of flocks)
    for (const d of days)
      if (d.day.startsWith(month) && d.alive !== null)
        byDay.set(d.day, (byDay.get(d.day) ?? 0) + d.alive);
  if (byDay.size === 0) return null;
  return [...byDay.values()].reduce((a, b) => a + b, 0) / byDay.size;
}

/**
 * Electricity of some houses over a month of the installation's calendar: each day from the
 * hourly rollup billed hour by hour by the tariff, the month's peak hour, average and totals,
 * and per bird and per kg produced from the flocks of those houses.
 */
export async function readPowerMonth(
  database: Database,
  houseIds: readonly number[],
  month: string,
  timeZone: string,
  tariff: Tariff | null,
  flocks: readonly FlockKpis[],
): Promise<PowerMonth> {
  const h = telemetryHourly;
  const local = sql`${h.bucket} at time zone ${timeZone}`;
  const layerIds = flocks.filter((f) => f.flock.layer).map((f) => f.flock.id);
  const [rows, eggs] = await Promise.all([
    database.db
      .select({
        day: sql<string>`(${local})::date::text`,
        hour: sql<number>`extract(hour from ${local})::int`.mapWith(Number),
        kwh: sql<number | null>`sum(${h.power_sum})`.mapWith(Number),
      })
      .from(h)
      .where(
        and(
          inArray(h.houseId!, [...houseIds]),
          sql`${h.bucket} >= (${`${month}-01`}::date::timestamp at time zone ${timeZone})`,
          sql`${h.bucket} < ((${`${month}-01`}::date + interval '1 month')::timestamp at time zone ${timeZone})`,
          sql`${h.power_n} > 0`,
        ),
      )
      .groupBy(sql`1, 2`),
    database.db
      .select({ kg: sql<number | null>`sum(${dailyRecords.eggKg})`.mapWith(Number) })
      .from(dailyRecords)
      .where(
        and(
          inArray(dailyRecords.flockId, layerIds),
          sql`to_char(${dailyRecords.day}, 'YYYY-MM') = ${month}`,
        ),
      ),
  ]);
  const hourly = new Map<string, Array<number | null>>();
  for (const r of rows) {
    if (r.kwh === null) continue;
    const hours = hourly.get(r.day) ?? Array.from({ length: 24 }, () => null);
    hours[r.hour] = r.kwh;
    hourly.set(r.day, hours);
  }
  const billing: Tariff = tariff ?? {
    hours: Array.from({ length: 24 }, () => 'flat'),
    prices: { peak: 0, flat: 0, valley: 0 },
  };
  const byPeriod = {
    peak: { kwh: 0, cost: 0 },
    flat: { kwh: 0, cost: 0 },
    valley: { kwh: 0, cost: 0 },
  };
  let kwh = 0;
  let cost = 0;
  let peakKw = 0;
  let meteredHours = 0;
  const days = daysOfMonth(month).map((day): PowerMonthDay => {
    const hours = hourly.get(day);
    if (!hours) return { day, kwh: null, cost: null, peakKw: null };
    const result = powerDay(hours, billing);
    kwh += result.kwh;
    cost += result.cost;
    peakKw = Math.max(peakKw, result.peakKw);
    meteredHours += hours.filter((h) => h !== null).length;
    for (const p of ['peak', 'flat', 'valley'] as const) {
      byPeriod[p].kwh += result.byPeriod[p].kwh;
      byPeriod[p].cost += result.byPeriod[p].cost;
    }
    return { day, kwh: result.kwh, cost: tariff ? result.cost : null, peakKw: result.peakKw };
  });
  const eggKg = eggs[0]?.kg ?? null;
  const produced = producedKg(flocks, month, eggKg);
  const birds = averageBirds(flocks, month);
  return {
    month,
    days,
    kwh,
    peakKw,
    averageKw: meteredHours > 0 ? kwh / meteredHours : 0,
    cost: tariff ? cost : null,
    byPeriod: tariff ? byPeriod : null,
    kwhPerBird: birds && kwh > 0 ? kwh / birds : null,
    kwhPerKg: produced && produced > 0 && kwh > 0 ? kwh / produced : null,
    producedKg: produced,
  };
}
