import type { Scope } from '../auth/scope';
import type { Database } from '../db/client';
import { addDays, standardAt, type TargetFacts } from '../production/kpi';
import { localHour } from '../production/power';
import { localDay } from '../production/records';
import { powerDay } from '../production/tariff';
import type { WallMortality, WallProduction } from '../../src/contract/wallProduction';
import {
  readFeedDays,
  readFlockGroups,
  readMeteredHours,
  readSurvivalTargets,
  readTariffsOf,
  type FlockGroup,
} from './wallProduction.sql';
import { sharedPerScope } from './sharedReading';

/**
 * Figures of a day's production change a few times an hour (a record saved, an hour metered):
 * every wall of one scope shares one reading of them for this long, so ten walls on one company
 * cost one set of statements, not ten.
 */
const SHARED_FOR_MS = 15_000;
const shared = sharedPerScope<WallProduction>(SHARED_FOR_MS);

/** The wall's production and power for `scope`, read at most once per SHARED_FOR_MS a scope. */
export function wallProductionOf(
  database: Database,
  scope: Scope,
  timeZone: string,
  now = new Date(),
): Promise<WallProduction> {
  return shared(scope, now, () => readWallProduction(database, scope, timeZone, now));
}

export async function readWallProduction(
  database: Database,
  scope: Scope,
  timeZone: string,
  now: Date,
): Promise<WallProduction> {
  const today = localDay(now, timeZone);
  const yesterday = addDays(today, -1);
  const dayBefore = addDays(today, -2);
  const hour = localHour(now, timeZone);
  const [groupsToday, groupsYesterday, feed, metered] = await Promise.all([
    readFlockGroups(database, scope, today),
    readFlockGroups(database, scope, yesterday),
    readFeedDays(database, scope, [yesterday, dayBefore]),
    // Two days back and more covers yesterday's start in every time zone; rows are kept by
    // their local day below.
    readMeteredHours(database, scope, new Date(now.getTime() - 50 * 3_600_000), now),
  ]);
  const breeds = new Set<number>();
  for (const g of [...groupsToday, ...groupsYesterday])
    if (g.breedId !== null) breeds.add(g.breedId);
  const survival = new Map<number, TargetFacts[]>();
  for (const t of await readSurvivalTargets(database, [...breeds])) {
    const list = survival.get(t.breedId) ?? [];
    list.push({ ...NO_TARGETS, ageDay: t.ageDay, survivalRate: t.survivalRate });
    survival.set(t.breedId, list);
  }
  const standardDaily = (breedId: number | null, age: number): number | null => {
    const targets = breedId === null ? undefined : survival.get(breedId);
    if (!targets) return null;
    const before = standardAt(targets, age - 1).livabilityPct;
    const after = standardAt(targets, age).livabilityPct;
    if (before === null || after === null || before <= 0) return null;
    return Math.max(0, (1 - after / before) * 100);
  };

  // Metered hours of today so far and of yesterday up to the same hour, per organisation.
  const water = { today: null as number | null, yesterday: null as number | null };
  const energy = { today: null as number | null, yesterday: null as number | null };
  const todayKwhByOrg = new Map<number, Array<number | null>>();
  const add = (a: number | null, b: number | null) => (b === null ? a : (a ?? 0) + b);
  for (const row of metered) {
    const at = new Date(row.hourMs);
    const day = localDay(at, timeZone);
    const h = localHour(at, timeZone);
    if (h > hour) continue;
    const which = day === today ? 'today' : day === yesterday ? 'yesterday' : null;
    if (!which) continue;
    water[which] = add(water[which], row.waterL);
    energy[which] = add(energy[which], row.kwh);
    if (which === 'today' && row.kwh !== null) {
      const hours = todayKwhByOrg.get(row.orgId) ?? Array.from({ length: 24 }, () => null);
      hours[h] = (hours[h] ?? 0) + row.kwh;
      todayKwhByOrg.set(row.orgId, hours);
    }
  }

  const feedOf = (day: string) => feed.get(day)?.feedKg ?? null;
  return {
    day: today,
    hour,
    mortality: {
      today: mortalityOf(today, groupsToday, standardDaily),
      yesterday: mortalityOf(yesterday, groupsYesterday, standardDaily),
    },
    feedKg: {
      yesterday: feedOf(yesterday),
      dayBefore: feedOf(dayBefore),
      houses: feed.get(yesterday)?.houses ?? 0,
    },
    waterL: water,
    energyKwh: energy,
    cost: await costOf(database, todayKwhByOrg),
  };
}

const NO_TARGETS: Omit<TargetFacts, 'ageDay'> = {
  weight: null,
  feedPerHead: null,
  waterPerHead: null,
  layingRate: null,
  survivalRate: null,
};

function mortalityOf(
  day: string,
  groups: readonly FlockGroup[],
  standardDaily: (breedId: number | null, age: number) => number | null,
): WallMortality {
  let flockHouses = 0;
  let enteredHouses = 0;
  let alive = 0;
  let losses = 0;
  let standardBirds = 0;
  let standardWeighted = 0;
  for (const g of groups) {
    flockHouses += g.houses;
    if (!g.entered) continue;
    enteredHouses += g.houses;
    alive += g.alive;
    losses += g.losses;
    const standard = standardDaily(g.breedId, g.ageDay);
    if (standard === null) continue;
    standardBirds += g.alive;
    standardWeighted += g.alive * standard;
  }
  return {
    day,
    losses,
    alive,
    pct: alive > 0 ? (losses / alive) * 100 : null,
    standardPct: standardBirds > 0 ? standardWeighted / standardBirds : null,
    flockHouses,
    enteredHouses,
  };
}

/**
 * Today's cost: each organisation's hours under its own tariff. Only a whole figure is given:
 * when an organisation that used electricity has no tariff, or two bill in different
 * currencies, there is no honest single amount and the wall shows the kWh alone.
 */
async function costOf(
  database: Database,
  kwhByOrg: ReadonlyMap<number, ReadonlyArray<number | null>>,
): Promise<WallProduction['cost']> {
  if (kwhByOrg.size === 0) return null;
  const tariffs = await readTariffsOf(database, [...kwhByOrg.keys()]);
  if (tariffs.length < kwhByOrg.size) return null;
  const currencies = new Set(tariffs.map((t) => t.tariff.currency));
  if (currencies.size !== 1) return null;
  let amount = 0;
  for (const { orgId, tariff } of tariffs)
    amount += powerDay(kwhByOrg.get(orgId)!, tariff).cost ?? 0;
  return { amount, currency: tariffs[0]!.tariff.currency };
}
