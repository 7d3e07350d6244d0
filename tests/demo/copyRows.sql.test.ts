import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC_KEYS } from '../../src/contract/metrics';
import type { Database } from '../../server/db/client';
import { copyRaw, copyRollups } from '../../server/demo/history/copyRows.sql';
import type { Bucket } from '../../server/demo/history/generate';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';
import { houseReading } from '../helpers/readings';

const HOUR_MS = 3_600_000;

/**
 * The demo past's binary COPY. The embedded database only: only it takes the rows with the
 * statement (server/db/client.ts, `copyData`); PostgreSQL writes the past with the inserts of
 * history.sql.ts (tests/demo/history.sql.test.ts).
 */
const embedded = testDatabaseTargets().filter((t) => t.name === 'pglite');

describe.each(embedded)('the demo past copied on $name', (target) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let database: Database;
  beforeAll(async () => {
    db = await openTestDatabase(target);
    database = db.database;
  }, 120_000);
  afterAll(() => db?.close());

  it('copyRaw stores raw readings with their metrics and faults', async () => {
    const house = { gatewayId: 3, houseId: 4, farmId: 1 };
    const t0 = Date.UTC(2025, 3, 1, 8);
    await database.transaction(({ query }) =>
      copyRaw(query, [
        houseReading(house, t0, { seq: 7, metrics: { temperature: 21.5, humidity: 60 } }),
        houseReading(house, t0 + 60_000, {
          mode: null,
          metrics: { temperature: 22 },
          faults: { humidity: 'notConnected' },
        }),
      ]),
    );
    const rows = await database.query<Record<string, unknown>>(
      `select house_id, seq, mode, faults, temperature, humidity from telemetry
       where gateway_id = 3 order by ts`,
    );
    expect(rows).toEqual([
      { house_id: 4, seq: 7, mode: 1, faults: null, temperature: 21.5, humidity: 60 },
      {
        house_id: 4,
        seq: null,
        mode: null,
        faults: { humidity: 'notConnected' },
        temperature: 22,
        humidity: null,
      },
    ]);
  });

  it('copyRollups stores a house’s buckets of the metrics it reported, an empty metric null', async () => {
    const temperature = METRIC_KEYS.indexOf('temperature');
    const agg = new Float64Array(METRIC_KEYS.length * 4);
    agg.set([18.5, 21, 59.5, 3], temperature * 4);
    const t0 = Date.UTC(2025, 3, 2, 5);
    const buckets = new Map<number, Bucket>([
      [t0 + HOUR_MS, { readings: 2, agg: new Float64Array(METRIC_KEYS.length * 4) }],
      [t0, { readings: 3, agg }],
    ]);
    await database.transaction(({ query }) =>
      copyRollups(query, 'telemetry_daily', 6, buckets, [temperature]),
    );
    const rows = await database.query<Record<string, unknown>>(
      `select readings, temperature_min as min, temperature_max as max, temperature_sum as sum,
         temperature_n as n, humidity_n as humidity
       from telemetry_daily where house_id = 6 order by bucket`,
    );
    expect(rows).toEqual([
      { readings: 3, min: 18.5, max: 21, sum: 59.5, n: 3, humidity: null },
      { readings: 2, min: null, max: null, sum: null, n: 0, humidity: null },
    ]);
  });
});
