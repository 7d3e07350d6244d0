import { MAX_COMPLETENESS_DAYS, type HouseCompleteness } from '../../src/contract/completeness';
import type { Database } from '../db/client';
import { ApiError } from '../http/errors';

const DAY_MS = 86_400_000;

/** YYYY-MM-DD of `at` in `timeZone`. */
export const dayOf = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone }).format(at);

/** The day `days` after `day` (both YYYY-MM-DD); noon keeps daylight saving out of it. */
export const addDays = (day: string, days: number) =>
  dayOf(new Date(Date.parse(`${day}T12:00:00Z`) + days * DAY_MS), 'UTC');

/**
 * The asked window as days of the installation's zone: a moment is read as its day there, and
 * nothing asked is the last 7 days to today. Refuses a window that runs backwards or is longer
 * than MAX_COMPLETENESS_DAYS.
 */
export function completenessWindow(
  query: { from?: string; to?: string },
  now: Date,
  timeZone: string,
): { from: string; to: string } {
  const asDay = (v: string) => (v.includes('-') ? v : dayOf(new Date(Number(v)), timeZone));
  const to = query.to === undefined ? dayOf(now, timeZone) : asDay(query.to);
  const from = query.from === undefined ? addDays(to, -6) : asDay(query.from);
  // A day that does not exist (2026-02-30) is refused here, not by the database.
  const real = (d: string) => !Number.isNaN(Date.parse(d)) && addDays(d, 0) === d;
  if (!real(from) || !real(to)) throw new ApiError(400, 'houses.completenessBadDay');
  if (from > to) throw new ApiError(400, 'trend.badRange');
  if (Date.parse(to) - Date.parse(from) >= MAX_COMPLETENESS_DAYS * DAY_MS)
    throw new ApiError(400, 'houses.completenessTooLong');
  return { from, to };
}

/**
 * Data completeness from the hourly rollup, which ingestion writes in the batch's own statement
 * (the daily one lags behind a timer): nothing is added to the hot path. Each (house, day) is
 * an index range of at most 24 rows of `telemetry_hourly` by its primary key.
 *
 * A day counts from the later of its midnight and the house's start (its first hour of readings
 * or its gateway's creation, whichever is earlier, so a new gateway's first day and a demo's
 * written past are not held against it) to the earlier of its end and `now`. Days whose edges
 * fall inside an hour (zones off the hour) count that hour's readings on the day it began.
 */
const COMPLETENESS_SQL = `
  with h as (
    select hs.id as house_id, hs.name as house_name, f.name as farm_name, g.interval_seconds,
      least(g.created_at,
        (select min(t.bucket) from telemetry_hourly t where t.house_id = hs.id)) as since
    from houses hs
    join farms f on f.id = hs.farm_id
    left join gateways g on g.house_id = hs.id
    where ($1::int[] is null or hs.id = any($1::int[]))
      and (not $6::boolean or g.id is not null)
  ), d as (
    select h.*, to_char(day, 'YYYY-MM-DD') as day,
      (day at time zone $4) as day_start,
      ((day + interval '1 day') at time zone $4) as day_end
    from h cross join generate_series($2::date::timestamp, $3::date::timestamp, interval '1 day') as day
  )
  select d.house_id, d.house_name, d.farm_name, d.day, d.day_start, d.interval_seconds,
    coalesce((select sum(t.readings) from telemetry_hourly t
      where t.house_id = d.house_id and t.bucket >= d.day_start and t.bucket < d.day_end), 0)::int
      as readings,
    greatest(0, extract(epoch from
      least(d.day_end, $5::timestamptz) - greatest(d.day_start, coalesce(d.since, d.day_end))
    ))::float8 as seconds
  from d order by d.house_id, d.day`;

interface Row {
  house_id: number;
  house_name: string;
  farm_name: string;
  day: string;
  day_start: Date;
  interval_seconds: number | null;
  readings: number;
  seconds: number;
}

export interface CompletenessInput {
  /** null: every house (the caller limits them to its scope). */
  houseIds: number[] | null;
  /** First and last day, YYYY-MM-DD in `timeZone`. */
  from: string;
  to: string;
  now: Date;
  timeZone: string;
  /** Only houses that have a gateway. */
  withGatewayOnly?: boolean;
}

export interface HouseCompletenessRow extends HouseCompleteness {
  houseName: string;
  farmName: string;
}

/** readings / expected as a percentage with one decimal; a reading early by a second is not 101 %. */
export function percentOf(readings: number, expected: number): number | null {
  if (expected <= 0) return null;
  return Math.min(100, Math.round((readings / expected) * 1000) / 10);
}

export async function readCompleteness(
  database: Database,
  input: CompletenessInput,
): Promise<HouseCompletenessRow[]> {
  const rows = await database.query<Row>(COMPLETENESS_SQL, [
    input.houseIds,
    input.from,
    input.to,
    input.timeZone,
    input.now,
    input.withGatewayOnly ?? false,
  ]);
  const byHouse = new Map<number, HouseCompletenessRow>();
  for (const r of rows) {
    const houseId = Number(r.house_id);
    let house = byHouse.get(houseId);
    if (!house) {
      house = {
        houseId,
        houseName: r.house_name,
        farmName: r.farm_name,
        intervalSeconds: r.interval_seconds === null ? null : Number(r.interval_seconds),
        days: [],
      };
      byHouse.set(houseId, house);
    }
    const expected =
      house.intervalSeconds === null ? 0 : Math.floor(Number(r.seconds) / house.intervalSeconds);
    const readings = Number(r.readings);
    house.days.push({ day: r.day, readings, expected, percent: percentOf(readings, expected) });
  }
  return [...byHouse.values()];
}
