import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainTelemetry, telemetrySchema } from '../../src/contract/gateway';
import { simulatorMessages } from '../helpers/readings';

/** Whole numbers, fractions and the values at and beyond each field's bounds. */
const number = fc.oneof(
  fc.integer({ min: -300, max: 300 }),
  fc.double({ noNaN: false }),
  fc.constantFrom(0, -0, 3, 4, 100, 100.5, 255, 256, 2 ** 53, Date.now()),
);
const key = fc.oneof(
  fc.string({ maxLength: 45 }),
  fc.constantFrom('co2', 'fan_1', '__proto__', 'constructor', 'x'.repeat(40), 'x'.repeat(41)),
);
const anyValue = fc.oneof(number, fc.string(), fc.constant(null), fc.boolean());
const name = fc.string({ maxLength: 40 }).filter((k) => k !== '__proto__');
const valid = fc.record(
  {
    ts: fc.integer({ min: 1, max: 2 ** 52 }),
    seq: fc.nat(),
    mode: fc.integer({ min: 0, max: 255 }),
    metrics: fc.dictionary(name, fc.double({ noNaN: true, noDefaultInfinity: true })),
    devices: fc.dictionary(
      name,
      fc.record(
        {
          state: fc.constantFrom(0, 1, 2, 3),
          opening: fc.double({ min: 0, max: 100, noNaN: true }),
        },
        { requiredKeys: ['state'] },
      ),
    ),
  },
  { requiredKeys: ['ts', 'metrics'] },
);
/** A valid message with one thing changed: a field, a metric, a device or one of its fields. */
const message = fc
  .tuple(
    valid,
    fc.constantFrom(
      'none',
      'ts',
      'seq',
      'mode',
      'metrics',
      'devices',
      'other',
      'metric',
      'deviceKey',
      'state',
      'opening',
      'deviceExtra',
    ),
    key,
    fc.oneof(anyValue, fc.constant('2026-11-24T03:00:00+08:00')),
  )
  .map(([m, where, k, v]): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...m, devices: { ...m.devices } };
    const devices = out.devices as Record<string, unknown>;
    if (where === 'metric') out.metrics = { ...m.metrics, [k]: v };
    else if (where === 'deviceKey') devices[k] = { state: 1 };
    else if (where === 'state') devices.fan_1 = { state: v };
    else if (where === 'opening') devices.fan_1 = { state: 1, opening: v };
    else if (where === 'deviceExtra') devices.fan_1 = { state: 1, [k]: v };
    else if (where !== 'none') out[where] = v;
    return out;
  });

describe('the plain telemetry check', () => {
  it('accepts only what the telemetry schema accepts, with the same message', () => {
    fc.assert(
      fc.property(fc.oneof(message, message, fc.jsonValue()), (value) => {
        // As the broker's bytes arrive: the check only ever sees what JSON.parse made.
        const json: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
        const fast = plainTelemetry(json);
        if (fast === null) return;
        const parsed = telemetrySchema.safeParse(JSON.parse(JSON.stringify(value)));
        expect(parsed.success).toBe(true);
        expect(fast).toEqual(parsed.data);
      }),
      { numRuns: 10_000 },
    );
  });

  it('takes the simulator’s readings without the schema (the fast path is the common one)', () => {
    for (const message of simulatorMessages('PLAIN')) {
      const json: unknown = JSON.parse(JSON.stringify(message));
      expect(plainTelemetry(json)).not.toBeNull();
    }
  });
});

describe('the plain telemetry check on raw payloads', () => {
  it('leaves a number too large for a double (read as Infinity) to the schema, which refuses it', () => {
    const raw = `{"ts":${Date.now()},"metrics":{"co2":1e400}}`;
    expect(plainTelemetry(JSON.parse(raw))).toBeNull();
    expect(telemetrySchema.safeParse(JSON.parse(raw)).success).toBe(false);
  });
});
