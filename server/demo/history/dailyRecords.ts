import { and, eq, exists, gt, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { breedTargets, flocks as flockTable } from '../../db/schema';
import { addDays, standardAt, type TargetFacts } from '../../production/kpi';
import { BROILER, LAYER, type BreedStandard } from '../breedStandards';
import { withStory, type DemoStory } from '../stories';
import { insertDemoDays } from './history.sql';

/** A flock of the demo's past, as stored. */
export interface DemoFlock {
  id: number;
  placedOn: string;
  closedOn: string | null;
  ageAtPlacement: number;
  headCount: number;
  layer: boolean;
}

export interface DemoDay {
  flockId: number;
  day: string;
  deathsAm: number;
  deathsPm: number;
  cullsAm: number;
  cullsPm: number;
  feedKg: number;
  eggs: number | null;
  eggKg: number | null;
  bodyWeightG: number | null;
  uniformity: number | null;
}

const targetsOf = (standard: BreedStandard): TargetFacts[] =>
  standard.rows.map((r) => ({
    ageDay: r.ageDay,
    weight: r.weight,
    feedPerHead: r.feedPerHead,
    waterPerHead: r.waterPerHead,
    layingRate: r.layingRate ?? null,
    survivalRate: r.survivalRate,
  }));
const TARGETS = { broiler: targetsOf(BROILER), layer: targetsOf(LAYER) };

/** A small seeded generator (mulberry32): the same demo past on every start. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * What a farm's people would have entered for each day of a flock, from `fromDay` up to the day
 * before `today` (today's figures come in the evening): losses a little above the standard's in
 * the first week, feed and eggs near the breed standard, the birds weighed twice a week (layers
 * once), every figure with a little day-to-day spread.
 */
export function demoDays(flock: DemoFlock, fromDay: string, today: string): DemoDay[] {
  const targets = flock.layer ? TARGETS.layer : TARGETS.broiler;
  const next = random(flock.id * 7919 + flock.headCount);
  const spread = (width: number) => 1 + (next() * 2 - 1) * width;
  const last =
    flock.closedOn !== null && flock.closedOn < today ? flock.closedOn : addDays(today, -1);
  const out: DemoDay[] = [];
  let alive = flock.headCount;
  for (let day = flock.placedOn, i = 0; day <= last; day = addDays(day, 1), i += 1) {
    const ageDay = flock.ageAtPlacement + i;
    const standard = standardAt(targets, ageDay);
    // Daily loss rate: broilers lose more in their first week; layers a steady trickle.
    const rate = flock.layer ? 0.0002 : ageDay <= 7 ? 0.0015 : 0.0005;
    const deaths = Math.round(alive * rate * spread(0.5));
    const culls = Math.round(alive * rate * 0.2 * spread(0.8));
    const present = alive;
    alive = Math.max(0, alive - deaths - culls);
    if (day < fromDay) continue;
    const deathsAm = Math.round(deaths * 0.6);
    const cullsAm = Math.round(culls / 2);
    const feedKg = Math.round(((present * (standard.feedPerBirdG ?? 0)) / 1000) * spread(0.04));
    const layRate = standard.henDayPct;
    const eggs =
      flock.layer && layRate !== null ? Math.round(present * (layRate / 100) * spread(0.03)) : null;
    const weighed = flock.layer ? ageDay % 7 === 0 : ageDay % 7 === 0 || ageDay % 7 === 3;
    const weight =
      weighed && standard.bodyWeightG !== null ? standard.bodyWeightG * spread(0.03) : null;
    out.push({
      flockId: flock.id,
      day,
      deathsAm,
      deathsPm: deaths - deathsAm,
      cullsAm,
      cullsPm: culls - cullsAm,
      feedKg,
      eggs,
      // An egg of the laying season weighs about 62 g.
      eggKg: eggs === null ? null : Math.round(eggs * 0.062 * spread(0.02) * 10) / 10,
      bodyWeightG: weight === null ? null : Math.round(weight),
      uniformity: weight === null ? null : Math.round(82 + next() * 8),
    });
  }
  return out;
}

/**
 * The daily records of every demo flock's days inside the demo's past, in one insert: the
 * flocks page then shows real KPIs, comparisons and electricity per bird from the first start.
 */
export async function writeDemoDailyRecords(
  database: Database,
  houseIds: readonly number[],
  fromDay: string,
  today: string,
  /** The demo's story houses: their open flock's last day tells the story. */
  stories: ReadonlyMap<number, DemoStory> = new Map(),
): Promise<number> {
  // A flock is a layer flock when its breed's standard lays eggs.
  const layer = exists(
    database.db
      .select({ one: sql`1` })
      .from(breedTargets)
      .where(and(eq(breedTargets.breedId, flockTable.breedId), gt(breedTargets.layingRate, 0))),
  );
  const flocks = await database.db
    .select({
      id: flockTable.id,
      houseId: flockTable.houseId,
      placedOn: flockTable.placedOn,
      closedOn: flockTable.closedOn,
      ageAtPlacement: flockTable.ageAtPlacement,
      headCount: flockTable.headCount,
      layer: sql<boolean>`${layer}`,
    })
    .from(flockTable)
    .where(inArray(flockTable.houseId, [...houseIds]));
  const days = flocks.flatMap((f) => {
    const days = demoDays(f, fromDay, today);
    return f.closedOn === null ? withStory(days, stories.get(f.houseId)) : days;
  });
  if (days.length === 0) return 0;
  await insertDemoDays(database, days);
  return days.length;
}
