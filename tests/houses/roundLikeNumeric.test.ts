import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { roundDouble, roundReal } from '../../server/houses/roundLikeNumeric';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';

/**
 * The trend rounds in JavaScript what it used to round in SQL (`round(x::numeric, 3)`): the two
 * must agree on every value, ties and near-ties above all, for `double precision` and `real`.
 */
function sample(): number[] {
  const values = [
    0,
    0.0005,
    -0.0005,
    0.0004999,
    2.0005,
    20.1235,
    -20.1235,
    1234.5678,
    99.99995,
    999999.5,
    1234565,
    1e-7,
    123456789.125,
    1e14 + 0.5,
    12345678901234.25,
    21.1,
    1350.25,
  ];
  // A fixed pseudo-random sequence: the same values on every run.
  let seed = 7;
  const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  for (let i = 0; i < 4_000; i += 1) {
    const digits = Math.floor(next() * 7);
    const v = [
      next() * 10 ** (Math.floor(next() * 16) - 7),
      Math.round(next() * 1e5) / 10 ** digits,
      Math.round(next() * 2e4 + 1) / 2 / 10 ** digits,
      (Math.floor(next() * 2e6) + 0.5) / 1000,
    ][i % 4]!;
    values.push(next() < 0.3 ? -v : v);
  }
  return values;
}

describe.each(testDatabaseTargets())('rounding like round(x::numeric, 3) on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, close } = await openTestDatabase(target));
  });
  afterAll(() => close?.());

  it('gives what the database gives, for double precision and real', async () => {
    const values = sample();
    const rows = await database.query<{ d: string; r: string; real: string }>(
      `select round(x::numeric, 3)::text as d, round(x::real::numeric, 3)::text as r,
         x::real::text as real
       from unnest($1::float8[]) with ordinality u(x, i) order by i`,
      [values],
    );
    const mismatches = values.flatMap((x, i) => {
      const row = rows[i]!;
      const expected = { d: Number(row.d) + 0, r: Number(row.r) + 0 };
      // The real as the database prints it (shortest) is what the trend reads.
      const got = { d: roundDouble(x), r: roundReal(Number(row.real)) };
      return Object.is(got.d, expected.d) && Object.is(got.r, expected.r)
        ? []
        : [{ x, expected, got }];
    });
    expect(mismatches.slice(0, 5)).toEqual([]);
  });
});
