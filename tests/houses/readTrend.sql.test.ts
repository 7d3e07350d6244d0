import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { readTrend, readTrends } from '../../server/houses/readTrend.sql';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';

const HOUR_MS = 3_600_000;
const ZONE = 'UTC';

/**
 * The trend read: a house's buckets from the rollups (minutes from raw rows, months from days),
 * decoded from the statement's bytes: times in order, means and totals, min and max, nulls kept.
 */
describe.each(testDatabaseTargets())('the trend statement on $name', (target) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let database: Database;
  const t0 = Date.UTC(2026, 9, 1, 0);

  beforeAll(async () => {
    db = await openTestDatabase(target);
    database = db.database;
    // House 5: two hours of temperature and water, the second without temperature; house 6 none.
    await database.query(
      `insert into telemetry_hourly (house_id, bucket, readings, temperature_min, temperature_max,
         temperature_sum, temperature_n, water_min, water_max, water_sum, water_n)
       select * from unnest($1::int[], $2::timestamptz[], $3::int[], $4::real[], $5::real[],
         $6::float8[], $7::int[], $8::real[], $9::real[], $10::float8[], $11::int[])`,
      [
        [5, 5],
        [new Date(t0 + HOUR_MS), new Date(t0)],
        [3, 2],
        [null, 18.25],
        [null, 19.5],
        [null, 37.75],
        [0, 2],
        [1, 2],
        [4, 3],
        [7.5, 5],
        [3, 2],
      ],
    );
    await database.query(
      `insert into telemetry (gateway_id, house_id, ts, temperature)
       select 1, 5, t, v from unnest($1::timestamptz[], $2::real[]) u(t, v)`,
      [[t0, t0 + 20_000, t0 + 60_000].map((t) => new Date(t)), [20, 21, 22]],
    );
  }, 120_000);
  afterAll(() => db?.close());

  it('reads hours from the hourly rollup: a mean, a counter total, min, max and nulls', async () => {
    const trend = await readTrend(
      database,
      {
        houseId: 5,
        metrics: ['temperature', 'water'],
        from: t0,
        to: t0 + 2 * HOUR_MS,
        granularity: 'hour',
      },
      ZONE,
    );
    expect(trend).toEqual({
      houseId: 5,
      granularity: 'hour',
      times: [t0, t0 + HOUR_MS],
      series: {
        temperature: { avg: [18.875, null], min: [18.25, null], max: [19.5, null] },
        water: { avg: [5, 7.5], min: [2, 1], max: [3, 4] },
      },
    });
  });

  it('reads minutes from raw rows, and several houses in the order asked, averages only', async () => {
    const trends = await readTrends(
      database,
      {
        houseIds: [6, 5],
        metrics: ['temperature'],
        from: t0,
        to: t0 + 2 * 60_000,
        granularity: 'minute',
        parts: ['avg'],
      },
      ZONE,
    );
    expect(trends).toEqual([
      {
        houseId: 6,
        granularity: 'minute',
        times: [],
        series: { temperature: { avg: [], min: [], max: [] } },
      },
      {
        houseId: 5,
        granularity: 'minute',
        times: [t0, t0 + 60_000],
        series: { temperature: { avg: [20.5, 22], min: [], max: [] } },
      },
    ]);
  });
});
