import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryArray, float4ArrayOf, numberArray } from '../../server/db/binaryArray';
import { BinaryCopy, copyStatement } from '../../server/db/binaryCopy';
import type { Database } from '../../server/db/client';
import { openDatabase } from '../../server/db/open';
import { testDatabaseTargets } from '../helpers/databases';

describe('binary COPY into the embedded database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
    await database.query(
      'create table copied (a smallint, b int, c real, d float8, e timestamptz, f jsonb)',
    );
  }, 120_000);
  afterAll(() => database?.close());

  it('stores every value as given: negatives, nulls, old dates, Chinese text, and many rows', async () => {
    const copy = new BinaryCopy(['int2', 'int4', 'float4', 'float8', 'timestamptz', 'jsonb']);
    copy.row([
      -3,
      -2_000_000,
      -12.5,
      0.1 + 0.2,
      new Date('1999-12-31T23:59:59.250Z'),
      '{"温度":"断线"}',
    ]);
    copy.row([null, undefined, null, null, null, null]);
    for (let i = 0; i < 20_000; i += 1)
      copy.row([i % 100, i, i / 4, i * 1.5, Date.UTC(2026, 10, 23) + i * 60_000, null]);
    const columns = ['a', 'b', 'c', 'd', 'e', 'f'];
    await database.transaction(({ query }) =>
      query(copyStatement('copied', columns), [], { copyData: copy.finish() }),
    );
    const [first] = await database.query<Record<string, unknown>>(
      'select a, b, c, d, e, f from copied where b = -2000000',
    );
    expect(first).toEqual({
      a: -3,
      b: -2_000_000,
      c: -12.5,
      d: 0.1 + 0.2,
      e: new Date('1999-12-31T23:59:59.250Z'),
      f: { 温度: '断线' },
    });
    const [nulls] = await database.query<{ n: number }>(
      'select count(*)::int as n from copied where a is null and b is null and e is null and f is null',
    );
    expect(nulls!.n).toBe(1);
    const [sum] = await database.query<{ n: number; last: Date }>(
      'select count(*)::int as n, max(e) as last from copied where b >= 0',
    );
    expect(sum).toEqual({ n: 20_000, last: new Date(Date.UTC(2026, 10, 23) + 19_999 * 60_000) });
  });

  const postgres = testDatabaseTargets().find((t) => t.name === 'postgres');
  it.runIf(postgres)(
    'refuses copy data on PostgreSQL instead of sending a statement that would wait for it',
    async () => {
      const created = await postgres!.create();
      const other = await openDatabase(created.target);
      try {
        await expect(
          other.query('copy x from stdin', [], { copyData: new Uint8Array(1) }),
        ).rejects.toThrow(/embedded database only/);
      } finally {
        await other.close();
        await created.drop();
      }
    },
    120_000,
  );
});

describe.each(testDatabaseTargets())('binary array parameters on $name', (target) => {
  it('reads every value back as given: nulls, numbers that are not finite, old dates, Chinese text', async () => {
    const created = await target.create();
    const database = await openDatabase(created.target);
    try {
      const [row] = await database.query<Record<string, unknown>>(
        'select $1::smallint[] as a, $2::int[] as b, $3::real[] as c, $4::float8[] as d, $5::timestamptz[] as e, $6::jsonb[] as f, $7::text[] as g, $8::real[] as h',
        [
          binaryArray('int2', [-3, null, 255]),
          binaryArray('int4', [-2_000_000, undefined]),
          // A reading's NaN or Infinity is no number to store: NULL, as the text arrays sent.
          binaryArray('float4', [-12.5, Number.NaN, Number.POSITIVE_INFINITY, 23.4]),
          binaryArray('float8', [0.1 + 0.2, 1e300]),
          binaryArray('timestamptz', [
            new Date('1999-12-31T23:59:59.250Z'),
            null,
            Date.UTC(2026, 10, 23, 8, 30),
          ]),
          binaryArray('jsonb', ['{"温度":"断线"}', null]),
          binaryArray('text', ['fan_1', '', null, '风机 "2"\\']),
          // One metric of each reading, read straight from the readings (the raw insert).
          float4ArrayOf([{ t: -12.5 }, { t: Number.NaN }, {}, { t: null }, { t: 23.4, h: 1 }], 't'),
        ],
      );
      expect(row).toEqual({
        a: [-3, null, 255],
        b: [-2_000_000, null],
        c: [-12.5, null, null, 23.4],
        d: [0.1 + 0.2, 1e300],
        e: [new Date('1999-12-31T23:59:59.250Z'), null, new Date(Date.UTC(2026, 10, 23, 8, 30))],
        f: [{ 温度: '断线' }, null],
        g: ['fan_1', '', null, '风机 "2"\\'],
        h: [-12.5, null, null, null, 23.4],
      });
    } finally {
      await database.close();
      await created.drop();
    }
  }, 120_000);
});

describe('numberArray', () => {
  it('writes the very bytes binaryArray writes, nulls and numbers that are not finite included', () => {
    const notANumber = fc.constantFrom(null, Number.NaN, Number.POSITIVE_INFINITY);
    // int4 holds whole numbers only: the writer hands it counts and ids.
    const int4 = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), notANumber);
    const real = fc.oneof(fc.double(), fc.constantFrom(-0, 0.1 + 0.2, 1e-40), notANumber);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(fc.constant('int4' as const), fc.array(int4, { maxLength: 40 })),
          fc.tuple(
            fc.constantFrom('float4' as const, 'float8' as const),
            fc.array(real, { maxLength: 40 }),
          ),
        ),
        ([type, values]) => {
          expect(numberArray(type, values)).toEqual(binaryArray(type, values));
        },
      ),
      { numRuns: 3_000 },
    );
  });
});
