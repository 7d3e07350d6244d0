import { describe, expect, it } from 'vitest';
import { feedMeasureOf } from '../../src/contract/production';
import {
  epef,
  feedConversion,
  flockKpis,
  henDayRate,
  mortality,
  standardAt,
  type DayFacts,
} from '../../server/production/kpi';

const day = (d: string, values: Partial<DayFacts>): DayFacts => ({
  day: d,
  deathsAm: 0,
  deathsPm: 0,
  cullsAm: 0,
  cullsPm: 0,
  feedKg: 0,
  waterL: null,
  eggs: null,
  eggKg: null,
  bodyWeightG: null,
  ...values,
});

describe('flock KPI arithmetic, against figures worked out by hand', () => {
  it('the formulas: FCR, EPEF, hen-day rate, mortality', () => {
    // 50 kg of feed for 990 birds of 100 g = 99 kg standing: 50 / 99.
    expect(feedConversion(50, 990, 100)).toBeCloseTo(0.505051, 6);
    // 99 % × 0.1 kg ÷ (2 days × 50/99) × 100 = 9.9 × 99 / 100 × 100 = 980.1.
    expect(epef(99, 100, 2, 50 / 99)).toBeCloseTo(980.1, 6);
    // Textbook broiler: 96 % livability, 2.5 kg at 40 days, FCR 1.6 → 96 × 2.5 / 64 × 100 = 375.
    expect(epef(96, 2500, 40, 1.6)).toBeCloseTo(375, 9);
    expect(henDayRate(1782, 1980)).toBeCloseTo(90, 9);
    expect(mortality(10, 1000)).toBeCloseTo(1, 9);
    expect(feedConversion(10, 0, 100)).toBeNull();
  });

  it('a broiler flock with a missing day: the day is missing, not zero, and the totals skip it', () => {
    const result = flockKpis(
      {
        placedOn: '2026-03-01',
        ageAtPlacement: 0,
        headCount: 1000,
        layer: false,
        untilDay: '2026-03-04',
      },
      [
        day('2026-03-01', { deathsAm: 3, deathsPm: 2, cullsAm: 1, feedKg: 20 }),
        // 2026-03-02 was never entered.
        day('2026-03-03', {
          deathsAm: 2,
          deathsPm: 2,
          feedKg: 30,
          waterL: 60,
          bodyWeightG: 100,
        }),
        day('2026-03-04', { feedKg: 40, bodyWeightG: 130 }),
      ],
      [],
      new Map([['2026-03-04', { powerKwh: 99 }]]),
    );
    const [d0, d1, d2, d3] = result.days;
    expect(result.days).toHaveLength(4);
    // Day 0: 6 lost of 1,000 → 994 alive, 0.6 %; 20 kg for 1,000 birds = 20 g each.
    expect(d0).toMatchObject({ ageDay: 0, recorded: true, alive: 994, feedPerBirdG: 20 });
    expect(d0!.mortalityPct).toBeCloseTo(0.6, 9);
    // Day 1 is missing: every figure null, none of them zero.
    expect(d1).toMatchObject({
      ageDay: 1,
      recorded: false,
      alive: null,
      mortalityPct: null,
      feedPerBirdG: null,
      fcr: null,
    });
    // Day 2: 4 more lost → 990, 1.0 %, livability 99 %; 30 kg for the 994 of the morning.
    expect(d2).toMatchObject({ alive: 990, bodyWeightG: 100, dailyGainG: null, waterFeedRatio: 2 });
    expect(d2!.mortalityPct).toBeCloseTo(1, 9);
    expect(d2!.livabilityPct).toBeCloseTo(99, 9);
    expect(d2!.feedPerBirdG).toBeCloseTo(30_000 / 994, 9);
    expect(d2!.fcr).toBeCloseTo(50 / 99, 9);
    expect(d2!.epef).toBeCloseTo(980.1, 6);
    // Day 3: +30 g in one day; 90 kg ÷ (990 × 0.13 kg = 128.7) = 0.699301;
    // EPEF 99 × 0.13 ÷ (3 × 0.699301) × 100 = 613.47.
    expect(d3!.dailyGainG).toBeCloseTo(30, 9);
    expect(d3!.fcr).toBeCloseTo(0.699301, 6);
    expect(d3!.epef).toBeCloseTo(613.47, 2);
    // 99 kWh for 990 birds: 0.1 kWh each.
    expect(d3!.energyPerBirdKwh).toBeCloseTo(0.1, 9);
    expect(result.toDate).toMatchObject({
      recordedDays: 3,
      missingDays: 1,
      alive: 990,
      feedKg: 90,
      energyKwh: 99,
    });
    expect(result.toDate.mortalityPct).toBeCloseTo(1, 9);
    expect(result.toDate.fcr).toBeCloseTo(0.699301, 6);
  });

  it('a layer flock: hen-day rate and egg mass count the hens of the morning', () => {
    const result = flockKpis(
      {
        placedOn: '2026-05-01',
        ageAtPlacement: 140,
        headCount: 2000,
        layer: true,
        untilDay: '2026-05-02',
      },
      [
        day('2026-05-01', { deathsAm: 10, deathsPm: 10, feedKg: 220, eggs: 1800, eggKg: 108 }),
        day('2026-05-02', { feedKg: 218, eggs: 1782, eggKg: 106.92 }),
      ],
      [],
    );
    const [first, second] = result.days;
    // 1,800 eggs of 2,000 hens = 90 %; 108 kg ÷ 2,000 = 54 g per hen.
    expect(first).toMatchObject({ ageDay: 140, alive: 1980, epef: null });
    expect(first!.henDayPct).toBeCloseTo(90, 9);
    expect(first!.eggMassG).toBeCloseTo(54, 9);
    // 1,782 eggs of the 1,980 left = 90 %; 106.92 kg ÷ 1,980 = 54 g.
    expect(second!.henDayPct).toBeCloseTo(90, 9);
    expect(second!.eggMassG).toBeCloseTo(54, 9);
    expect(second!.mortalityPct).toBeCloseTo(1, 9);
  });

  it('the breed standard between two listed ages is interpolated', () => {
    const targets = [
      {
        ageDay: 0,
        weight: 42,
        feedPerHead: 0,
        waterPerHead: 0,
        layingRate: null,
        survivalRate: 100,
      },
      {
        ageDay: 7,
        weight: 200,
        feedPerHead: 35,
        waterPerHead: 70,
        layingRate: null,
        survivalRate: 99.3,
      },
    ];
    const s = standardAt(targets, 3);
    expect(s.bodyWeightG).toBeCloseTo(42 + (158 * 3) / 7, 9);
    expect(s.feedPerBirdG).toBeCloseTo(15, 9);
    expect(s.livabilityPct).toBeCloseTo(99.7, 9);
    expect(s.henDayPct).toBeNull();
    expect(standardAt(targets, 9).bodyWeightG).toBeNull();
  });

  it("a layer flock's feed is read per kg of eggs, over the laying days only; no FCR on live weight", () => {
    const kpis = flockKpis(
      {
        placedOn: '2026-05-01',
        ageAtPlacement: 140,
        headCount: 2000,
        layer: true,
        untilDay: '2026-05-03',
      },
      [
        // Not laying yet, but weighed: 1.8 kg hens would have given an "FCR" of 200 / 3,600.
        day('2026-05-01', { feedKg: 200, bodyWeightG: 1800 }),
        day('2026-05-02', { feedKg: 220, eggs: 1800, eggKg: 108 }),
        day('2026-05-03', { feedKg: 218, eggs: 1782, eggKg: 106.92, bodyWeightG: 1850 }),
      ],
      [],
    );
    const [rearing, first, second] = kpis.days;
    expect(rearing).toMatchObject({ fcr: null, feedPerEggKg: null, feedPerDozenKg: null });
    // 220 kg ÷ 108 kg = 2.037037; 1,800 eggs = 150 dozen: 220 ÷ 150 = 1.466667 kg a dozen.
    expect(first!.feedPerEggKg).toBeCloseTo(2.037037, 6);
    expect(first!.feedPerDozenKg).toBeCloseTo(1.466667, 6);
    expect(first!.eggKg).toBe(108);
    // 218 ÷ 106.92 = 2.038908; weighed, but still no FCR for hens.
    expect(second!.feedPerEggKg).toBeCloseTo(2.038908, 6);
    expect(second!.fcr).toBeNull();
    // To date, the laying days: (220 + 218) ÷ (108 + 106.92) = 438 ÷ 214.92 = 2.037968;
    // 438 ÷ ((1,800 + 1,782) ÷ 12 = 298.5) = 1.467337. The 200 kg of rearing feed are not in it.
    expect(kpis.toDate.feedPerEggKg).toBeCloseTo(2.037968, 6);
    expect(kpis.toDate.feedPerDozenKg).toBeCloseTo(1.467337, 6);
    expect(kpis.toDate.fcr).toBeNull();
    expect(kpis.toDate.epef).toBeNull();
    expect(feedMeasureOf({ flock: { layer: true }, toDate: kpis.toDate })).toBe('feedPerEggKg');
  });

  it('eggs counted but never weighed: feed per dozen; broilers keep their FCR', () => {
    const counted = flockKpis(
      {
        placedOn: '2026-05-01',
        ageAtPlacement: 150,
        headCount: 1000,
        layer: true,
        untilDay: '2026-05-02',
      },
      [
        day('2026-05-01', { feedKg: 110, eggs: 900 }),
        day('2026-05-02', { feedKg: 115, eggs: 960 }),
      ],
      [],
    );
    expect(counted.days[0]!.feedPerEggKg).toBeNull();
    // 110 ÷ 75 dozen = 1.466667; to date 225 ÷ (1,860 ÷ 12 = 155) = 1.451613.
    expect(counted.days[0]!.feedPerDozenKg).toBeCloseTo(1.466667, 6);
    expect(counted.toDate.feedPerEggKg).toBeNull();
    expect(counted.toDate.feedPerDozenKg).toBeCloseTo(1.451613, 6);
    expect(feedMeasureOf({ flock: { layer: true }, toDate: counted.toDate })).toBe(
      'feedPerDozenKg',
    );

    const broiler = flockKpis(
      {
        placedOn: '2026-05-01',
        ageAtPlacement: 0,
        headCount: 100,
        layer: false,
        untilDay: '2026-05-01',
      },
      // Eggs typed into a broiler row mean nothing: no feed per egg.
      [day('2026-05-01', { feedKg: 5, bodyWeightG: 50, eggs: 12, eggKg: 1 })],
      [],
    );
    // 5 kg ÷ (100 × 0.05 kg) = 1.
    expect(broiler.toDate.fcr).toBeCloseTo(1, 9);
    expect(broiler.days[0]).toMatchObject({
      feedPerEggKg: null,
      feedPerDozenKg: null,
      eggKg: null,
    });
    expect(feedMeasureOf({ flock: { layer: false }, toDate: broiler.toDate })).toBe('fcr');
  });
});
