import {
  resolveWarningLimits,
  warningLimitsSchema,
  type ResolvedWarningLimits,
  type WarningLimits,
} from '../../src/contract/earlyWarnings';
import type { Database } from '../db/client';

/**
 * Stored limits as they are read back: a row written by an older build with a field this one
 * no longer knows (or a value out of today's range) must not stop the warnings; it counts as
 * not set.
 */
export function storedLimits(raw: unknown): WarningLimits {
  const value = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
  if (value === null || typeof value !== 'object') return {};
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const one = warningLimitsSchema.safeParse({ [key]: v });
    if (one.success) Object.assign(out, one.data);
  }
  return out as WarningLimits;
}

export async function readBreedLimits(database: Database, breedId: number): Promise<WarningLimits> {
  const [row] = await database.query<{ limits: unknown }>(
    'select limits from breed_warning_limits where breed_id = $1',
    [breedId],
  );
  return storedLimits(row?.limits ?? {});
}

export async function readHouseLimits(database: Database, houseId: number): Promise<WarningLimits> {
  const [row] = await database.query<{ limits: unknown }>(
    'select limits from house_warning_limits where house_id = $1',
    [houseId],
  );
  return storedLimits(row?.limits ?? {});
}

export async function saveBreedLimits(database: Database, breedId: number, limits: WarningLimits) {
  await database.query(
    `insert into breed_warning_limits (breed_id, limits) values ($1, $2::jsonb)
     on conflict (breed_id) do update set limits = excluded.limits, updated_at = now()`,
    [breedId, JSON.stringify(limits)],
  );
}

export async function saveHouseLimits(database: Database, houseId: number, limits: WarningLimits) {
  await database.query(
    `insert into house_warning_limits (house_id, limits) values ($1, $2::jsonb)
     on conflict (house_id) do update set limits = excluded.limits, updated_at = now()`,
    [houseId, JSON.stringify(limits)],
  );
}

/**
 * The limits in force for each flock, by flock id, in one statement: its house's override,
 * else its breed's, else the defaults (field by field).
 */
export async function limitsOfFlocks(
  database: Database,
  flockIds: readonly number[],
): Promise<Map<number, ResolvedWarningLimits>> {
  const rows = await database.query<{ id: number; house: unknown; breed: unknown }>(
    `select f.id, hw.limits as house, bw.limits as breed from flocks f
     left join house_warning_limits hw on hw.house_id = f.house_id
     left join breed_warning_limits bw on bw.breed_id = f.breed_id
     where f.id = any($1::int[])`,
    [[...flockIds]],
  );
  return new Map(
    rows.map((r) => [
      Number(r.id),
      resolveWarningLimits(storedLimits(r.breed ?? {}), storedLimits(r.house ?? {})),
    ]),
  );
}
