import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FAULT_KINDS,
  FAULT_PLANS,
  FAULT_START_DELAY_MS,
  FaultCalendar,
} from '../../server/simulator/faults';
import { permutation } from '../../server/simulator/random';

const MINUTE_MS = 60_000;
const START = Date.parse('2026-11-21T04:00:00Z');

describe('fault calendar', () => {
  it('starts every kind of fault within 30 minutes somewhere in a fleet of 20 or more', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 20, max: 200 }), (seed, fleetSize) => {
        for (const kind of FAULT_KINDS) {
          const first = Math.min(
            ...Array.from({ length: fleetSize }, (_, index) =>
              new FaultCalendar(seed, index * 7919, index, fleetSize, START).windowOf(kind, 0),
            ).map((w) => w.startMs),
          );
          expect(first - START).toBeLessThan(30 * MINUTE_MS);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('keeps faults rare for one house: one of each kind per period, of the planned length', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 100 }), (seed, fleetSize) => {
        const calendar = new FaultCalendar(seed, 12345, fleetSize - 1, fleetSize, START);
        for (const kind of FAULT_KINDS) {
          const plan = FAULT_PLANS[kind];
          for (let cycle = 0; cycle < 5; cycle += 1) {
            const w = calendar.windowOf(kind, cycle);
            expect(w.endMs - w.startMs).toBeGreaterThanOrEqual(plan.minDurationMs);
            expect(w.endMs - w.startMs).toBeLessThanOrEqual(plan.maxDurationMs);
            expect(w.startMs).toBeGreaterThanOrEqual(START + cycle * plan.periodMs);
            // Found again by time: the calendar is a pure function of time.
            expect(calendar.activeWindow(kind, w.startMs)).toEqual(w);
            expect(calendar.activeWindow(kind, w.endMs)).toBeNull();
            expect(calendar.activeWindow(kind, w.startMs - 1)).toBeNull();
          }
        }
      }),
      { numRuns: 50 },
    );
  });

  it('describes what is broken: a probe 1–4, a heat rise of 6–9 °C with 2–3 failed fans', () => {
    const calendar = new FaultCalendar(1, 99, 0, 1, START);
    const probe = calendar.windowOf('probe', 0);
    const heat = calendar.windowOf('heat', 0);
    const offline = calendar.windowOf('offline', 0);
    expect(calendar.activeAt(probe.startMs).probe).toBeGreaterThanOrEqual(1);
    expect(calendar.activeAt(probe.startMs).probe).toBeLessThanOrEqual(4);
    const hot = calendar.activeAt(heat.startMs);
    expect(hot.heatRiseC).toBeGreaterThanOrEqual(6);
    expect(hot.heatRiseC).toBeLessThan(9);
    expect([2, 3]).toContain(hot.failedFans);
    expect(calendar.activeAt(offline.startMs).offline).toBe(true);
    expect(calendar.activeAt(START)).toEqual({
      probe: null,
      heatRiseC: 0,
      failedFans: 0,
      offline: false,
    });
  });
});

describe('fault slots of a fleet', () => {
  it('gives each house the slot of its own fleet when fleets of other seeds and sizes are built between', () => {
    const fleets = [
      { seed: 7, size: 30 },
      { seed: 8, size: 30 },
      { seed: 7, size: 50 },
      { seed: 7, size: 30 },
    ];
    for (const { seed, size } of fleets) {
      FAULT_KINDS.forEach((kind, kindIndex) => {
        const expected = permutation(size, seed * 31 + kindIndex + 1);
        const periodMs = FAULT_PLANS[kind].periodMs;
        for (let index = 0; index < size; index += 1) {
          const calendar = new FaultCalendar(seed, index * 7919, index, size, START);
          const start = calendar.windowOf(kind, 0).startMs - START - FAULT_START_DELAY_MS;
          // The jitter is under one slot, so the slot is the whole part.
          expect(Math.floor(start / (periodMs / size))).toBe(expected[index]);
        }
      });
    }
  });
});
