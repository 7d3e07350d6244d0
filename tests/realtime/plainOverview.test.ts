import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALARM_CAUSES, ALARM_SEVERITIES } from '../../src/contract/alarms';
import { overviewListSchema } from '../../src/contract/overview';
import { plainOverviewList } from '../../src/contract/plainOverview';

const int = fc.integer({ min: -1_000, max: 1_000_000 });
const text = fc.string({ maxLength: 12 });
const key = fc.oneof(text, fc.constantFrom('co2', 'fan_1', '__proto__', 'constructor'));
const name = text.filter((k) => k !== '__proto__');
const number = fc.double({ noNaN: true, noDefaultInfinity: true });
const iso = fc.constantFrom('2026-11-25T09:00:00.000Z', null);
const anyValue = fc.oneof(
  int,
  fc.double(),
  text,
  fc.constant(null),
  fc.boolean(),
  fc.constant({}),
  fc.constant([]),
  fc.constant(2 ** 53),
  fc.constant(1.5),
  fc.constant(-1),
);
const top = fc.record(
  {
    cause: fc.constantFrom(...ALARM_CAUSES),
    severity: fc.constantFrom(...ALARM_SEVERITIES),
    subject: fc.option(text),
    value: fc.option(number),
    limit: fc.option(number),
    text: fc.option(text),
    acknowledged: fc.boolean(),
  },
  { requiredKeys: ['cause', 'severity', 'subject', 'value', 'limit', 'text'] },
);
const live = fc.record({
  houseId: int,
  online: fc.boolean(),
  network: fc.constantFrom('wired', 'wireless', null),
  gatewayVersion: fc.option(text),
  onlineSince: iso,
  lastSeenAt: iso,
  lastTs: iso,
  mode: fc.option(fc.integer({ min: 0, max: 255 })),
  metrics: fc.dictionary(name, number),
  faults: fc.dictionary(name, fc.constantFrom('error', 'notConnected')),
  devices: fc.dictionary(
    name,
    fc.record({ state: fc.nat(3), opening: number }, { requiredKeys: ['state'] }),
  ),
  alarm: fc.record({ count: fc.nat(), top: fc.option(top) }),
});
const row = fc.record({
  houseId: int,
  houseName: text,
  farmId: int,
  farmName: text,
  provinceName: fc.option(text),
  networkId: fc.option(text),
  gatewayType: fc.option(int),
  breedName: fc.option(text),
  ageDays: fc.option(int),
  headCount: fc.option(int),
  live,
});

/** Somewhere in the answer, one thing changed: a field's value, a new key, a key taken away. */
const PLACES = ['none', 'list', 'row', 'live', 'alarm', 'top', 'metrics', 'devices', 'device'];
const answer = fc
  .tuple(
    fc.array(row, { maxLength: 3 }),
    fc.constantFrom(...PLACES),
    fc.constantFrom('set', 'add', 'delete'),
    key,
    anyValue,
  )
  .map(([rows, place, how, k, v]) => {
    const data = JSON.parse(JSON.stringify({ rows, total: rows.length })) as {
      rows: Array<Record<string, Record<string, unknown>>>;
    };
    const first = data.rows[0];
    const target: Record<string, unknown> | undefined = {
      none: undefined,
      list: data,
      row: first,
      live: first?.live,
      alarm: first?.live?.alarm as Record<string, unknown> | undefined,
      top: (first?.live?.alarm as { top?: Record<string, unknown> } | undefined)?.top ?? undefined,
      metrics: first?.live?.metrics as Record<string, unknown> | undefined,
      devices: first?.live?.devices as Record<string, unknown> | undefined,
      device: Object.values((first?.live?.devices ?? {}) as Record<string, object>)[0] as
        Record<string, unknown> | undefined,
    }[place];
    if (target) {
      const existing = Object.keys(target);
      const at = existing.length > 0 ? existing[Math.abs(k.length) % existing.length]! : k;
      if (how === 'set') target[at] = v;
      // An own key even when it is `__proto__`, as JSON.parse makes it.
      else if (how === 'add')
        Object.defineProperty(target, k, { value: v, enumerable: true, writable: true });
      else delete target[at];
    }
    return data;
  });

describe('the plain overview check', () => {
  it('accepts only what the overview schema accepts, with the same answer', () => {
    fc.assert(
      fc.property(fc.oneof(answer, answer, answer, fc.jsonValue()), (value) => {
        // As the console gets it: what JSON.parse made of the answer's text.
        const data: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
        const fast = plainOverviewList(data);
        if (fast === null) return;
        const parsed = overviewListSchema.safeParse(JSON.parse(JSON.stringify(value)));
        expect(parsed.success, JSON.stringify(value)).toBe(true);
        expect(fast).toEqual(parsed.data);
      }),
      { numRuns: 10_000 },
    );
  });

  it('takes a well-formed answer itself, without the schema (the fast path is the common one)', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 5 }), (rows) => {
        const data: unknown = JSON.parse(JSON.stringify({ rows, total: rows.length }));
        expect(plainOverviewList(data)).toBe(data);
      }),
      { numRuns: 1_000 },
    );
  });
});
