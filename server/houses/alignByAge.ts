import {
  BREED_STANDARD_OF,
  type BreedStandard,
  type ComparedHouse,
} from '../../src/contract/houses';
import {
  and,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  sql,
} from 'drizzle-orm';
import type { Database } from '../db/client';
import { breeds, breedTargets, flocks } from '../db/schema';

const DAY_MS = 86_400_000;

interface FlockRow {
  houseId: number;
  breedId: number | null;
  ageAtPlacement: number;
  /** Local midnight of the placement day, ms. */
  placedMs: number;
  /** Local midnight after the closing day (the flock's stay ends there), ms; null while open. */
  closedMs: number | null;
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
  const placedAt = sql`(${flocks.placedOn}::timestamp at time zone ${timeZone})`;
  const endsAt = sql`((${flocks.closedOn} + 1)::timestamp at time zone ${timeZone})`;
  const epochMs = (at: typeof placedAt) => sql`(extract(epoch from ${at}) * 1000)::bigint`;
  const rows: FlockRow[] = await database.db
    .selectDistinctOn([flocks.houseId], {
      houseId: flocks.houseId,
      breedId: flocks.breedId,
      ageAtPlacement: flocks.ageAtPlacement,
      placedMs: epochMs(placedAt).mapWith(Number),
      closedMs: sql<number | null>`${epochMs(endsAt)}`.mapWith(Number),
    })
    .from(flocks)
    .where(
      and(
        inArray(flocks.houseId, houseIds),
        lt(placedAt, new Date(window.to)),
        or(isNull(flocks.closedOn), gt(endsAt, new Date(window.from))),
      ),
    )
    .orderBy(flocks.houseId, desc(flocks.placedOn), desc(flocks.id));
  return new Map(rows.map((r) => [r.houseId, r]));
}

/** Day of age at `t`: whole days since placement plus the age then, plus the fraction of a day. */
function ageAt(t: number, flock: FlockRow): number {
  const age = flock.ageAtPlacement + (t - flock.placedMs) / DAY_MS;
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
        if (t < flock.placedMs) return;
        if (flock.closedMs !== null && t >= flock.closedMs) return;
        times.push(t);
        values.push(house.values[i] ?? null);
        ages.push(ageAt(t, flock));
      });
    const breedId = flock?.breedId ?? null;
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
  // The column's name comes from the fixed table above, never from the request.
  const columnName = BREED_STANDARD_OF[metric];
  const column = Object.values(getTableColumns(breedTargets)).find((c) => c.name === columnName);
  if (!column || ageRange.size === 0) return [];
  const breedIds = [...ageRange.keys()];
  const rows = await database.db
    .select({
      breedId: breeds.id,
      breedName: breeds.name,
      ageDay: breedTargets.ageDay,
      value: sql<number>`${column}`.mapWith(Number),
    })
    .from(breedTargets)
    .innerJoin(breeds, eq(breeds.id, breedTargets.breedId))
    .where(and(inArray(breedTargets.breedId, breedIds), isNotNull(column)))
    .orderBy(breeds.id, breedTargets.ageDay);
  const byBreed = new Map<number, { name: string; points: Array<[number, number]> }>();
  for (const row of rows) {
    const entry = byBreed.get(row.breedId) ?? { name: row.breedName, points: [] };
    entry.points.push([row.ageDay, row.value]);
    byBreed.set(row.breedId, entry);
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
