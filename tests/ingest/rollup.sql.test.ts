import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import {
  deleteOldRawSlice,
  rollDays,
  takeDirtyDays,
  vacuumRaw,
} from '../../server/ingest/rollup.sql';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';

const HOUR_MS = 3_600_000;
const ZONE = 'Asia/Shanghai';

/** The rollup's and the raw retention's statements, each on its own. */
describe.each(testDatabaseTargets())('the rollup statements on $name', (target) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let database: Database;
  beforeAll(async () => {
    db = await openTestDatabase(target);
    database = db.database;
  }, 120_000);
  afterAll(() => db?.close());

  it('takeDirtyDays takes the marked hours and answers each house and local day once', async () => {
    // 2026-10-01 in Shanghai starts at 2026-09-30T16:00Z: 15:00Z is the day before, 16:00Z and
    // 17:00Z the same day.
    const day = Date.UTC(2026, 8, 30, 16);
    await database.query(
      `insert into rollup_dirty (house_id, hour)
       select * from unnest($1::int[], $2::timestamptz[])`,
      [[7, 7, 7, 8], [day - HOUR_MS, day, day + HOUR_MS, day].map((t) => new Date(t))],
    );
    const taken = await database.transaction(({ query }) => takeDirtyDays(query, ZONE));
    const days = taken
      .map((d) => ({ houseId: d.houseId, day: new Date(d.day).getTime(), taken: d.taken }))
      .sort((a, b) => a.houseId - b.houseId || a.day - b.day);
    expect(days).toEqual([
      { houseId: 7, day: day - 24 * HOUR_MS, taken: 4 },
      { houseId: 7, day, taken: 4 },
      { houseId: 8, day, taken: 4 },
    ]);
    const left = await database.query<{ n: number }>('select count(*)::int as n from rollup_dirty');
    expect(left[0]?.n).toBe(0);
  });

  it('rollDays sums a local day of hourly rows into its daily row, again exactly when rerun', async () => {
    const day = Date.UTC(2026, 9, 1, 16);
    await database.query(
      `insert into telemetry_hourly (house_id, bucket, readings, temperature_min, temperature_max,
         temperature_sum, temperature_n)
       select * from unnest($1::int[], $2::timestamptz[], $3::int[], $4::real[], $5::real[],
         $6::float8[], $7::int[])`,
      [
        [9, 9, 9],
        // The last hour belongs to the next local day.
        [day, day + HOUR_MS, day + 24 * HOUR_MS].map((t) => new Date(t)),
        [2, 3, 5],
        [18, 17.5, 30],
        [19, 21, 31],
        [37, 58, 150],
        [2, 3, 5],
      ],
    );
    const read = () =>
      database.query<{ readings: number; min: number; max: number; sum: number; n: number }>(
        `select readings, temperature_min as min, temperature_max as max, temperature_sum as sum,
           temperature_n as n from telemetry_daily where house_id = 9 order by bucket`,
      );
    for (let pass = 0; pass < 2; pass += 1) {
      await database.transaction(({ query }) => rollDays(query, [9], [new Date(day)], ZONE));
      expect(await read()).toEqual([{ readings: 5, min: 17.5, max: 21, sum: 95, n: 5 }]);
    }
  });

  it('deleteOldRawSlice deletes the raw rows older than the retention only, and vacuumRaw runs after it', async () => {
    await database.query(
      `insert into telemetry (gateway_id, house_id, ts, temperature)
       select 1, 1, now() - make_interval(days => d), 20 from unnest(array[1, 8, 9, 30]) d`,
    );
    expect(await deleteOldRawSlice(database, 7)).toBe(3);
    expect(await deleteOldRawSlice(database, 7)).toBe(0);
    const left = await database.query<{ n: number }>('select count(*)::int as n from telemetry');
    expect(left[0]?.n).toBe(1);
    await expect(vacuumRaw(database)).resolves.toBeUndefined();
  });
});
