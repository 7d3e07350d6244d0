import { describe, expect, it } from 'vitest';
import type { FlockKpis, FlockSummary } from '../../src/contract/production';
import { flockKpis, type DayFacts } from '../../server/production/kpi';
import { producedFigures } from '../../server/production/powerMonth';

const record = (d: string, values: Partial<DayFacts> = {}): DayFacts => ({
  day: d,
  deathsAm: 0,
  deathsPm: 0,
  cullsAm: 0,
  cullsPm: 0,
  feedKg: 100,
  waterL: null,
  eggs: null,
  eggKg: null,
  bodyWeightG: null,
  ...values,
});

/** A flock of `houseId` with its KPIs computed from `records` by the KPIs' own arithmetic. */
function flock(
  id: number,
  houseId: number,
  facts: { placedOn: string; closedOn: string | null; headCount: number; layer: boolean },
  records: DayFacts[],
): FlockKpis {
  const summary: FlockSummary = {
    id,
    houseId,
    houseName: `House ${houseId}`,
    farmName: 'Farm',
    breedName: null,
    ageAtPlacement: 1,
    origin: '',
    depletedCount: null,
    catchWeightKg: null,
    ...facts,
  };
  const result = flockKpis(
    { ...facts, ageAtPlacement: 1, untilDay: facts.closedOn ?? '2026-10-31' },
    records,
    [],
  );
  return { flock: summary, ...result };
}

// House 7 in October: the end of a flock (1,000 birds, weighed 2.0 kg on the 1st and 2.3 kg on
// the 3rd), six empty days of cleaning and heating, then a new flock of 2,000 (weighed 40 g on
// the 10th and 100 g on the 12th, recorded on the 13th without weighing).
const old = flock(
  1,
  7,
  { placedOn: '2026-09-25', closedOn: '2026-10-03', headCount: 1000, layer: false },
  [
    record('2026-10-01', { bodyWeightG: 2000 }),
    record('2026-10-02'),
    record('2026-10-03', { bodyWeightG: 2300 }),
  ],
);
const young = flock(
  2,
  7,
  { placedOn: '2026-10-10', closedOn: null, headCount: 2000, layer: false },
  [
    record('2026-10-10', { bodyWeightG: 40 }),
    record('2026-10-11'),
    record('2026-10-12', { bodyWeightG: 100 }),
    record('2026-10-13'),
  ],
);
const HOUSE_7: Record<string, number> = {
  '2026-10-01': 100,
  '2026-10-02': 110,
  '2026-10-03': 120,
  '2026-10-04': 50,
  '2026-10-05': 50,
  '2026-10-06': 50,
  '2026-10-07': 50,
  '2026-10-08': 50,
  '2026-10-09': 50,
  '2026-10-10': 60,
  '2026-10-11': 70,
  '2026-10-12': 80,
  '2026-10-13': 90,
};
const metered =
  (byHouse: Record<number, Record<string, number>>) => (houseId: number, day: string) =>
    byHouse[houseId]?.[day] ?? null;

describe('electricity per bird and per kg produced, each over its own days', () => {
  it("counts a flock's own days only: not the flock before, not the empty house", () => {
    const figures = producedFigures([old, young], '2026-10', metered({ 7: HOUSE_7 }));
    // Gained: 1,000 × (2.3 − 2.0) kg = 300 kg over the 2nd and 3rd (110 + 120 kWh), and
    // 2,000 × (0.100 − 0.040) kg = 120 kg over the 11th and 12th (70 + 80 kWh):
    // 380 kWh ÷ 420 kg = 0.904762. The whole month (930 kWh) would have given 2.214286.
    expect(figures.producedKg).toBeCloseTo(420, 9);
    expect(figures.producedKwh).toBeCloseTo(380, 9);
    expect(figures.kwhPerKg).toBeCloseTo(0.904762, 6);
    // Per bird: the 7 recorded days' 630 kWh (not the empty days' 300) over the birds housed
    // on average on them, (3 × 1,000 + 4 × 2,000) ÷ 7 = 1,571.43: 630 × 7 ÷ 11,000 = 0.400909.
    expect(figures.kwhPerBird).toBeCloseTo(0.400909, 6);
  });

  it('a weighing window with a day unmetered leaves that flock out of the per-kg figure', () => {
    const { '2026-10-11': _, ...gap } = HOUSE_7;
    const figures = producedFigures([old, young], '2026-10', metered({ 7: gap }));
    // Only the old flock: 230 kWh ÷ 300 kg.
    expect(figures.producedKg).toBeCloseTo(300, 9);
    expect(figures.kwhPerKg).toBeCloseTo(230 / 300, 9);
    // Per bird counts the metered recorded days: 630 − 70 = 560 kWh over 6 days,
    // (3 × 1,000 + 3 × 2,000) ÷ 6 = 1,500 birds: 0.373333.
    expect(figures.kwhPerBird).toBeCloseTo(0.373333, 6);
  });

  it('layers: the electricity of the days with egg mass entered, over those eggs', () => {
    const hens = flock(
      3,
      8,
      { placedOn: '2026-06-01', closedOn: null, headCount: 1800, layer: true },
      [
        record('2026-10-01', { eggs: 1700, eggKg: 100 }),
        // Counted, not weighed: no kg to divide by, so its 45 kWh are not divided either.
        record('2026-10-02', { eggs: 1650 }),
        record('2026-10-03', { eggs: 1690, eggKg: 110 }),
      ],
    );
    const house8 = { '2026-10-01': 40, '2026-10-02': 45, '2026-10-03': 50, '2026-10-04': 55 };
    const alone = producedFigures([hens], '2026-10', metered({ 8: house8 }));
    // (40 + 50) kWh ÷ (100 + 110) kg = 0.428571.
    expect(alone.kwhPerKg).toBeCloseTo(0.428571, 6);
    // 135 kWh of the three recorded days (not the 4th's 55) ÷ 1,800 hens = 0.075.
    expect(alone.kwhPerBird).toBeCloseTo(0.075, 9);
    // A farm of both houses: (380 + 90) kWh ÷ (420 + 210) kg = 0.746032.
    const farm = producedFigures([old, young, hens], '2026-10', metered({ 7: HOUSE_7, 8: house8 }));
    expect(farm.kwhPerKg).toBeCloseTo(0.746032, 6);
  });

  it('nothing weighed twice, no eggs, no records: no figure rather than a guess', () => {
    const once = flock(
      4,
      9,
      { placedOn: '2026-10-20', closedOn: null, headCount: 500, layer: false },
      [record('2026-10-20', { bodyWeightG: 40 })],
    );
    expect(producedFigures([once], '2026-10', metered({ 9: { '2026-10-20': 10 } }))).toEqual({
      kwhPerBird: 10 / 500,
      kwhPerKg: null,
      producedKg: null,
      producedKwh: null,
    });
    expect(producedFigures([], '2026-10', metered({}))).toEqual({
      kwhPerBird: null,
      kwhPerKg: null,
      producedKg: null,
      producedKwh: null,
    });
  });
});
