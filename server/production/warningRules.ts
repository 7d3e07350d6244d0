import type { AlarmSeverity } from '../../src/contract/alarms';
import {
  DEFAULT_WARNING_LIMITS,
  EARLY_WARNINGS,
  type EarlyWarning,
  type ResolvedWarningLimits,
} from '../../src/contract/earlyWarnings';
import type { KpiDay } from '../../src/contract/production';
import type { BinEstimate } from './feedBin';

/**
 * Early warnings from a flock's days, pure: the KPI days and which warnings are open in →
 * the conditions the alarm engine's lifecycle turns into raise and clear steps. Each warning
 * clears only once well back inside its limit (hysteresis), so a value hovering at the limit
 * raises it once.
 */

export type EarlyWarningCause = EarlyWarning;

export const EARLY_WARNING_SEVERITY = {
  waterDrop: 'major',
  feedOffStandard: 'minor',
  weightGainSlow: 'minor',
  // An empty bin stops the feed lines within the day: someone must order feed now.
  feedBinLow: 'major',
} as const satisfies Record<EarlyWarningCause, AlarmSeverity>;

/**
 * Where each warning clears once raised, from the limit that raised it: far enough inside that a
 * value hovering at the limit does not flap (25 % → 20 %, 15 % → 10 %, half the gain → 60 %).
 */
export const clearLimitOf = {
  waterDropPct: (limit: number) => limit * 0.8,
  feedOffPct: (limit: number) => (limit * 2) / 3,
  gainRatioPct: (limit: number) => Math.min(limit + 10, 100),
  /** A refill lifts the bin far over this at once; a slower eater alone does not flap it. */
  feedBinHours: (limit: number) => limit * 1.5,
};

export interface WarningCondition {
  cause: EarlyWarningCause;
  active: boolean;
  /** The measured figure and its limit, as the alarm shows them. */
  value: number;
  limit: number;
  /** Numbers only, so it reads the same in every language: `1000 → 700 L`. */
  text: string;
}

const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;

/** The conditions to evaluate now; a warning without the data to judge it is left as it is. */
export function earlyWarningConditions(
  days: readonly KpiDay[],
  open: ReadonlySet<EarlyWarningCause>,
  limits: ResolvedWarningLimits = DEFAULT_WARNING_LIMITS,
  /** The feed bin's estimate, where a bin level is measured. */
  bin: BinEstimate | null = null,
): WarningCondition[] {
  const out: WarningCondition[] = [];
  // A warning switched off judges nothing, but one still open from before is cleared.
  for (const cause of EARLY_WARNINGS)
    if (!limits[cause] && open.has(cause))
      out.push({ cause, active: false, value: 0, limit: 0, text: '' });
  const recorded = days.filter((d) => d.recorded);

  const lastWater = [...recorded].reverse().find((d) => d.waterL !== null);
  const before = lastWater && days.find((d) => d.ageDay === lastWater.ageDay - 1);
  if (limits.waterDrop && lastWater && before?.waterL && lastWater.waterL !== null) {
    const drop = ((before.waterL - lastWater.waterL) / before.waterL) * 100;
    const raise = limits.waterDropPct;
    const limit = open.has('waterDrop') ? clearLimitOf.waterDropPct(raise) : raise;
    out.push({
      cause: 'waterDrop',
      active: drop >= limit,
      value: round(drop),
      limit: raise,
      // The limit in force is part of the text: a house's override shows which one judged.
      text: `${round(before.waterL)} → ${round(lastWater.waterL)} L (−${round(drop)} %, ≥ ${round(raise)} %)`,
    });
  }

  const lastFeed = [...recorded]
    .reverse()
    .find((d) => d.feedPerBirdG !== null && (d.standard.feedPerBirdG ?? 0) > 0);
  if (
    limits.feedOffStandard &&
    lastFeed &&
    lastFeed.feedPerBirdG !== null &&
    lastFeed.standard.feedPerBirdG
  ) {
    const standard = lastFeed.standard.feedPerBirdG;
    const off = ((lastFeed.feedPerBirdG - standard) / standard) * 100;
    const raise = limits.feedOffPct;
    const limit = open.has('feedOffStandard') ? clearLimitOf.feedOffPct(raise) : raise;
    out.push({
      cause: 'feedOffStandard',
      active: Math.abs(off) >= limit,
      value: round(off),
      limit: raise,
      text: `${round(lastFeed.feedPerBirdG)} / ${round(standard)} g (${off >= 0 ? '+' : '−'}${round(Math.abs(off))} %, ≥ ±${round(raise)} %)`,
    });
  }

  const weighed = recorded.filter((d) => d.bodyWeightG !== null);
  const last = weighed.at(-1);
  const weightAt = (age: number) => weighed.find((d) => d.ageDay === age)?.bodyWeightG ?? null;
  if (limits.weightGainSlow && last && last.bodyWeightG !== null) {
    const mid = weightAt(last.ageDay - 2);
    const first = weightAt(last.ageDay - 4);
    if (mid !== null && first !== null && mid > first) {
      const recent = last.bodyWeightG - mid;
      const previous = mid - first;
      const ratio = (recent / previous) * 100;
      const raise = limits.gainRatioPct;
      const limit = open.has('weightGainSlow') ? clearLimitOf.gainRatioPct(raise) : raise;
      out.push({
        cause: 'weightGainSlow',
        active: ratio <= limit,
        value: round(ratio),
        limit: raise,
        text: `+${round(recent)} g / +${round(previous)} g (48 h, ${round(ratio)} %, ≤ ${round(raise)} %)`,
      });
    }
  }
  if (limits.feedBinLow && bin) {
    const raise = limits.feedBinHours;
    const limit = open.has('feedBinLow') ? clearLimitOf.feedBinHours(raise) : raise;
    out.push({
      cause: 'feedBinLow',
      active: bin.hoursLeft < limit,
      value: round(bin.hoursLeft),
      limit: raise,
      text: `${round(bin.levelKg, 0)} kg, ≈ ${round(bin.hoursLeft)} h (< ${round(raise)} h)`,
    });
  }
  return out;
}
