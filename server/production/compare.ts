import type { FlockSummary } from '../../src/contract/production';
import {
  COMPARE_MAX_OTHERS,
  COMPARE_SERIES,
  type CompareLine,
  type CompareWith,
  type FlockCompare,
} from '../../src/contract/productionCompare';
import type { Scope } from '../auth/scope';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { houses } from '../db/schema';
import { loadFlockKpis } from './flockKpis';
import { readFlocks } from './records';

const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

/**
 * The flocks a flock is compared with, inside the caller's scope: the house's flocks placed
 * before it, newest first; or, of each other house of its farm holding the same kind of bird
 * (layers with layers), the flock placed nearest in time to it — the same season, the same feed.
 */
async function othersOf(
  database: Database,
  scope: Scope,
  flock: FlockSummary,
  compareWith: CompareWith,
): Promise<FlockSummary[]> {
  if (compareWith === 'house') {
    const flocks = await readFlocks(database, scope, { houseId: flock.houseId });
    return flocks
      .filter((f) => f.id !== flock.id && f.placedOn < flock.placedOn)
      .slice(0, COMPARE_MAX_OTHERS);
  }
  const [house] = await database.db
    .select({ farmId: houses.farmId })
    .from(houses)
    .where(eq(houses.id, flock.houseId));
  if (!house) return [];
  const flocks = await readFlocks(database, scope, { farmId: house.farmId });
  const placed = dayNumber(flock.placedOn);
  const distance = (f: FlockSummary) => Math.abs(dayNumber(f.placedOn) - placed);
  const nearest = new Map<number, FlockSummary>();
  for (const f of flocks) {
    if (f.houseId === flock.houseId || f.layer !== flock.layer) continue;
    const known = nearest.get(f.houseId);
    if (!known || distance(f) < distance(known)) nearest.set(f.houseId, f);
  }
  return [...nearest.values()]
    .sort((a, b) => distance(a) - distance(b) || a.houseName.localeCompare(b.houseName))
    .slice(0, COMPARE_MAX_OTHERS);
}

/** One flock and the flocks it is compared with, each by day of age, with its breed standard. */
export async function compareFlocks(
  database: Database,
  scope: Scope,
  flock: FlockSummary,
  compareWith: CompareWith,
  today: string,
  timeZone: string,
): Promise<FlockCompare> {
  const others = await othersOf(database, scope, flock, compareWith);
  const all = await loadFlockKpis(database, [flock, ...others], today, timeZone);
  const lines = all.map((k): CompareLine => ({
    flock: k.flock,
    ages: k.days.map((d) => d.ageDay),
    values: Object.fromEntries(
      COMPARE_SERIES.map((s) => [s, k.days.map((d) => (d.recorded ? d[s] : null))]),
    ) as CompareLine['values'],
  }));
  const own = all[0]!.days;
  const standard: FlockCompare['standard'] = {
    ages: own.map((d) => d.ageDay),
    values: {
      bodyWeightG: own.map((d) => d.standard.bodyWeightG),
      feedPerBirdG: own.map((d) => d.standard.feedPerBirdG),
      livabilityPct: own.map((d) => d.standard.livabilityPct),
      henDayPct: own.map((d) => d.standard.henDayPct),
    },
  };
  return { lines, standard };
}
