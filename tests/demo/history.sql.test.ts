import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC_KEYS } from '../../src/contract/metrics';
import type { Database } from '../../server/db/client';
import type { Bucket, HouseHistory } from '../../server/demo/history/generate';
import {
  insertDemoDays,
  insertPastAlarms,
  insertPastFlocks,
  insertRollups,
} from '../../server/demo/history/history.sql';
import { testDatabaseTargets } from '../helpers/databases';
import { firstDemoHouse, openDemoDatabase, type DemoHouse } from '../helpers/demoDatabase';

const HOUR_MS = 3_600_000;

/** The demo past's bulk inserts (PostgreSQL's way of writing it), each on its own. */
describe.each(testDatabaseTargets())('the demo history statements on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;
  let house: DemoHouse;

  beforeAll(async () => {
    ({ database, close } = await openDemoDatabase(target));
    house = await firstDemoHouse(database);
  }, 180_000);
  afterAll(async () => {
    await close?.();
  });

  it('insertPastFlocks stores closed flocks of the open flock’s breed', async () => {
    await insertPastFlocks(database, [
      {
        houseId: house.houseId,
        placedOn: '2025-01-02',
        ageAtPlacement: 1,
        headCount: 20_000,
        closedOn: '2025-02-14',
      },
    ]);
    const rows = await database.query<{ placed: string; closed: string; n: number; same: boolean }>(
      `select placed_on::text as placed, closed_on::text as closed, head_count as n,
         breed_id is not distinct from (select breed_id from flocks where house_id = $1 and closed_on is null) as same
       from flocks where house_id = $1 and closed_on is not null`,
      [house.houseId],
    );
    expect(rows).toEqual([{ placed: '2025-01-02', closed: '2025-02-14', n: 20_000, same: true }]);
  });

  it('insertRollups stores a house’s buckets of the metrics it reported, the others null', async () => {
    const temperature = METRIC_KEYS.indexOf('temperature');
    const agg = new Float64Array(METRIC_KEYS.length * 4);
    agg.set([18.5, 21, 59.123456, 3], temperature * 4);
    const empty = new Float64Array(METRIC_KEYS.length * 4);
    const t0 = Date.UTC(2025, 2, 1, 5);
    const buckets = new Map<number, Bucket>([
      [t0 + HOUR_MS, { readings: 2, agg: empty }],
      [t0, { readings: 3, agg }],
    ]);
    await database.transaction(({ query }) =>
      insertRollups(query, 'telemetry_hourly', house.houseId, buckets, [temperature]),
    );
    const rows = await database.query<{
      readings: number;
      min: number | null;
      max: number | null;
      sum: number | null;
      n: number | null;
      humidity: number | null;
    }>(
      `select readings, temperature_min as min, temperature_max as max, temperature_sum as sum,
         temperature_n as n, humidity_n as humidity
       from telemetry_hourly where house_id = $1 and bucket >= $2 order by bucket`,
      [house.houseId, new Date(t0)],
    );
    expect(rows).toEqual([
      { readings: 3, min: 18.5, max: 21, sum: 59.1235, n: 3, humidity: null },
      { readings: 2, min: null, max: null, sum: null, n: 0, humidity: null },
    ]);
  });

  it('insertPastAlarms stores the past’s alarms cleared by their condition', async () => {
    const raised = Date.UTC(2025, 2, 2, 5);
    const alarms: HouseHistory['alarms'] = [
      {
        cause: 'temperatureHigh',
        subject: 'temperature',
        severity: 'major',
        value: 31.5,
        limit: 30,
        text: null,
        raisedAt: raised,
        endedAt: raised + HOUR_MS,
        clearedAt: raised + 2 * HOUR_MS,
        occurrences: 2,
      },
    ];
    await database.transaction(({ query }) =>
      insertPastAlarms(query, house, { raw: [], hours: new Map(), alarms, lastTs: raised }),
    );
    const rows = await database.query<Record<string, unknown>>(
      `select farm_id, cause, state, value, limit_value, cleared_by, occurrences,
         (extract(epoch from cleared_at) * 1000)::float8 as cleared
       from alarms where house_id = $1 and raised_at = $2`,
      [house.houseId, new Date(raised)],
    );
    expect(rows).toEqual([
      {
        farm_id: house.farmId,
        cause: 'temperatureHigh',
        state: 'cleared',
        value: 31.5,
        limit_value: 30,
        cleared_by: 'condition',
        occurrences: 2,
        cleared: raised + 2 * HOUR_MS,
      },
    ]);
  });

  it('insertDemoDays stores daily records and keeps a day recorded before', async () => {
    const [flock] = await database.query<{ id: number }>(
      'select id from flocks where house_id = $1 and closed_on is null',
      [house.houseId],
    );
    const day = {
      flockId: flock!.id,
      day: '2025-03-03',
      deathsAm: 3,
      deathsPm: 2,
      cullsAm: 1,
      cullsPm: 0,
      feedKg: 812.5,
      eggs: null,
      eggKg: null,
      bodyWeightG: 950,
      uniformity: 85,
    };
    await insertDemoDays(database, [day]);
    await insertDemoDays(database, [{ ...day, deathsAm: 99 }]);
    const rows = await database.query<Record<string, unknown>>(
      `select deaths_am, deaths_pm, feed_kg, eggs, body_weight_g from daily_records
       where flock_id = $1 and day = '2025-03-03'`,
      [flock!.id],
    );
    expect(rows).toEqual([
      { deaths_am: 3, deaths_pm: 2, feed_kg: 812.5, eggs: null, body_weight_g: 950 },
    ]);
  });
});
