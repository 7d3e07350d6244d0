import type { DayRecord, KpiDay } from '../../src/contract/production';

/**
 * The flock KPIs, computed once here from the daily records (the console and the exports only
 * show them). Pure functions: the arithmetic is checked against hand-computed figures.
 */

export interface FlockFacts {
  placedOn: string;
  /** Age in days on the placement date. */
  ageAtPlacement: number;
  headCount: number;
  layer: boolean;
  /** The last day to compute: the closing day, or today for an open flock. */
  untilDay: string;
}

/** A day's record as the KPIs read it: the contract's record without what they do not use. */
export type DayFacts = Omit<DayRecord, 'flockId' | 'uniformity' | 'note'>;

/** The breed's target of one day of age (grams per bird per day, %, grams). */
export interface TargetFacts {
  ageDay: number;
  weight: number | null;
  feedPerHead: number | null;
  waterPerHead: number | null;
  layingRate: number | null;
  survivalRate: number | null;
}

/** Measured per day, outside the records: metered water (L) and electricity (kWh). */
export interface MeteredDay {
  waterL?: number | null;
  powerKwh?: number | null;
}

export interface FlockKpiResult {
  days: KpiDay[];
  toDate: {
    recordedDays: number;
    missingDays: number;
    alive: number;
    mortalityPct: number;
    feedKg: number;
    fcr: number | null;
    feedPerEggKg: number | null;
    feedPerDozenKg: number | null;
    epef: number | null;
    energyKwh: number | null;
  };
}

const DAY_MS = 86_400_000;

/** Days from `from` to `to` (ISO dates), whole days, calendar arithmetic in UTC. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** A flock's age in days on `day`. */
export function ageOn(flock: Pick<FlockFacts, 'placedOn' | 'ageAtPlacement'>, day: string): number {
  return flock.ageAtPlacement + daysBetween(flock.placedOn, day);
}

/** FCR: kg of feed eaten per kg of live weight standing in the house. */
export function feedConversion(feedKg: number, alive: number, bodyWeightG: number): number | null {
  const liveKg = (alive * bodyWeightG) / 1000;
  return liveKg > 0 ? feedKg / liveKg : null;
}

/**
 * Layers' feed conversion: kg of feed per kg of eggs (料蛋比) where the eggs were weighed, and
 * per dozen eggs where they were only counted. Null without eggs: a day without lay has no ratio.
 */
export function feedPerEggs(feedKg: number, eggKg: number | null, eggs: number | null) {
  return {
    perKg: eggKg !== null && eggKg > 0 ? feedKg / eggKg : null,
    perDozen: eggs !== null && eggs > 0 ? feedKg / (eggs / 12) : null,
  };
}

/** European Production Efficiency Factor: livability % × live weight kg ÷ (age × FCR) × 100. */
export function epef(livabilityPct: number, bodyWeightG: number, ageDay: number, fcr: number) {
  return ageDay > 0 && fcr > 0
    ? ((livabilityPct * (bodyWeightG / 1000)) / (ageDay * fcr)) * 100
    : null;
}

/** Hen-day laying rate: eggs of the day per hen in the house that day, in %. */
export function henDayRate(eggs: number, hens: number): number | null {
  return hens > 0 ? (eggs / hens) * 100 : null;
}

/** Mortality (deaths and culls) to date, in % of the birds placed. */
export function mortality(losses: number, headCount: number): number {
  return headCount > 0 ? (losses / headCount) * 100 : 0;
}

/** The standard between two listed ages, linearly (the breed tables list some ages only). */
export function standardAt(targets: readonly TargetFacts[], ageDay: number): KpiDay['standard'] {
  const pick = (key: Exclude<keyof TargetFacts, 'ageDay'>): number | null => {
    let below: TargetFacts | null = null;
    let above: TargetFacts | null = null;
    for (const t of targets) {
      if (t[key] === null) continue;
      if (t.ageDay <= ageDay && (!below || t.ageDay > below.ageDay)) below = t;
      if (t.ageDay >= ageDay && (!above || t.ageDay < above.ageDay)) above = t;
    }
    if (!below || !above) return null;
    const lo = below[key] as number;
    const hi = above[key] as number;
    if (above.ageDay === below.ageDay) return lo;
    return lo + ((hi - lo) * (ageDay - below.ageDay)) / (above.ageDay - below.ageDay);
  };
  return {
    bodyWeightG: pick('weight'),
    feedPerBirdG: pick('feedPerHead'),
    waterPerBirdG: pick('waterPerHead'),
    henDayPct: pick('layingRate'),
    livabilityPct: pick('survivalRate'),
  };
}

/**
 * Every day of the flock from placement to `untilDay`, by day of age. A day without a record is
 * missing: its figures are null (never zero) and the running totals skip it.
 */
export function flockKpis(
  flock: FlockFacts,
  records: readonly DayFacts[],
  targets: readonly TargetFacts[],
  metered: ReadonlyMap<string, MeteredDay> = new Map(),
): FlockKpiResult {
  const byDay = new Map(records.map((r) => [r.day, r]));
  const span = Math.max(0, daysBetween(flock.placedOn, flock.untilDay) + 1);
  const days: KpiDay[] = [];
  let alive = flock.headCount;
  let losses = 0;
  let feedKg = 0;
  let energyKwh: number | null = null;
  let recordedDays = 0;
  let lastWeight: { ageDay: number; grams: number } | null = null;
  let lastFcr: number | null = null;
  let lastEpef: number | null = null;
  // Layers: feed and eggs of the laying days only, so the rearing weeks' feed (no eggs) does not
  // count against the eggs; weighed and counted days are summed apart.
  const laying = { feedKg: 0, eggKg: 0, feedCounted: 0, eggs: 0 };

  for (let i = 0; i < span; i++) {
    const day = addDays(flock.placedOn, i);
    const ageDay = flock.ageAtPlacement + i;
    const rec = byDay.get(day);
    const meter = metered.get(day);
    const standard = standardAt(targets, ageDay);
    const powerKwh = meter?.powerKwh ?? null;
    if (powerKwh !== null) energyKwh = (energyKwh ?? 0) + powerKwh;
    if (!rec) {
      days.push({ ...EMPTY_DAY, day, ageDay, recorded: false, standard });
      continue;
    }
    recordedDays++;
    // The birds present at the start of the day ate its feed and laid its eggs.
    const present = alive;
    const dayLosses = rec.deathsAm + rec.deathsPm + rec.cullsAm + rec.cullsPm;
    alive = Math.max(0, alive - dayLosses);
    losses += dayLosses;
    feedKg += rec.feedKg;
    const mortalityPct = mortality(losses, flock.headCount);
    const livabilityPct = 100 - mortalityPct;
    const water = rec.waterL ?? meter?.waterL ?? null;

    let dailyGainG: number | null = null;
    let fcr: number | null = null;
    let dayEpef: number | null = null;
    if (rec.bodyWeightG !== null) {
      if (lastWeight && ageDay > lastWeight.ageDay)
        dailyGainG = (rec.bodyWeightG - lastWeight.grams) / (ageDay - lastWeight.ageDay);
      lastWeight = { ageDay, grams: rec.bodyWeightG };
      // A hen's weight is not what her feed makes: layers get feed per egg below instead.
      if (!flock.layer) fcr = feedConversion(feedKg, alive, rec.bodyWeightG);
      if (fcr !== null) {
        lastFcr = fcr;
        dayEpef = epef(livabilityPct, rec.bodyWeightG, ageDay, fcr);
        lastEpef = dayEpef;
      }
    }
    const eggKg = flock.layer ? rec.eggKg : null;
    const eggs = flock.layer ? rec.eggs : null;
    const perEggs = feedPerEggs(rec.feedKg, eggKg, eggs);
    if (perEggs.perKg !== null) {
      laying.feedKg += rec.feedKg;
      laying.eggKg += eggKg!;
    }
    if (perEggs.perDozen !== null) {
      laying.feedCounted += rec.feedKg;
      laying.eggs += eggs!;
    }

    days.push({
      day,
      ageDay,
      recorded: true,
      alive,
      mortalityPct,
      livabilityPct,
      bodyWeightG: rec.bodyWeightG,
      dailyGainG,
      feedPerBirdG: present > 0 ? (rec.feedKg * 1000) / present : null,
      fcr,
      feedPerEggKg: perEggs.perKg,
      feedPerDozenKg: perEggs.perDozen,
      eggKg,
      waterL: water,
      waterFeedRatio: water !== null && rec.feedKg > 0 ? water / rec.feedKg : null,
      epef: dayEpef,
      henDayPct: flock.layer && rec.eggs !== null ? henDayRate(rec.eggs, present) : null,
      eggMassG:
        flock.layer && rec.eggKg !== null && present > 0 ? (rec.eggKg * 1000) / present : null,
      energyPerBirdKwh: powerKwh !== null && present > 0 ? powerKwh / present : null,
      standard,
    });
  }

  return {
    days,
    toDate: {
      recordedDays,
      missingDays: span - recordedDays,
      alive,
      mortalityPct: mortality(losses, flock.headCount),
      feedKg,
      fcr: lastFcr,
      feedPerEggKg: feedPerEggs(laying.feedKg, laying.eggKg, null).perKg,
      feedPerDozenKg: feedPerEggs(laying.feedCounted, null, laying.eggs).perDozen,
      epef: lastEpef,
      energyKwh,
    },
  };
}

const EMPTY_DAY = {
  alive: null,
  mortalityPct: null,
  livabilityPct: null,
  bodyWeightG: null,
  dailyGainG: null,
  feedPerBirdG: null,
  fcr: null,
  feedPerEggKg: null,
  feedPerDozenKg: null,
  eggKg: null,
  waterL: null,
  waterFeedRatio: null,
  epef: null,
  henDayPct: null,
  eggMassG: null,
  energyPerBirdKwh: null,
} as const;
