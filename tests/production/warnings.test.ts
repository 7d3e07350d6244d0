import { describe, expect, it } from 'vitest';
import type { KpiDay } from '../../src/contract/production';
import { earlyWarningConditions } from '../../server/production/warningRules';

const standard = {
  bodyWeightG: null,
  feedPerBirdG: 100,
  waterPerBirdG: null,
  henDayPct: null,
  livabilityPct: null,
};
const day = (ageDay: number, values: Partial<KpiDay>): KpiDay => ({
  day: `2026-03-${String(ageDay).padStart(2, '0')}`,
  ageDay,
  recorded: true,
  alive: 1000,
  mortalityPct: 0,
  livabilityPct: 100,
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
  standard,
  ...values,
});
const cause = (list: ReturnType<typeof earlyWarningConditions>, c: string) =>
  list.find((w) => w.cause === c);

describe('early warnings from the flock days', () => {
  it('water down 25 % day over day raises; it clears only under 20 % (hysteresis)', () => {
    const days = [day(10, { waterL: 1000 }), day(11, { waterL: 770 })];
    expect(cause(earlyWarningConditions(days, new Set()), 'waterDrop')).toMatchObject({
      active: false,
      value: 23,
    });
    const drop = [day(10, { waterL: 1000 }), day(11, { waterL: 700 })];
    expect(cause(earlyWarningConditions(drop, new Set()), 'waterDrop')).toMatchObject({
      active: true,
      value: 30,
      limit: 25,
      text: '1000 → 700 L (−30 %, ≥ 25 %)',
    });
    // Open, 23 % down is still too much; 15 % clears.
    expect(cause(earlyWarningConditions(days, new Set(['waterDrop'])), 'waterDrop')?.active).toBe(
      true,
    );
    const better = [day(10, { waterL: 1000 }), day(11, { waterL: 850 })];
    expect(cause(earlyWarningConditions(better, new Set(['waterDrop'])), 'waterDrop')?.active).toBe(
      false,
    );
  });

  it('a missing day between two waters judges nothing', () => {
    const days = [
      day(10, { waterL: 1000 }),
      day(11, { recorded: false }),
      day(12, { waterL: 500 }),
    ];
    expect(cause(earlyWarningConditions(days, new Set()), 'waterDrop')).toBeUndefined();
  });

  it('feed per bird off the breed standard by 15 % raises', () => {
    expect(
      cause(earlyWarningConditions([day(5, { feedPerBirdG: 84 })], new Set()), 'feedOffStandard'),
    ).toMatchObject({ active: true, value: -16 });
    expect(
      cause(earlyWarningConditions([day(5, { feedPerBirdG: 110 })], new Set()), 'feedOffStandard')
        ?.active,
    ).toBe(false);
  });

  it('48-hour weight gain at most half the 48 hours before raises', () => {
    const days = [
      day(10, { bodyWeightG: 300 }),
      day(12, { bodyWeightG: 400 }),
      day(14, { bodyWeightG: 450 }),
    ];
    expect(cause(earlyWarningConditions(days, new Set()), 'weightGainSlow')).toMatchObject({
      active: true,
      value: 50,
    });
    const fine = [
      day(10, { bodyWeightG: 300 }),
      day(12, { bodyWeightG: 400 }),
      day(14, { bodyWeightG: 490 }),
    ];
    expect(cause(earlyWarningConditions(fine, new Set()), 'weightGainSlow')?.active).toBe(false);
  });
});
