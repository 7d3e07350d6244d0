import type { EarlyWarning } from '../../src/contract/earlyWarnings';
import { addDays } from '../production/kpi';
import type { DemoDay } from './history/dailyRecords';

/**
 * The demo's stories: the few houses whose past makes an early warning true, so a fresh demo
 * shows each warning on real-looking data instead of flocks that always follow their standard.
 * Each is a believable event, written into the data the warning reads (never into the alarm):
 * - waterDrop: a blocked water line yesterday, the house drank about 40 % less;
 * - feedOffStandard: a feed line stopped for hours yesterday, about 22 % under the standard;
 * - weightGainSlow: the last 48 hours' gain about a third of the 48 hours before;
 * - feedBinLow: the bin's delivery is late, under a day of feed left at the start (the simulator's
 *   LATE_DELIVERY_HOURS, at the flock's daily feed); its flock is FEED_STORY_AGE_DAYS old.
 */
export type DemoStory = EarlyWarning;

/** The share of its usual water the waterDrop house drank on the day before the demo starts. */
export const STORY_WATER_FACTOR = 0.6;
const STORY_FEED_FACTOR = 0.78;
/** The last gain as a share of the one before: well under the default 50 % limit. */
const STORY_GAIN_SHARE = 0.35;
/**
 * The feed story's flock is this old (days) at the demo's start: three-week broilers eat over
 * 100 kg an hour, so a bin's fall is plain within the first hours and the standard's feed is
 * real (a flock placed today eats a few grams a bird, and its bin would last for days).
 */
export const FEED_STORY_AGE_DAYS = 21;
/** A story house's flock is at least this old (days) yesterday, so it has been weighed before. */
const MIN_AGE_DAYS = 12;

export interface StoryCandidate {
  breed: 'broiler' | 'layer';
  farmName: string;
  placedOn: string;
  ageAtPlacement: number;
  feedBin?: boolean;
  story?: DemoStory;
}

/**
 * Gives the stories to houses, in seeding order (the same houses on every new demo): the feed
 * bin story to the first house with a bin, the others each to an old enough broiler house of a
 * farm that has no story yet, so the warnings are spread over the map.
 */
export function assignDemoStories(houses: StoryCandidate[], today: string): void {
  const farmsWithStory = new Set<string>();
  const bin = houses.find((h) => h.feedBin);
  if (bin) {
    bin.story = 'feedBinLow';
    farmsWithStory.add(bin.farmName);
  }
  const yesterday = addDays(today, -1);
  const pending: DemoStory[] = ['waterDrop', 'feedOffStandard', 'weightGainSlow'];
  for (const house of houses) {
    if (pending.length === 0) break;
    if (house.breed !== 'broiler' || house.feedBin || farmsWithStory.has(house.farmName)) continue;
    if (ageOn(house, yesterday) < MIN_AGE_DAYS) continue;
    house.story = pending.shift()!;
    farmsWithStory.add(house.farmName);
  }
}

const ageOn = (house: Pick<StoryCandidate, 'placedOn' | 'ageAtPlacement'>, day: string) =>
  house.ageAtPlacement + (Date.parse(day) - Date.parse(house.placedOn)) / 86_400_000;

/**
 * A story flock's recorded days as its people entered them, the story's day being the last
 * one (yesterday). Other days are untouched, so every other figure stays the same.
 */
export function withStory(days: DemoDay[], story: DemoStory | undefined): DemoDay[] {
  const last = days.at(-1);
  if (!last || (story !== 'feedOffStandard' && story !== 'weightGainSlow')) return days;
  if (story === 'feedOffStandard')
    return days.map((d) =>
      d === last ? { ...d, feedKg: Math.round(d.feedKg * STORY_FEED_FACTOR) } : d,
    );
  // Weighed 4 and 2 days ago at the weights the flock had, then yesterday: gaining slowly.
  const at = (offset: number) => days.find((d) => d.day === addDays(last.day, -offset));
  const first = at(4);
  const mid = at(2);
  if (!first || !mid) return days;
  const weightOf = (d: DemoDay) => d.bodyWeightG ?? interpolatedWeight(days, d.day);
  const w4 = weightOf(first);
  const w2 = weightOf(mid);
  if (w4 === null || w2 === null || w2 <= w4) return days;
  const weights = new Map<string, number | null>([
    [first.day, w4],
    [addDays(last.day, -3), null],
    [mid.day, w2],
    [addDays(last.day, -1), null],
    [last.day, Math.round(w2 + (w2 - w4) * STORY_GAIN_SHARE)],
  ]);
  return days.map((d) => {
    if (!weights.has(d.day)) return d;
    const bodyWeightG = weights.get(d.day)!;
    return {
      ...d,
      bodyWeightG,
      uniformity: bodyWeightG === null ? null : (d.uniformity ?? 84),
    };
  });
}

/** A weight for a day between two weighings, straight between them. */
function interpolatedWeight(days: readonly DemoDay[], day: string): number | null {
  const weighed = days.filter((d) => d.bodyWeightG !== null);
  const before = weighed.filter((d) => d.day <= day).at(-1);
  const after = weighed.find((d) => d.day >= day);
  if (!before || !after) return before?.bodyWeightG ?? after?.bodyWeightG ?? null;
  if (before.day === after.day) return before.bodyWeightG;
  const span = Date.parse(after.day) - Date.parse(before.day);
  const share = (Date.parse(day) - Date.parse(before.day)) / span;
  return Math.round(before.bodyWeightG! + (after.bodyWeightG! - before.bodyWeightG!) * share);
}
