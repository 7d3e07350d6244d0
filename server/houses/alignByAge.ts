import {
  BREED_STANDARD_OF,
  type BreedStandard,
  type ComparedHouse,
} from '../../src/contract/houses';
import type { Database } from '../db/client';

const DAY_MS = 86_400_000;

interface FlockRow {
  house_id: number;
  breed_id: number | null;
  age_at_placement: number;
  /** Local midnight of the placement day, ms. */
  placed_ms: string | number;
  /** Local midnight after the closing day (the flock's stay ends there), ms; null while open. */
  closed_ms: string | number | null;
}

/**
 * The flock each house had in the window: the latest one placed before the window ends and not
 * closed before it starts. One flock per house, so a window that spans a clean-out shows the
 * newer flock only (two flocks of one house on one age axis would overlap and mislead).
 */
async function flocksOf(
  database: Database,
  houseIds: number[],
  window: { from: number; to: number },
  timeZone: string,
): Promise<Map<number, FlockRow>> {
  const rows = await database.query<FlockRow>(
    `select distinct on (fl.house_id) fl.house_id, fl.breed_id, fl.age_at_placement,
       (extract(epoch from (fl.placed_on::timestamp at time zone $4)) * 1000)::bigint as placed_ms,
       (extract(epoch from ((fl.closed_on + 1)::timestamp at time zone $4)) * 1000)::bigint as closed_ms
     from flocks fl
     where fl.house_id = any($1::int[])
       and (fl.placed_on::timestamp at time zone $4) < $3
       and (fl.closed_on is null or ((fl.closed_on + 1)::timestamp at time zone $4) > $2)
     order by fl.house_id, fl.placed_on desc, fl.id desc`,
    [houseIds, new Date(window.from), new Date(window.to), timeZone],
  );
  return new Map(rows.map((r) => [r.house_id, r]));
}

/** Day of age at `t`: whole days since placement plus the age then, plus the fraction of a day. */
function ageAt(t: number, flock: FlockRow): number {
  const age = flock.age_at_placement + (t - Number(flock.placed_ms)) / DAY_MS;
  // Bucket starts are whole hours or minutes: 4 decimals keep them apart and the keys stable.
  return Math.round(age * 10_000) / 10_000;
}

/**
 * Places each house's points at its flock's day of age, drops what lies outside the flock's
 * stay (an empty house has no age), and reads each breed's standard for the metric over the
 * ages shown. Scope was checked by the caller: only these houses' flocks are read.
 */
export async function alignByAge(
  database: Database,
  houses: ComparedHouse[],
  metric: string,
  window: { from: number; to: number },
  timeZone: string,
): Promise<{ houses: ComparedHouse[]; standards: BreedStandard[] }> {
  const flocks = await flocksOf(
    database,
    houses.map((h) => h.houseId),
    window,
    timeZone,
  );
  const ageRange = new Map<number, { min: number; max: number }>();
  const aligned = houses.map((house): ComparedHouse => {
    const flock = flocks.get(house.houseId);
    const times: number[] = [];
    const values: Array<number | null> = [];
    const ages: number[] = [];
    if (flock)
      house.times.forEach((t, i) => {
        if (t < Number(flock.placed_ms)) return;
        if (flock.closed_ms !== null && t >= Number(flock.closed_ms)) return;
        times.push(t);
        values.push(house.values[i] ?? null);
        ages.push(ageAt(t, flock));
      });
    const breedId = flock?.breed_id ?? null;
    if (breedId !== null && ages.length > 0) {
      const range = ageRange.get(breedId) ?? { min: Infinity, max: -Infinity };
      range.min = Math.min(range.min, Math.floor(ages[0]!));
      range.max = Math.max(range.max, Math.ceil(ages.at(-1)!));
      ageRange.set(breedId, range);
    }
    return { ...house, times, values, ages, breedId };
  });
  return { houses: aligned, standards: await standardsOf(database, metric, ageRange) };
}

/** Each breed's configured value of the metric per day of age, where it configures one. */
async function standardsOf(
  database: Database,
  metric: string,
  ageRange: Map<number, { min: number; max: number }>,
): Promise<BreedStandard[]> {
  const column = BREED_STANDARD_OF[metric];
  if (!column || ageRange.size === 0) return [];
  const breedIds = [...ageRange.keys()];
  // `column` comes from the fixed table above, never from the request.
  const rows = await database.query<{
    breed_id: number;
    breed_name: string;
    age_day: number;
    value: number;
  }>(
    `select b.id as breed_id, b.name as breed_name, t.age_day, t.${column} as value
     from breed_targets t join breeds b on b.id = t.breed_id
     where t.breed_id = any($1::int[]) and t.${column} is not null
     order by b.id, t.age_day`,
    [breedIds],
  );
  const byBreed = new Map<number, { name: string; points: Array<[number, number]> }>();
  for (const row of rows) {
    const entry = byBreed.get(row.breed_id) ?? { name: row.breed_name, points: [] };
    entry.points.push([Number(row.age_day), Number(row.value)]);
    byBreed.set(row.breed_id, entry);
  }
  const standards: BreedStandard[] = [];
  for (const [breedId, { name, points }] of byBreed) {
    const { min, max } = ageRange.get(breedId)!;
    // Standards are often weekly (day 0, 7, 14 …): the ends are interpolated so the dashed line
    // spans exactly the ages shown, and the rows between are kept as configured.
    const ages = [min, ...points.map(([a]) => a).filter((a) => a > min && a < max), max];
    if (max === min) ages.pop();
    standards.push({ breedId, breedName: name, ages, values: ages.map((a) => valueAt(points, a)) });
  }
  return standards;
}

/** Linear between configured days; before the first or after the last, the nearest one. */
export function valueAt(points: ReadonlyArray<readonly [number, number]>, age: number): number {
  const after = points.findIndex(([a]) => a >= age);
  if (after === -1) return points.at(-1)![1];
  const [a1, v1] = points[after]!;
  if (after === 0 || a1 === age) return v1;
  const [a0, v0] = points[after - 1]!;
  return Math.round((v0 + ((v1 - v0) * (age - a0)) / (a1 - a0)) * 1000) / 1000;
}
