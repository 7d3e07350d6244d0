import type { z } from 'zod';
import type {
  DayRecord,
  FarmDay,
  FlockSummary,
  HouseMonth,
  dayRecordInputSchema,
} from '../../src/contract/production';
import type { Scope } from '../auth/scope';
import type { Database } from '../db/client';
import { Refusal } from '../refusal';
import { addDays, ageOn } from './kpi';

type Query = Database['query'];
type DayInput = z.output<typeof dayRecordInputSchema>;

/** The installation's calendar day of `now` (the day a farmer enters data for). */
export function localDay(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(now);
}

/** A flock is a layer flock when its breed's standard has a laying rate. */
const LAYER_SQL = `exists (select 1 from breed_targets bt where bt.breed_id = f.breed_id and bt.laying_rate > 0)`;

export const RECORD_SELECT = `r.flock_id as "flockId", r.day::text as day, r.deaths_am as "deathsAm",
  r.deaths_pm as "deathsPm", r.culls_am as "cullsAm", r.culls_pm as "cullsPm", r.feed_kg as "feedKg",
  r.water_l as "waterL", r.eggs, r.egg_kg as "eggKg", r.body_weight_g as "bodyWeightG",
  r.uniformity, r.note`;

export const FLOCK_SELECT = `f.id, f.house_id as "houseId", h.name as "houseName", fa.name as "farmName",
  b.name as "breedName", f.placed_on::text as "placedOn", f.closed_on::text as "closedOn",
  f.age_at_placement as "ageAtPlacement", f.head_count as "headCount", f.origin,
  f.depleted_count as "depletedCount", f.catch_weight_kg as "catchWeightKg", ${LAYER_SQL} as layer`;
export const FLOCK_FROM = `flocks f join houses h on h.id = f.house_id join farms fa on fa.id = h.farm_id
  left join breeds b on b.id = f.breed_id`;

/** SQL limiting `column` to the scope's houses; pushes its parameter. */
export function houseScopeSql(scope: Scope, params: unknown[], column: string): string {
  return scope.all ? 'true' : `${column} = any($${params.push([...scope.houseIds])}::int[])`;
}

/** A record as the wire carries it: numbers as numbers (PostgreSQL's real may come as text). */
function recordOf(row: Record<string, unknown>): DayRecord {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    flockId: Number(row.flockId),
    day: String(row.day),
    deathsAm: Number(row.deathsAm),
    deathsPm: Number(row.deathsPm),
    cullsAm: Number(row.cullsAm),
    cullsPm: Number(row.cullsPm),
    feedKg: Number(row.feedKg),
    waterL: num(row.waterL),
    eggs: num(row.eggs),
    eggKg: num(row.eggKg),
    bodyWeightG: num(row.bodyWeightG),
    uniformity: num(row.uniformity),
    note: String(row.note ?? ''),
  };
}

export function flockOf(row: Record<string, unknown>): FlockSummary {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: Number(row.id),
    houseId: Number(row.houseId),
    houseName: String(row.houseName),
    farmName: String(row.farmName),
    breedName: (row.breedName as string | null) ?? null,
    placedOn: String(row.placedOn),
    closedOn: (row.closedOn as string | null) ?? null,
    ageAtPlacement: Number(row.ageAtPlacement),
    headCount: Number(row.headCount),
    origin: String(row.origin ?? ''),
    depletedCount: num(row.depletedCount),
    catchWeightKg: num(row.catchWeightKg),
    layer: Boolean(row.layer),
  };
}

/** The farm's houses in the scope on one day, each with the flock placed there and its record. */
export async function readFarmDay(
  database: Database,
  scope: Scope,
  farmId: number,
  day: string,
): Promise<FarmDay> {
  const params: unknown[] = [farmId, day];
  const rows = await database.query<Record<string, unknown>>(
    `select h.id as "houseId", h.name as "houseName", f.id as "fid", f.placed_on::text as "placedOn",
       f.age_at_placement as "ageAtPlacement", coalesce(${LAYER_SQL}, false) as layer, ${RECORD_SELECT}
     from houses h
     left join lateral (
       select * from flocks f where f.house_id = h.id and f.placed_on <= $2::date
         and (f.closed_on is null or f.closed_on >= $2::date)
       order by f.placed_on desc limit 1) f on true
     left join daily_records r on r.flock_id = f.id and r.day = $2::date
     where h.farm_id = $1 and ${houseScopeSql(scope, params, 'h.id')}
     order by h.sort, h.name, h.id`,
    params,
  );
  return {
    day,
    rows: rows.map((row) => ({
      houseId: Number(row.houseId),
      houseName: String(row.houseName),
      flockId: row.fid === null ? null : Number(row.fid),
      ageDay:
        row.fid === null
          ? null
          : ageOn(
              { placedOn: String(row.placedOn), ageAtPlacement: Number(row.ageAtPlacement) },
              day,
            ),
      layer: Boolean(row.layer),
      record: row.flockId === null ? null : recordOf(row),
    })),
  };
}

/** One house's month: every day, its flock's age, its record, and whether it is missing. */
export async function readHouseMonth(
  database: Database,
  houseId: number,
  month: string,
  today: string,
): Promise<HouseMonth> {
  const first = `${month}-01`;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const length = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const last = addDays(first, length - 1);
  const flocks = await database.query<Record<string, unknown>>(
    `select f.id, f.placed_on::text as "placedOn", f.closed_on::text as "closedOn",
       f.age_at_placement as "ageAtPlacement"
     from flocks f where f.house_id = $1 and f.placed_on <= $3::date
       and (f.closed_on is null or f.closed_on >= $2::date)`,
    [houseId, first, last],
  );
  const records = await database.query<Record<string, unknown>>(
    `select ${RECORD_SELECT} from daily_records r join flocks f on f.id = r.flock_id
     where f.house_id = $1 and r.day between $2::date and $3::date`,
    [houseId, first, last],
  );
  const byDay = new Map(records.map((r) => [String(r.day), recordOf(r)]));
  const days = Array.from({ length }, (_, i) => {
    const day = addDays(first, i);
    const flock = flocks.find(
      (f) => String(f.placedOn) <= day && (f.closedOn === null || String(f.closedOn) >= day),
    );
    const record = byDay.get(day) ?? null;
    return {
      day,
      flockId: flock ? Number(flock.id) : null,
      ageDay: flock
        ? ageOn(
            { placedOn: String(flock.placedOn), ageAtPlacement: Number(flock.ageAtPlacement) },
            day,
          )
        : null,
      record,
      missing: Boolean(flock) && record === null && day <= today,
    };
  });
  return { houseId, month, days };
}

/**
 * Saves a day for several houses in one transaction: each row goes to the flock placed in its
 * house that day. A house outside the scope answers like one that does not exist.
 */
export async function saveDays(
  database: Database,
  scope: Scope,
  userId: number,
  inputs: readonly DayInput[],
  today: string,
): Promise<Array<{ houseId: number; houseName: string; flockId: number; day: string }>> {
  return database.transaction(async ({ query }) => {
    const saved = [];
    for (const input of inputs) {
      if (!scope.all && !scope.houseIds.has(input.houseId))
        throw new Refusal('notFound', 'houses.notFound');
      if (input.day > today) throw new Refusal('invalid', 'production.future');
      const flock = await flockInHouseOn(query, input.houseId, input.day);
      await query(
        `insert into daily_records (flock_id, day, deaths_am, deaths_pm, culls_am, culls_pm, feed_kg,
           water_l, eggs, egg_kg, body_weight_g, uniformity, note, updated_by, updated_at)
         values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14, now())
         on conflict (flock_id, day) do update set deaths_am = excluded.deaths_am,
           deaths_pm = excluded.deaths_pm, culls_am = excluded.culls_am, culls_pm = excluded.culls_pm,
           feed_kg = excluded.feed_kg, water_l = excluded.water_l, eggs = excluded.eggs,
           egg_kg = excluded.egg_kg, body_weight_g = excluded.body_weight_g,
           uniformity = excluded.uniformity, note = excluded.note, updated_by = excluded.updated_by,
           updated_at = now()`,
        [
          flock.id,
          input.day,
          input.deathsAm,
          input.deathsPm,
          input.cullsAm,
          input.cullsPm,
          input.feedKg,
          input.waterL,
          input.eggs,
          input.eggKg,
          input.bodyWeightG,
          input.uniformity,
          input.note,
          userId,
        ],
      );
      saved.push({
        houseId: input.houseId,
        houseName: flock.houseName,
        flockId: flock.id,
        day: input.day,
      });
    }
    return saved;
  });
}

async function flockInHouseOn(query: Query, houseId: number, day: string) {
  const [house] = await query<{ name: string }>('select name from houses where id = $1', [houseId]);
  if (!house) throw new Refusal('notFound', 'houses.notFound');
  const [flock] = await query<{ id: number }>(
    `select id from flocks where house_id = $1 and placed_on <= $2::date
       and (closed_on is null or closed_on >= $2::date)
     order by placed_on desc limit 1`,
    [houseId, day],
  );
  if (!flock) throw new Refusal('unprocessable', 'production.noFlock', { house: house.name, day });
  return { id: Number(flock.id), houseName: house.name };
}

/** Flocks in the scope, newest first: one house's history, or a list by id. */
export async function readFlocks(
  database: Database,
  scope: Scope,
  filter: { houseId?: number; flockIds?: number[]; farmId?: number },
): Promise<FlockSummary[]> {
  const params: unknown[] = [];
  const where = [houseScopeSql(scope, params, 'f.house_id')];
  if (filter.houseId !== undefined) where.push(`f.house_id = $${params.push(filter.houseId)}`);
  if (filter.farmId !== undefined) where.push(`h.farm_id = $${params.push(filter.farmId)}`);
  if (filter.flockIds) where.push(`f.id = any($${params.push(filter.flockIds)}::int[])`);
  const rows = await database.query<Record<string, unknown>>(
    `select ${FLOCK_SELECT} from ${FLOCK_FROM} where ${where.join(' and ')}
     order by f.placed_on desc, f.id desc`,
    params,
  );
  return rows.map(flockOf);
}
