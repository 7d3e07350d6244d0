import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEVICE_TYPES, METRICS, METRIC_KEYS } from '../../src/contract/metrics';
import { plainTelemetry } from '../../src/contract/plainTelemetry';
import { decodeTelemetry } from '../../server/ingest/decode';
import { scanTelemetry } from '../../server/ingest/scanTelemetry';
import { fullReading } from '../../bench/load';
import { simulatorMessages } from '../helpers/readings';

/** Equal as JSON.parse's answer is: the same keys in the same order, numbers by Object.is. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null)
    return Object.is(a, b);
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  return (
    ka.length === kb.length &&
    ka.every((k, i) => k === kb[i]) &&
    ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** What the general way answers for these bytes: null where JSON.parse refuses them. */
function general(bytes: Buffer): unknown {
  try {
    return plainTelemetry(JSON.parse(bytes.toString()));
  } catch {
    return null;
  }
}

/** The scanner answers only what the general way answers, and exactly that. */
function agrees(bytes: Buffer): boolean {
  const scanned = scanTelemetry(bytes);
  if (scanned === null) return true;
  const expected = general(bytes) as Record<string, unknown> | null;
  // The top level's fields are read by name; inside metrics and devices the order is kept.
  const fields = ['ts', 'seq', 'mode', 'metrics', 'devices'] as const;
  if (
    expected === null ||
    Object.keys(expected).some((k) => !fields.includes(k as (typeof fields)[number])) ||
    !fields.every((f) => same(scanned[f], expected[f]))
  ) {
    throw new Error(`differs on ${bytes.toString()}: ${JSON.stringify(scanned)}`);
  }
  return true;
}

/** Decimal text as sensors send it, and every corner of JSON's number grammar. */
const numberText = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((v) => JSON.stringify(v)),
  fc
    .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.nat({ max: 22 }))
    .map(([negative, digits, decimals]) => {
      const text = digits.toString().padStart(decimals + 1, '0');
      const cut = text.length - decimals;
      return `${negative ? '-' : ''}${text.slice(0, cut)}${decimals > 0 ? `.${text.slice(cut)}` : ''}`;
    }),
  fc.constantFrom(
    '0',
    '-0',
    '-0.0',
    '0.1',
    '1e3',
    '1E-7',
    '2.5e+2',
    '1e400',
    '-1e400',
    '9007199254740993',
    '0.30000000000000004',
    '123456789012345.6',
    '1234567890123456.7',
    '-999',
    '-998',
    '-888',
    // Not JSON: the scanner must refuse them as JSON.parse does.
    '01',
    '1.',
    '.5',
    '-',
    '+1',
    '1e',
    '0x10',
    'NaN',
    'Infinity',
    '1_000',
  ),
);
const metricKey = fc.oneof(
  fc.constantFrom(...METRIC_KEYS),
  fc.constantFrom('extra_1', '__proto__', 'co2\\u0032', 'CO2', 'temp\u00e9'),
);
const deviceKey = fc.oneof(
  fc
    .tuple(fc.constantFrom(...DEVICE_TYPES), fc.integer({ min: 0, max: 120 }))
    .map(([t, n]) => `${t}_${n}`),
  fc.constantFrom('__proto__', 'constructor', 'fan', 'x'.repeat(41)),
);
const device = fc.oneof(
  fc.record({ state: fc.constantFrom('0', '1', '2', '3', '4', '1.0', '-0') }),
  fc.record({
    state: fc.constantFrom('0', '1', '3'),
    opening: fc.constantFrom('0', '40', '100', '100.5', '-1', '55.5'),
  }),
  fc.record({
    opening: fc.constantFrom('0', '40', '100'),
    state: fc.constantFrom('1', '2'),
  }),
  fc.constant({ state: '1', other: '2' }),
  fc.constant({}),
);
/** Whitespace as a pretty-printer, or a hand, puts it. */
const gap = fc.constantFrom('', '', '', ' ', '\n  ', '\t', '\r\n');

/** A message as text, built field by field so that numbers and keys keep their exact text. */
const messageText = fc
  .tuple(
    fc.record(
      {
        ts: fc.oneof(fc.integer({ min: 1, max: 2 ** 52 }).map(String), numberText),
        seq: fc.oneof(fc.nat().map(String), numberText),
        mode: fc.oneof(fc.integer({ min: 0, max: 256 }).map(String), numberText),
        metrics: fc.array(fc.tuple(metricKey, numberText), { maxLength: 35 }),
        devices: fc.array(fc.tuple(deviceKey, device), { maxLength: 8 }),
        other: fc.constant('1'),
      },
      { requiredKeys: ['metrics'] },
    ),
    fc.array(fc.constantFrom('ts', 'seq', 'mode', 'metrics', 'devices', 'other')),
    gap,
  )
  .map(([fields, extraOrder, g]) => {
    const order = [...new Set([...extraOrder, 'ts', 'seq', 'mode', 'metrics', 'devices'])];
    const parts: string[] = [];
    for (const name of order) {
      const value = (fields as Record<string, unknown>)[name];
      if (value === undefined) continue;
      let text: string;
      if (name === 'metrics') {
        text = `{${(value as Array<[string, string]>).map(([k, v]) => `${g}"${k}"${g}:${g}${v}`).join(',')}${g}}`;
      } else if (name === 'devices') {
        text = `{${(value as Array<[string, Record<string, string>]>)
          .map(
            ([k, d]) =>
              `"${k}":${g}{${Object.entries(d)
                .map(([f, v]) => `"${f}":${v}`)
                .join(`,${g}`)}}`,
          )
          .join(',')}}`;
      } else text = value as string;
      parts.push(`"${name}":${g}${text}`);
    }
    return `${g}{${parts.join(`,${g}`)}${g}}${g}`;
  });

describe('reading telemetry straight from its bytes', () => {
  it('answers only what JSON.parse and the plain check answer, value for value and key for key', () => {
    fc.assert(
      fc.property(messageText, (text) => agrees(Buffer.from(text))),
      { numRuns: 20_000 },
    );
  });

  it('reads every number as JSON.parse does, to the last bit', () => {
    fc.assert(
      fc.property(numberText, (text) => {
        const bytes = Buffer.from(`{"ts":1,"metrics":{"co2":${text}}}`);
        const scanned = scanTelemetry(bytes);
        const expected = general(bytes) as { metrics: { co2: number } } | null;
        if (expected === null) expect(scanned).toBeNull();
        else expect(Object.is(scanned?.metrics.co2, expected.metrics.co2)).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('refuses broken bytes wherever they break: a byte changed, cut off or added', () => {
    const base = fullReading(Date.now(), 7);
    fc.assert(
      fc.property(
        fc.nat({ max: base.length - 1 }),
        fc.integer({ min: 0, max: 255 }),
        fc.constantFrom('replace', 'cut', 'insert'),
        (at, byte, how) => {
          const bytes = Buffer.from(base, 'latin1');
          const changed =
            how === 'cut'
              ? bytes.subarray(0, at)
              : how === 'insert'
                ? Buffer.concat([bytes.subarray(0, at), Buffer.from([byte]), bytes.subarray(at)])
                : Buffer.from(bytes.map((b, i) => (i === at ? byte : b)));
          return agrees(changed);
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('reads the simulator’s and the bench’s readings itself (the fast way is the common one)', () => {
    const payloads = [
      ...simulatorMessages('SCAN').map((message) => JSON.stringify(message)),
      fullReading(Date.now(), 3),
      JSON.stringify(JSON.parse(fullReading(Date.now(), 4)), null, 2),
    ];
    for (const text of payloads) {
      const bytes = Buffer.from(text);
      expect(scanTelemetry(bytes), text).not.toBeNull();
      expect(agrees(bytes)).toBe(true);
    }
  });

  it('decodes bytes exactly as it decodes the same message as text (the general way)', () => {
    const now = Date.now();
    const metric = fc.oneof(
      fc
        .constantFrom(...METRICS)
        .chain((m) =>
          fc.tuple(
            fc.constant(m.key),
            fc.oneof(
              fc.double({ min: m.min, max: m.max, noNaN: true }),
              fc.constantFrom(m.min - 1, m.max + 1, -999, -998, -888, -700),
            ),
          ),
        ),
      fc.tuple(fc.constant('unknown_metric'), fc.constant(1)),
    );
    fc.assert(
      fc.property(
        fc.array(metric, { maxLength: 30 }),
        fc.array(fc.tuple(deviceKey, fc.constantFrom(0, 1)), { maxLength: 5 }),
        fc.integer({ min: -2 * 86_400_000, max: 120_000 }),
        (metrics, devices, offset) => {
          const text = JSON.stringify({
            ts: now + offset,
            seq: 1,
            mode: 1,
            metrics: Object.fromEntries(metrics),
            devices: Object.fromEntries(devices.map(([k, state]) => [k, { state }])),
          });
          const fromBytes = decodeTelemetry(Buffer.from(text), now);
          const fromText = decodeTelemetry(text, now);
          expect(fromBytes).toEqual(fromText);
          if (fromBytes.ok && fromText.ok) {
            expect(Object.keys(fromBytes.reading.metrics)).toEqual(
              Object.keys(fromText.reading.metrics),
            );
          }
        },
      ),
      { numRuns: 5_000 },
    );
  });
});
