import { describe, expect, it } from 'vitest';
import {
  conditionsOf,
  emptyRuleState,
  evaluateReading,
  keyOf,
  type HouseRules,
  type OpenAlarm,
  type RuleReading,
  type Step,
} from '../../server/alarms/rules';

const MIN = 60_000;
const rules: HouseRules = {
  houseId: 1,
  targetTemperature: 25,
  breedHumidity: 60,
  breedCo2: 3000,
  limits: { minDurationSeconds: 120, clearHoldSeconds: 180 },
};

/** A house driven through time: readings in, alarms as the lifecycle would keep them. */
function house(r: HouseRules = rules) {
  const state = emptyRuleState();
  const open = new Map<string, OpenAlarm>();
  const log: Step[] = [];
  const counts = new Map<string, number>();
  return {
    open,
    log,
    counts,
    read(minute: number, metrics: Record<string, number>, extra: Partial<RuleReading> = {}) {
      const steps = evaluateReading(
        r,
        { ts: minute * MIN, mode: 1, metrics, faults: {}, devices: {}, ...extra },
        state,
        open,
      );
      for (const s of steps) {
        const key = keyOf(s.cause, s.subject);
        if (s.kind === 'raise') counts.set(key, 1);
        if (s.kind === 'recur') counts.set(key, (counts.get(key) ?? 0) + 1);
        if (s.kind === 'clear') open.delete(key);
        else open.set(key, { endedAt: s.kind === 'end' ? s.at : null });
      }
      log.push(...steps);
      return steps.map((s) => `${s.kind}:${s.cause}`);
    },
  };
}

describe('alarm rules', () => {
  it('raises temperature high only after the minimum duration, and clears below the clear level after the hold', () => {
    const h = house();
    expect(h.read(0, { temperature: 30.5 })).toEqual([]); // over target + 5, pending
    expect(h.read(1, { temperature: 31 })).toEqual([]);
    expect(h.read(2, { temperature: 31 })).toEqual(['raise:temperatureHigh']);
    // 29.5 is under the raise level but over the clear level (target + 4): still holding.
    expect(h.read(3, { temperature: 29.5 })).toEqual([]);
    expect(h.read(4, { temperature: 28.9 })).toEqual(['end:temperatureHigh']);
    expect(h.read(6, { temperature: 28.5 })).toEqual([]);
    expect(h.read(7, { temperature: 28.5 })).toEqual(['clear:temperatureHigh']);
    expect(h.open.size).toBe(0);
  });

  it('forgets a short excursion: no alarm shorter than the minimum duration', () => {
    const h = house();
    h.read(0, { temperature: 31 });
    h.read(1, { temperature: 24 });
    h.read(2, { temperature: 31 });
    expect(h.read(3, { temperature: 31 })).toEqual([]);
    expect(h.read(4, { temperature: 31 })).toEqual(['raise:temperatureHigh']);
  });

  it('raises temperature low, humidity, CO2, NH3 and pressure against their limits', () => {
    const h = house({ ...rules, limits: { minDurationSeconds: 0, clearHoldSeconds: 0 } });
    expect(h.read(0, { temperature: 19.5 })).toEqual(['raise:temperatureLow']);
    expect(h.read(1, { humidity: 90 })).toEqual(['raise:humidityHigh']);
    expect(h.read(2, { co2: 4600 })).toEqual(['raise:co2High']);
    expect(h.read(3, { nh3: 31 })).toEqual(['raise:nh3High']);
    expect(h.read(4, { pressure: -70 })).toEqual(['raise:pressureLow']);
    expect(
      h.read(5, { temperature: 21.5, humidity: 70, co2: 4000, nh3: 20, pressure: -20 }),
    ).toEqual([
      'clear:temperatureLow',
      'clear:humidityHigh',
      'clear:co2High',
      'clear:nh3High',
      'clear:pressureLow',
    ]);
  });

  it('uses the house override over the breed and the default', () => {
    const h = house({
      ...rules,
      limits: { minDurationSeconds: 0, co2Max: 2000, temperatureBandHigh: 2 },
    });
    expect(h.read(0, { co2: 2100, temperature: 27.5 })).toEqual([
      'raise:temperatureHigh',
      'raise:co2High',
    ]);
  });

  it('raises nothing in an empty house, and ends what was open', () => {
    const h = house({ ...rules, limits: { minDurationSeconds: 0, clearHoldSeconds: 0 } });
    for (let m = 0; m < 10; m += 1)
      expect(
        h.read(m, { temperature: 40, co2: 9000 }, { mode: 99, devices: { fan_1: { state: 3 } } }),
      ).toEqual([]);
    h.read(10, { temperature: 40 });
    expect([...h.open.keys()]).toEqual([keyOf('temperatureHigh', 'temperature')]);
    expect(h.read(11, { temperature: 40 }, { mode: 99 })).toEqual(['clear:temperatureHigh']);
  });

  it('counts a flapping sensor as occurrences of one alarm', () => {
    const h = house();
    let m = 0;
    h.read(m++, { temperature: 31 });
    h.read(m++, { temperature: 31 });
    h.read(m++, { temperature: 31 }); // raised
    for (let i = 0; i < 5; i += 1) {
      h.read(m++, { temperature: 27 }); // ends
      h.read(m++, { temperature: 31 }); // back within the hold
    }
    const raises = h.log.filter((s) => s.kind === 'raise');
    expect(raises).toHaveLength(1);
    expect(h.counts.get(keyOf('temperatureHigh', 'temperature'))).toBe(6);
  });

  it('raises a sensor fault for a sentinel and clears it when numbers return', () => {
    const h = house({ ...rules, limits: { minDurationSeconds: 0, clearHoldSeconds: 0 } });
    expect(
      h.read(0, {}, { faults: { temperature_2: 'notConnected', humidity: 'notConfigured' } }),
    ).toEqual(['raise:sensorFault']);
    expect(h.log[0]?.subject).toBe('temperature_2');
    expect(h.read(1, { temperature_2: 24 })).toEqual(['clear:sensorFault']);
  });

  it('forgets a sensor fault that numbers end before its minimum duration', () => {
    const h = house(); // 2 minutes before a raise
    const fault = { faults: { temperature_2: 'notConnected' } };
    expect(h.read(0, {}, fault)).toEqual([]);
    expect(h.read(1, { temperature_2: 24 })).toEqual([]);
    // Had the pending fault been kept, this fault would raise at once (minute 0 + 2).
    expect(h.read(2, {}, fault)).toEqual([]);
    expect(h.read(3, {}, fault)).toEqual([]);
    expect(h.read(4, {}, fault)).toEqual(['raise:sensorFault']);
  });

  it('raises a stuck sensor after its value has not changed for the stuck time', () => {
    const h = house({
      ...rules,
      limits: { minDurationSeconds: 0, clearHoldSeconds: 0, stuckMinutes: 30 },
    });
    for (let m = 0; m < 30; m += 1) expect(h.read(m, { humidity: 61.2 })).toEqual([]);
    expect(h.read(30, { humidity: 61.2 })).toEqual(['raise:sensorStuck']);
    expect(h.read(31, { humidity: 61.4 })).toEqual(['clear:sensorStuck']);
  });

  it('raises a device in error state and clears it when the device recovers', () => {
    const h = house({ ...rules, limits: { minDurationSeconds: 0, clearHoldSeconds: 0 } });
    expect(h.read(0, {}, { devices: { fan_3: { state: 3 }, fan_1: { state: 1 } } })).toEqual([
      'raise:deviceError',
    ]);
    expect(h.read(1, {}, { devices: { fan_3: { state: 1 } } })).toEqual(['clear:deviceError']);
  });

  it('ignores a reading older than one already evaluated', () => {
    const h = house({ ...rules, limits: { minDurationSeconds: 0 } });
    h.read(10, { temperature: 25 });
    expect(h.read(5, { temperature: 40 })).toEqual([]);
  });

  it('builds nothing for conditions that still hold while their alarms are up', () => {
    const h = house({ ...rules, limits: { minDurationSeconds: 0, clearHoldSeconds: 0 } });
    const reading = (minute: number): RuleReading => ({
      ts: minute * MIN,
      mode: 1,
      metrics: { temperature: 31, co2: 5000 },
      faults: { nh3: 'error' },
      devices: { fan_3: { state: 3 } },
    });
    expect(h.read(0, reading(0).metrics, reading(0)).sort()).toEqual([
      'raise:co2High',
      'raise:deviceError',
      'raise:sensorFault',
      'raise:temperatureHigh',
    ]);
    // A house in alarm for hours: each reading saying the same changes nothing, and no
    // condition object is built for it.
    expect(conditionsOf(rules, reading(1), emptyRuleState(), h.open)).toEqual([]);
    expect(h.read(1, reading(1).metrics, reading(1))).toEqual([]);
    // One that recovers while the others hold is still seen.
    const recovered = { faults: { nh3: 'error' as const }, devices: { fan_3: { state: 1 } } };
    expect(h.read(2, { temperature: 25, co2: 5000 }, recovered)).toEqual([
      'clear:temperatureHigh',
      'clear:deviceError',
    ]);
  });
});
