import type { DayRecord } from '../../src/contract/production';
import type { Database } from '../db/client';

/** One flock's record of one day, as the KPIs read it: the contract's record, less the note. */
export type FlockDayFacts = Omit<DayRecord, 'uniformity' | 'note'>;

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

/**
 * The daily records of these flocks, by flock then day. Hand-written because it answers one JSON
 * array of rows rather than thousands of result rows: PGlite decodes each row and column in
 * JavaScript, and 21,000 record rows took most of the time of 500 flocks' KPIs
 * (bench/production.ts measures it).
 */
export async function readFlockRecords(
  database: Database,
  flockIds: readonly number[],
): Promise<FlockDayFacts[]> {
  const [row] = await database.query<{ rows: string | null }>(
    `select json_agg(json_build_array(flock_id, day::text, deaths_am, deaths_pm, culls_am,
       culls_pm, feed_kg, water_l, eggs, egg_kg, body_weight_g) order by flock_id, day)::text as rows
     from daily_records where flock_id = any($1::int[])`,
    [[...flockIds]],
  );
  if (!row?.rows) return [];
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return (JSON.parse(row.rows) as unknown[][]).map((values) => {
    const r = Object.fromEntries(RECORD_COLUMNS.map((name, i) => [name, values[i]]));
    return {
      flockId: Number(r.flockId),
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
    };
  });
}
