import { describe, expect, it } from 'vitest';
import { RUN_MODES } from '../../src/contract/domain';
import { deviceTypeOf, METRIC_BY_KEY, SENTINEL_LIMIT } from '../../src/contract/metrics';
import {
  gatewayEventSchema,
  telemetrySchema,
  type TelemetryMessage,
} from '../../src/contract/gateway';
import { createFleet, type HouseStep } from '../../server/simulator/houseModel';
import { standardOf, targetsAt, ageInDays } from '../../server/simulator/flock';
import { demoFleet } from './demoFleet';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** The demo's own start: late November. */
const DEMO_START = Date.parse('2026-11-21T04:00:00Z');
const SEASONS = ['2026-01-15', '2026-04-15', '2026-07-15', '2026-10-15'].map((d) =>
  Date.parse(`${d}T00:00:00Z`),
);

/** Steps the 42 demo houses with a fake clock; `visit` sees every step. */
function run(
  start: number,
  minutes: number,
  stepMs: number,
  visit: (step: HouseStep, house: number, time: number) => void,
  seed = 1,
): void {
  const fleet = createFleet(demoFleet(start), seed, start, stepMs);
  for (let t = start; t < start + minutes * MINUTE_MS; t += stepMs) {
    fleet.forEach((model, house) => visit(model.next(t), house, t));
  }
}

describe('house model', () => {
  it('makes messages that pass the contract, every value in its catalogue range or a sentinel', () => {
    // Problems are collected and compared once: an expect per value would take minutes.
    const problems: string[] = [];
    const modes = Object.keys(RUN_MODES).map(Number);
    for (const start of [DEMO_START, ...SEASONS]) {
      run(start, 6 * 60, 2 * MINUTE_MS, ({ message, events }) => {
        const typed: TelemetryMessage = message;
        if (!telemetrySchema.safeParse(typed).success)
          problems.push(`schema: ${JSON.stringify(message)}`);
        for (const [key, value] of Object.entries(message.metrics)) {
          const metric = METRIC_BY_KEY.get(key);
          if (!metric) problems.push(`unknown metric ${key}`);
          else if (
            value <= SENTINEL_LIMIT ? value !== -999 : value < metric.min || value > metric.max
          )
            problems.push(`${key} = ${value}`);
        }
        for (const key of Object.keys(message.devices ?? {})) {
          if (deviceTypeOf(key) === null) problems.push(`device ${key}`);
        }
        if (message.mode !== undefined && !modes.includes(message.mode))
          problems.push(`mode ${message.mode}`);
        for (const event of events) {
          if (!gatewayEventSchema.safeParse(event).success)
            problems.push(`event ${JSON.stringify(event)}`);
        }
      });
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it('keeps the indoor temperature near the breed target, or near outdoor air when that is hotter', () => {
    for (const start of [DEMO_START, ...SEASONS]) {
      const lastHeatEvent = new Map<number, number>();
      const problems: string[] = [];
      let held = 0;
      run(start, 12 * 60, 2 * MINUTE_MS, (step, house, time) => {
        const m = step.message.metrics;
        if (step.faults.heatRiseC > 0) lastHeatEvent.set(house, time);
        // A house takes a while to cool down after a fan failure.
        if (time - (lastHeatEvent.get(house) ?? -Infinity) < 45 * MINUTE_MS) return;
        const [indoor, target, outdoor] = [
          m.temperature!,
          m.temperature_target!,
          m.temperature_outdoor!,
        ];
        const where = `${new Date(time).toISOString()} house ${house}: ${indoor} (target ${target}, outdoor ${outdoor})`;
        if (indoor < target - 3 || indoor > Math.max(target, outdoor) + 3) problems.push(where);
        // A house that outdoor air can cool holds its target within a few degrees.
        if (outdoor < target - 2) {
          held += 1;
          if (Math.abs(indoor - target) >= 3) problems.push(`not held: ${where}`);
        }
      });
      expect(problems.slice(0, 10)).toEqual([]);
      expect(held).toBeGreaterThan(1000);
    }
  });

  it('sets the target from the breed standard, interpolated by age', () => {
    const houses = demoFleet(DEMO_START);
    run(DEMO_START, 10, MINUTE_MS, (step, house, time) => {
      const h = houses[house]!;
      const age = ageInDays(h.placedOn, h.ageAtPlacement, time);
      const expected = targetsAt(standardOf(h.breed), age).temperature;
      expect(step.message.metrics.temperature_target).toBeCloseTo(expected, 1);
    });
  });

  it('gives the same readings for the same seed and different ones for another', () => {
    const collect = (seed: number) => {
      const out: unknown[] = [];
      run(DEMO_START, 90, MINUTE_MS, (step) => out.push(step), seed);
      return out;
    };
    const a = collect(7);
    expect(collect(7)).toEqual(a);
    expect(collect(8)).not.toEqual(a);
  });

  it('shows each kind of fault at least once in an hour of the 42-house demo', () => {
    for (const seed of [1, 2, 3, 42, 2026]) {
      let probe = false;
      let heat = false;
      let offline = false;
      const heatStart = new Map<number, number>();
      run(
        DEMO_START,
        60,
        MINUTE_MS,
        ({ message, offline: off, faults }, house) => {
          const m = message.metrics;
          if (Object.values(m).includes(-999)) probe = true;
          if (off) offline = true;
          if (faults.heatRiseC > 0) {
            if (!heatStart.has(house)) heatStart.set(house, m.temperature!);
            const fanFailed = Object.values(message.devices ?? {}).some((d) => d.state === 3);
            // Several degrees above where it started, and (for controllers) failed fans.
            if (m.temperature! > heatStart.get(house)! + 3 && (fanFailed || !message.devices))
              heat = true;
          }
        },
        seed,
      );
      expect({ seed, probe, heat, offline }).toEqual({
        seed,
        probe: true,
        heat: true,
        offline: true,
      });
    }
  });

  it('keeps counters non-negative and alive equal to the flock minus its deaths', () => {
    const previousAlive = new Map<number, number>();
    run(DEMO_START, 6 * 60, MINUTE_MS, ({ message }, house) => {
      const m = message.metrics;
      for (const key of ['water', 'feed', 'power', 'deaths'])
        expect(m[key]).toBeGreaterThanOrEqual(0);
      expect(Number.isInteger(m.deaths)).toBe(true);
      const before = previousAlive.get(house);
      if (before !== undefined) expect(m.alive).toBe(before - m.deaths!);
      previousAlive.set(house, m.alive!);
    });
  });

  it('sends eggs only for layers of laying age', () => {
    const houses = demoFleet(DEMO_START);
    run(DEMO_START, 60, MINUTE_MS, ({ message }, house) => {
      const h = houses[house]!;
      const laying =
        h.breed === 'layer' && ageInDays(h.placedOn, h.ageAtPlacement, message.ts) > 113;
      expect('eggs' in message.metrics).toBe(laying);
    });
  });

  it('uses water and feed in line with head count and the breed per-head figures', () => {
    const houses = demoFleet(DEMO_START);
    const daily = houses.map(() => ({ water: 0, feed: 0, eggs: 0, alive: 0 }));
    const midday = DEMO_START + 12 * HOUR_MS;
    const hourly = houses.map(() => new Map<number, { water: number; feed: number }>());
    run(DEMO_START, 24 * 60, MINUTE_MS, ({ message }, house, time) => {
      const m = message.metrics;
      daily[house]!.water += m.water!;
      daily[house]!.feed += m.feed!;
      daily[house]!.eggs += m.eggs ?? 0;
      if (time === midday) daily[house]!.alive = m.alive!;
      const hour = Math.floor((time - DEMO_START) / HOUR_MS);
      const bucket = hourly[house]!.get(hour) ?? { water: 0, feed: 0 };
      bucket.water += m.water!;
      bucket.feed += m.feed!;
      hourly[house]!.set(hour, bucket);
    });
    houses.forEach((h, i) => {
      // Per-head figures change linearly with age: the day's total is the figure at midday.
      const t = targetsAt(standardOf(h.breed), ageInDays(h.placedOn, h.ageAtPlacement, midday));
      const alive = daily[i]!.alive;
      expect(alive).toBeGreaterThan(h.headCount * 0.9);
      const waterKg = (alive * t.waterPerHead) / 1000;
      const feedKg = (alive * t.feedPerHead) / 1000;
      // Birds drink more in a heat event: water may run a little over.
      expect(daily[i]!.water).toBeGreaterThan(waterKg * 0.95);
      expect(daily[i]!.water).toBeLessThan(waterKg * 1.15);
      expect(daily[i]!.feed).toBeGreaterThan(feedKg * 0.95);
      expect(daily[i]!.feed).toBeLessThan(feedKg * 1.05);
      for (const bucket of hourly[i]!.values()) {
        // Birds eat and drink in the light: an hour is between a trickle and 3× the average.
        expect(bucket.water).toBeGreaterThan((waterKg / 24) * 0.02);
        expect(bucket.water).toBeLessThan((waterKg / 24) * 3);
        expect(bucket.feed).toBeLessThan((feedKg / 24) * 3);
      }
      if (h.breed === 'layer' && t.layingRate > 0) {
        expect(daily[i]!.eggs).toBeGreaterThan(alive * (t.layingRate / 100) * 0.95);
        expect(daily[i]!.eggs).toBeLessThan(alive * (t.layingRate / 100) * 1.05);
      }
    });
  });

  it('steps ventilation up with heat, and raises CO2 and NH3 when ventilation is low', () => {
    const byLevel = new Map<number, { co2: number; nh3: number; pressure: number; n: number }>();
    run(SEASONS[1]!, 12 * 60, 5 * MINUTE_MS, ({ message }) => {
      const m = message.metrics;
      const level = m.ventilation_level!;
      const s = byLevel.get(level) ?? { co2: 0, nh3: 0, pressure: 0, n: 0 };
      s.co2 += m.co2!;
      s.nh3 += m.nh3!;
      s.pressure += m.pressure!;
      s.n += 1;
      byLevel.set(level, s);
      expect(m.pressure).toBeGreaterThanOrEqual(-40);
      expect(m.pressure).toBeLessThanOrEqual(-5);
      expect(m.co2).toBeGreaterThan(500);
      expect(m.co2).toBeLessThan(4000);
    });
    const low = byLevel.get(0)!;
    const high = byLevel.get(10) ?? byLevel.get(9)!;
    expect(low.co2 / low.n).toBeGreaterThan((high.co2 / high.n) * 2);
    expect(low.nh3 / low.n).toBeGreaterThan(high.nh3 / high.n);
    expect(high.pressure / high.n).toBeLessThan(low.pressure / low.n - 15);
  });
});
