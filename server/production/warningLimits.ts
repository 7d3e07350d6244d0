import {
  resolveWarningLimits,
  warningLimitsSchema,
  type ResolvedWarningLimits,
  type WarningLimits,
} from '../../src/contract/earlyWarnings';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { breedWarningLimits, houseWarningLimits } from '../db/productionSchema';
import { flocks } from '../db/schema';

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
  const [row] = await database.db
    .select({ limits: breedWarningLimits.limits })
    .from(breedWarningLimits)
    .where(eq(breedWarningLimits.breedId, breedId));
  return storedLimits(row?.limits ?? {});
}

export async function readHouseLimits(database: Database, houseId: number): Promise<WarningLimits> {
  const [row] = await database.db
    .select({ limits: houseWarningLimits.limits })
    .from(houseWarningLimits)
    .where(eq(houseWarningLimits.houseId, houseId));
  return storedLimits(row?.limits ?? {});
}

export async function saveBreedLimits(database: Database, breedId: number, limits: WarningLimits) {
  await database.db
    .insert(breedWarningLimits)
    .values({ breedId, limits })
    .onConflictDoUpdate({
      target: breedWarningLimits.breedId,
      set: { limits: sql`excluded.limits`, updatedAt: sql`now()` },
    });
}

export async function saveHouseLimits(database: Database, houseId: number, limits: WarningLimits) {
  await database.db
    .insert(houseWarningLimits)
    .values({ houseId, limits })
    .onConflictDoUpdate({
      target: houseWarningLimits.houseId,
      set: { limits: sql`excluded.limits`, updatedAt: sql`now()` },
    });
}

/**
 * The limits in force for each flock, by flock id, in one statement: its house's override,
 * else its breed's, else the defaults (field by field).
 */
export async function limitsOfFlocks(
  database: Database,
  flockIds: readonly number[],
): Promise<Map<number, ResolvedWarningLimits>> {
  if (flockIds.length === 0) return new Map();
  const rows = await database.db
    .select({ id: flocks.id, house: houseWarningLimits.limits, breed: breedWarningLimits.limits })
    .from(flocks)
    .leftJoin(houseWarningLimits, eq(houseWarningLimits.houseId, flocks.houseId))
    .leftJoin(breedWarningLimits, eq(breedWarningLimits.breedId, flocks.breedId))
    .where(inArray(flocks.id, [...flockIds]));
  return new Map(
    rows.map((r) => [
      r.id,
      resolveWarningLimits(storedLimits(r.breed ?? {}), storedLimits(r.house ?? {})),
    ]),
  );
}
