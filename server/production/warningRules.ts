import type { AlarmSeverity } from '../../src/contract/alarms';
import type { KpiDay } from '../../src/contract/production';

/**
 * Early warnings from a flock's days, pure: the KPI days and which warnings are open in →
 * the conditions the alarm engine's lifecycle turns into raise and clear steps. Each warning
 * clears only once well back inside its limit (hysteresis), so a value hovering at the limit
 * raises it once.
 */

export type EarlyWarningCause = 'waterDrop' | 'feedOffStandard' | 'weightGainSlow';

export const EARLY_WARNING_SEVERITY = {
  waterDrop: 'major',
  feedOffStandard: 'minor',
  weightGainSlow: 'minor',
} as const satisfies Record<EarlyWarningCause, AlarmSeverity>;

export const EARLY_WARNING_LIMITS = {
  /** Water down this much (%) from one day to the next raises; under the clear limit clears. */
  waterDropPct: 25,
  waterDropClearPct: 20,
  /** Feed per bird this far (%) from the breed's standard raises. */
  feedOffPct: 15,
  feedOffClearPct: 10,
  /** The last 48 hours' gain at most this share of the 48 hours before raises. */
  gainRatio: 0.5,
  gainClearRatio: 0.6,
} as const;

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
  limits = EARLY_WARNING_LIMITS,
): WarningCondition[] {
  const out: WarningCondition[] = [];
  const recorded = days.filter((d) => d.recorded);

  const lastWater = [...recorded].reverse().find((d) => d.waterL !== null);
  const before = lastWater && days.find((d) => d.ageDay === lastWater.ageDay - 1);
  if (lastWater && before?.waterL && lastWater.waterL !== null) {
    const drop = ((before.waterL - lastWater.waterL) / before.waterL) * 100;
    const limit = open.has('waterDrop') ? limits.waterDropClearPct : limits.waterDropPct;
    out.push({
      cause: 'waterDrop',
      active: drop >= limit,
      value: round(drop),
      limit: limits.waterDropPct,
      text: `${round(before.waterL)} → ${round(lastWater.waterL)} L (−${round(drop)} %)`,
    });
  }

  const lastFeed = [...recorded]
    .reverse()
    .find((d) => d.feedPerBirdG !== null && (d.standard.feedPerBirdG ?? 0) > 0);
  if (lastFeed && lastFeed.feedPerBirdG !== null && lastFeed.standard.feedPerBirdG) {
    const standard = lastFeed.standard.feedPerBirdG;
    const off = ((lastFeed.feedPerBirdG - standard) / standard) * 100;
    const limit = open.has('feedOffStandard') ? limits.feedOffClearPct : limits.feedOffPct;
    out.push({
      cause: 'feedOffStandard',
      active: Math.abs(off) >= limit,
      value: round(off),
      limit: limits.feedOffPct,
      text: `${round(lastFeed.feedPerBirdG)} / ${round(standard)} g (${off >= 0 ? '+' : '−'}${round(Math.abs(off))} %)`,
    });
  }

  const weighed = recorded.filter((d) => d.bodyWeightG !== null);
  const last = weighed.at(-1);
  const weightAt = (age: number) => weighed.find((d) => d.ageDay === age)?.bodyWeightG ?? null;
  if (last && last.bodyWeightG !== null) {
    const mid = weightAt(last.ageDay - 2);
    const first = weightAt(last.ageDay - 4);
    if (mid !== null && first !== null && mid > first) {
      const recent = last.bodyWeightG - mid;
      const previous = mid - first;
      const ratio = recent / previous;
      const limit = open.has('weightGainSlow') ? limits.gainClearRatio : limits.gainRatio;
      out.push({
        cause: 'weightGainSlow',
        active: ratio <= limit,
        value: round(ratio * 100),
        limit: limits.gainRatio * 100,
        text: `+${round(recent)} g / +${round(previous)} g (48 h)`,
      });
    }
  }
  return out;
}
