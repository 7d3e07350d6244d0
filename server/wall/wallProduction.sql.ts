import type { Scope } from '../auth/scope';
import type { Database } from '../db/client';
import type { Tariff } from '../../src/contract/production';

/**
 * The wall's production and power statements. Hand-written because the control-room wall reads
 * them for a scope of up to 10,000 farms: each is one grouped pass whose rows are few (breeds ×
 * ages, organisations × hours), never one row per house.
 */

/** `and <column> = any(<scope's houses>)`, or nothing for a scope over all. */
function houseCondition(scope: Scope, column: string, params: unknown[]): string {
  return scope.all ? '' : ` and ${column} = any($${params.push([...scope.houseIds])}::int[])`;
}

/** Open flocks on `day`, grouped by breed and age, with their birds and the day's record. */
export interface FlockGroup {
  breedId: number | null;
  ageDay: number;
  /** The group's flocks entered the day (a group is all entered or all not). */
  entered: boolean;
  houses: number;
  /** Birds alive at the day's start: placed, less every loss recorded before the day. */
  alive: number;
  /** Deaths and culls recorded on the day. */
  losses: number;
}

export async function readFlockGroups(
  database: Database,
  scope: Scope,
  day: string,
): Promise<FlockGroup[]> {
  const params: unknown[] = [day];
  const rows = await database.query<{
    breed_id: number | null;
    age_day: number;
    entered: boolean;
    houses: number;
    alive: number;
    losses: number;
  }>(
    `with open as (
       select f.id, f.breed_id, f.head_count, ($1::date - f.placed_on + f.age_at_placement)::int as age_day
       from flocks f
       where f.placed_on <= $1::date and (f.closed_on is null or f.closed_on >= $1::date)
         ${houseCondition(scope, 'f.house_id', params)}
     ), before as (
       select r.flock_id, sum(r.deaths_am + r.deaths_pm + r.culls_am + r.culls_pm)::bigint as lost
       from daily_records r join open o on o.id = r.flock_id
       where r.day < $1::date
       group by r.flock_id
     )
     select o.breed_id, o.age_day, (t.flock_id is not null) as entered, count(*)::int as houses,
       sum(o.head_count - coalesce(b.lost, 0))::bigint as alive,
       coalesce(sum(t.deaths_am + t.deaths_pm + t.culls_am + t.culls_pm), 0)::bigint as losses
     from open o
     left join before b on b.flock_id = o.id
     left join daily_records t on t.flock_id = o.id and t.day = $1::date
     group by 1, 2, 3`,
    params,
  );
  return rows.map((r) => ({
    breedId: r.breed_id === null ? null : Number(r.breed_id),
    ageDay: Number(r.age_day),
    entered: r.entered,
    houses: Number(r.houses),
    alive: Math.max(0, Number(r.alive)),
    losses: Number(r.losses),
  }));
}

/** Feed entered for each of `days` in the scope's flocks, and how many houses entered it. */
export async function readFeedDays(
  database: Database,
  scope: Scope,
  days: readonly string[],
): Promise<Map<string, { feedKg: number; houses: number }>> {
  const params: unknown[] = [days];
  const rows = await database.query<{ day: string; feed_kg: number; houses: number }>(
    `select r.day::text as day, sum(r.feed_kg)::float8 as feed_kg, count(*)::int as houses
     from daily_records r join flocks f on f.id = r.flock_id
     where r.day = any($1::date[]) ${houseCondition(scope, 'f.house_id', params)}
     group by r.day`,
    params,
  );
  return new Map(rows.map((r) => [r.day, { feedKg: Number(r.feed_kg), houses: Number(r.houses) }]));
}

/** Metered water (L) and electricity (kWh) per organisation and hour, from `from` to `to`. */
export interface MeteredHour {
  orgId: number;
  /** Start of the hour, ms. */
  hourMs: number;
  waterL: number | null;
  kwh: number | null;
}

export async function readMeteredHours(
  database: Database,
  scope: Scope,
  from: Date,
  to: Date,
): Promise<MeteredHour[]> {
  const params: unknown[] = [from, to];
  const rows = await database.query<{
    org_id: number;
    bucket: Date;
    water: number | null;
    kwh: number | null;
  }>(
    `select f.org_id, t.bucket,
       sum(t.water_sum) filter (where t.water_n > 0)::float8 as water,
       sum(t.power_sum) filter (where t.power_n > 0)::float8 as kwh
     from telemetry_hourly t
     join houses h on h.id = t.house_id
     join farms f on f.id = h.farm_id
     where t.bucket >= $1 and t.bucket < $2 ${houseCondition(scope, 't.house_id', params)}
     group by 1, 2`,
    params,
  );
  return rows.map((r) => ({
    orgId: Number(r.org_id),
    hourMs: new Date(r.bucket).getTime(),
    waterL: r.water === null ? null : Number(r.water),
    kwh: r.kwh === null ? null : Number(r.kwh),
  }));
}

/** The survival curve rows of the breeds named. */
export async function readSurvivalTargets(
  database: Database,
  breedIds: readonly number[],
): Promise<Array<{ breedId: number; ageDay: number; survivalRate: number }>> {
  if (breedIds.length === 0) return [];
  const rows = await database.query<{ breed_id: number; age_day: number; survival_rate: number }>(
    `select breed_id, age_day, survival_rate from breed_targets
     where breed_id = any($1::int[]) and survival_rate is not null`,
    [[...breedIds]],
  );
  return rows.map((r) => ({
    breedId: Number(r.breed_id),
    ageDay: Number(r.age_day),
    survivalRate: Number(r.survival_rate),
  }));
}

/** The tariffs of the organisations named. */
export async function readTariffsOf(
  database: Database,
  orgIds: readonly number[],
): Promise<Array<{ orgId: number; tariff: Tariff }>> {
  if (orgIds.length === 0) return [];
  const rows = await database.query<{
    org_id: number;
    hours: string[];
    prices: Record<string, number>;
    currency: string;
  }>(`select org_id, hours, prices, currency from tariffs where org_id = any($1::int[])`, [
    [...orgIds],
  ]);
  // Stored through tariffSchema: the row is a tariff as saved.
  return rows.map((r) => ({
    orgId: Number(r.org_id),
    tariff: { hours: r.hours, prices: r.prices, currency: r.currency } as Tariff,
  }));
}
