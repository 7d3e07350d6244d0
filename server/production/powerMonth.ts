import { and, inArray, sql } from 'drizzle-orm';
import type { FlockKpis, Tariff } from '../../src/contract/production';
import type { PowerMonth, PowerMonthDay } from '../../src/contract/productionPower';
import type { Database } from '../db/client';
import { telemetryHourly } from '../db/telemetrySchema';
import { addDays, daysBetween } from './kpi';
import { localHour, UNBILLED } from './power';
import { localDay } from './records';
import { powerDay } from './tariff';

/** The days of a month, `2026-11` → 2026-11-01 … 2026-11-30. */
export function daysOfMonth(month: string): string[] {
  const first = `${month}-01`;
  const days: string[] = [];
  for (let d = first; d.startsWith(month); d = addDays(d, 1)) days.push(d);
  return days;
}

/** A house's metered kWh of a finished day of the month, null when unmetered or unfinished. */
export type HouseDayKwh = (houseId: number, day: string) => number | null;

export interface ProducedFigures {
  kwhPerBird: number | null;
  kwhPerKg: number | null;
  producedKg: number | null;
  producedKwh: number | null;
}

/**
 * Electricity per bird and per kg produced, each numerator over the same house-days as its
 * denominator, so that another flock's days, the empty house between flocks and days without a
 * record or a meter never count against a flock:
 * - per bird: the flocks' recorded days that were metered; their kWh over the birds housed on
 *   average on those days;
 * - per kg, meat birds: the days after a flock's first weighing of the month up to its last (the
 *   days the gain was made), over the live weight gained (alive × average weight, last − first);
 *   a window with a day unmetered leaves the flock out, as a figure, not a guess;
 * - per kg, layers: the days with egg mass entered that were metered, over those eggs.
 */
export function producedFigures(
  flocks: readonly FlockKpis[],
  month: string,
  kwhOf: HouseDayKwh,
): ProducedFigures {
  const birdKwh = new Map<string, number>();
  const birdsByDay = new Map<string, number>();
  const kgKwh = new Map<string, number>();
  let producedKg: number | null = null;
  for (const { flock, days } of flocks) {
    const own = days.filter((d) => d.day.startsWith(month) && d.recorded);
    for (const d of own) {
      const kwh = kwhOf(flock.houseId, d.day);
      if (kwh === null || d.alive === null) continue;
      birdKwh.set(`${flock.houseId}:${d.day}`, kwh);
      birdsByDay.set(d.day, (birdsByDay.get(d.day) ?? 0) + d.alive);
    }
    if (flock.layer) {
      for (const d of own) {
        const kwh = kwhOf(flock.houseId, d.day);
        if (kwh === null || d.eggKg === null || d.eggKg <= 0) continue;
        kgKwh.set(`${flock.houseId}:${d.day}`, kwh);
        producedKg = (producedKg ?? 0) + d.eggKg;
      }
      continue;
    }
    const weighed = own.filter((d) => d.bodyWeightG !== null && d.alive !== null);
    if (weighed.length < 2) continue;
    const first = weighed[0]!;
    const last = weighed[weighed.length - 1]!;
    const window: Array<[string, number]> = [];
    for (let day = addDays(first.day, 1); day <= last.day; day = addDays(day, 1)) {
      const kwh = kwhOf(flock.houseId, day);
      if (kwh === null) break;
      window.push([day, kwh]);
    }
    if (window.length !== daysBetween(first.day, last.day)) continue;
    for (const [day, kwh] of window) kgKwh.set(`${flock.houseId}:${day}`, kwh);
    producedKg =
      (producedKg ?? 0) +
      (last.alive! * last.bodyWeightG! - first.alive! * first.bodyWeightG!) / 1000;
  }
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const birds =
    birdsByDay.size > 0 ? [...birdsByDay.values()].reduce((a, b) => a + b, 0) / birdsByDay.size : 0;
  const producedKwh = kgKwh.size > 0 ? sum(kgKwh) : null;
  return {
    kwhPerBird: birds > 0 ? sum(birdKwh) / birds : null,
    kwhPerKg:
      producedKwh !== null && producedKg !== null && producedKg > 0
        ? producedKwh / producedKg
        : null,
    producedKg,
    producedKwh,
  };
}

/**
 * Electricity of some houses over a month of the installation's calendar: each day from the
 * hourly rollup billed hour by hour by the tariff, the month's peak hour, average and totals,
 * and per bird and per kg produced from the flocks of those houses. Today, when in the month, is
 * named as running: its figures so far count in the totals, not in peak and average.
 */
export async function readPowerMonth(
  database: Database,
  houseIds: readonly number[],
  month: string,
  timeZone: string,
  tariff: Tariff | null,
  flocks: readonly FlockKpis[],
  now: Date,
): Promise<PowerMonth> {
  const h = telemetryHourly;
  const local = sql`${h.bucket} at time zone ${timeZone}`;
  const rows = await database.db
    .select({
      houseId: h.houseId!,
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
    .groupBy(sql`1, 2, 3`);
  const today = localDay(now, timeZone);
  const runningDay = today.startsWith(month) ? today : null;
  const runningHour = runningDay ? localHour(now, timeZone) : null;
  const hourly = new Map<string, Array<number | null>>();
  const houseDay = new Map<string, number>();
  for (const r of rows) {
    if (r.kwh === null) continue;
    const hours = hourly.get(r.day) ?? Array.from({ length: 24 }, () => null);
    hours[r.hour] = (hours[r.hour] ?? 0) + r.kwh;
    hourly.set(r.day, hours);
    const key = `${r.houseId}:${r.day}`;
    houseDay.set(key, (houseDay.get(key) ?? 0) + r.kwh);
  }
  const billing = tariff ?? UNBILLED;
  const byPeriod = {
    peak: { kwh: 0, cost: 0 },
    flat: { kwh: 0, cost: 0 },
    valley: { kwh: 0, cost: 0 },
  };
  let kwh: number | null = null;
  let cost = 0;
  let peakKw: number | null = null;
  let finishedKwh = 0;
  let finishedHours = 0;
  const days: PowerMonthDay[] = [];
  for (const day of daysOfMonth(month)) {
    const hours = hourly.get(day);
    if (!hours) {
      days.push({ day, kwh: null, cost: null, peakKw: null });
      continue;
    }
    const result = powerDay(hours, billing, day === runningDay ? runningHour : null);
    kwh = (kwh ?? 0) + (result.kwh ?? 0);
    cost += result.cost ?? 0;
    if (result.peakKw !== null) peakKw = Math.max(peakKw ?? 0, result.peakKw);
    finishedKwh += result.finishedKwh;
    finishedHours += result.finishedHours;
    for (const p of ['peak', 'flat', 'valley'] as const) {
      byPeriod[p].kwh += result.byPeriod[p].kwh;
      byPeriod[p].cost += result.byPeriod[p].cost;
    }
    days.push({ day, kwh: result.kwh, cost: tariff ? result.cost : null, peakKw: result.peakKw });
  }
  // Per bird and per kg count finished days only: today's kWh so far is not a day's.
  const kwhOf: HouseDayKwh = (houseId, day) =>
    day === runningDay ? null : (houseDay.get(`${houseId}:${day}`) ?? null);
  return {
    month,
    days,
    runningDay,
    kwh,
    peakKw,
    averageKw: finishedHours > 0 ? finishedKwh / finishedHours : null,
    cost: tariff && kwh !== null ? cost : null,
    byPeriod: tariff && kwh !== null ? byPeriod : null,
    ...producedFigures(flocks, month, kwhOf),
  };
}
