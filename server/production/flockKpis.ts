import type { FlockKpis, FlockSummary } from '../../src/contract/production';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { breedTargets, flocks as flockRows } from '../db/schema';
import { telemetryDaily } from '../db/telemetrySchema';
import { readFlockRecords } from './flockKpis.sql';
import { flockKpis, type DayFacts, type MeteredDay, type TargetFacts } from './kpi';

/**
 * Reads what the KPIs of several flocks need in three queries whatever their number (records,
 * breed standards, metered water and electricity per day) and computes them.
 */
export async function loadFlockKpis(
  database: Database,
  flocks: readonly FlockSummary[],
  today: string,
  timeZone: string,
): Promise<FlockKpis[]> {
  if (flocks.length === 0) return [];
  const ids = flocks.map((f) => f.id);
  const d = telemetryDaily;
  const [records, targets, metered] = await Promise.all([
    readFlockRecords(database, ids),
    database.db
      .select({
        flockId: flockRows.id,
        ageDay: breedTargets.ageDay,
        weight: breedTargets.weight,
        feedPerHead: breedTargets.feedPerHead,
        waterPerHead: breedTargets.waterPerHead,
        layingRate: breedTargets.layingRate,
        survivalRate: breedTargets.survivalRate,
      })
      .from(flockRows)
      .innerJoin(breedTargets, eq(breedTargets.breedId, flockRows.breedId))
      .where(inArray(flockRows.id, ids)),
    // Metered water and electricity of each flock's days, from the daily rollup.
    database.db
      .select({
        flockId: flockRows.id,
        day: sql<string>`(${d.bucket} at time zone ${timeZone})::date::text`,
        water: sql<number | null>`${d.water_sum}`.mapWith(Number),
        power: sql<number | null>`${d.power_sum}`.mapWith(Number),
      })
      .from(flockRows)
      .innerJoin(
        d,
        and(
          eq(d.houseId!, flockRows.houseId),
          sql`${d.bucket} >= (${flockRows.placedOn}::timestamp at time zone ${timeZone})`,
          sql`${d.bucket} < (coalesce(${flockRows.closedOn}, ${today}::date)::timestamp at time zone ${timeZone}) + interval '1 day'`,
        ),
      )
      .where(inArray(flockRows.id, ids)),
  ]);
  const group = <R extends { flockId: number }, T>(rows: R[], map: (r: R) => T) => {
    const out = new Map<number, T[]>();
    for (const row of rows) {
      const list = out.get(row.flockId) ?? [];
      list.push(map(row));
      out.set(row.flockId, list);
    }
    return out;
  };
  const recordsBy = group(records, ({ flockId: _, ...facts }): DayFacts => facts);
  const targetsBy = group(targets, ({ flockId: _, ...facts }): TargetFacts => facts);
  const meteredBy = group(metered, (r): [string, MeteredDay] => [
    r.day,
    { waterL: r.water, powerKwh: r.power },
  ]);
  return flocks.map((flock) => {
    const untilDay = flock.closedOn ?? today;
    const result = flockKpis(
      {
        placedOn: flock.placedOn,
        ageAtPlacement: flock.ageAtPlacement,
        headCount: flock.headCount,
        layer: flock.layer,
        untilDay,
      },
      recordsBy.get(flock.id) ?? [],
      targetsBy.get(flock.id) ?? [],
      new Map(meteredBy.get(flock.id) ?? []),
    );
    return { flock, ...result };
  });
}
