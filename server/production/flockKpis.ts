import type { FlockKpis, FlockSummary } from '../../src/contract/production';
import type { Database } from '../db/client';
import { flockKpis, type DayFacts, type MeteredDay, type TargetFacts } from './kpi';

/**
 * Reads what the KPIs of several flocks need in four queries whatever their number (records,
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
  const [records, targets, metered] = await Promise.all([
    // One JSON array of rows rather than thousands of result rows: PGlite decodes each row and
    // column in JavaScript, and 21,000 record rows took most of the time of 500 flocks' KPIs.
    database
      .query<{ rows: string | null }>(
        `select json_agg(json_build_array(flock_id, day::text, deaths_am, deaths_pm, culls_am,
           culls_pm, feed_kg, water_l, eggs, egg_kg, body_weight_g) order by flock_id, day)::text as rows
         from daily_records where flock_id = any($1::int[])`,
        [ids],
      )
      .then(([row]) => recordRows(row?.rows ?? null)),
    database.query<Record<string, unknown>>(
      `select f.id as "flockId", t.age_day as "ageDay", t.weight, t.feed_per_head as "feedPerHead",
         t.water_per_head as "waterPerHead", t.laying_rate as "layingRate", t.survival_rate as "survivalRate"
       from flocks f join breed_targets t on t.breed_id = f.breed_id where f.id = any($1::int[])`,
      [ids],
    ),
    // Metered water and electricity of each flock's days, from the daily rollup.
    database.query<Record<string, unknown>>(
      `select f.id as "flockId", (d.bucket at time zone $2)::date::text as day,
         d.water_sum as water, d.power_sum as power
       from flocks f join telemetry_daily d on d.house_id = f.house_id
         and d.bucket >= (f.placed_on::timestamp at time zone $2)
         and d.bucket < (coalesce(f.closed_on, $3::date)::timestamp at time zone $2) + interval '1 day'
       where f.id = any($1::int[])`,
      [ids, timeZone, today],
    ),
  ]);
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const group = <T>(rows: Record<string, unknown>[], map: (r: Record<string, unknown>) => T) => {
    const out = new Map<number, T[]>();
    for (const row of rows) {
      const id = Number(row.flockId);
      const list = out.get(id) ?? [];
      list.push(map(row));
      out.set(id, list);
    }
    return out;
  };
  const recordsBy = group(records, (r): DayFacts => ({
    day: String(r.day),
    deathsAm: Number(r.deathsAm),
    deathsPm: Number(r.deathsPm),
    cullsAm: Number(r.cullsAm),
    cullsPm: Number(r.cullsPm),
    feedKg: Number(r.feedKg),
    waterL: num(r.waterL),
    eggs: num(r.eggs),
    eggKg: num(r.eggKg),
    bodyWeightG: num(r.bodyWeightG),
  }));
  const targetsBy = group(targets, (r): TargetFacts => ({
    ageDay: Number(r.ageDay),
    weight: num(r.weight),
    feedPerHead: num(r.feedPerHead),
    waterPerHead: num(r.waterPerHead),
    layingRate: num(r.layingRate),
    survivalRate: num(r.survivalRate),
  }));
  const meteredBy = group(metered, (r): [string, MeteredDay] => [
    String(r.day),
    { waterL: num(r.water), powerKwh: num(r.power) },
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

const RECORD_COLUMNS = [
  'flockId',
  'day',
  'deathsAm',
  'deathsPm',
  'cullsAm',
  'cullsPm',
  'feedKg',
  'waterL',
  'eggs',
  'eggKg',
  'bodyWeightG',
] as const;

/** The records' JSON array of arrays (columns in RECORD_COLUMNS order) as named rows. */
function recordRows(json: string | null): Record<string, unknown>[] {
  if (json === null) return [];
  return (JSON.parse(json) as unknown[][]).map((values) =>
    Object.fromEntries(RECORD_COLUMNS.map((name, i) => [name, values[i]])),
  );
}
