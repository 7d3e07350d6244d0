import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { readExtraBuckets, rollExtraDays, writeExtras } from '../../server/devices/extraStore.sql';
import type { Reading } from '../../server/ingest/types';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';
import { houseReading } from '../helpers/readings';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 20, 8, 0);

/** The extra parameters' hand-written statements: the ingest insert, the daily rollup, the trend. */
describe.each(testDatabaseTargets())('extra parameter statements on $name', (target) => {
  let database: Database;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ database, close } = await openTestDatabase(target));
  }, 120_000);
  afterAll(async () => close?.());

  const reading = (houseId: number, ts: number, metrics: Record<string, number>): Reading => ({
    ...houseReading({ gatewayId: 1, houseId, farmId: 1 }, ts, { metrics }),
    extraKeys: Object.keys(metrics).filter((k) => k !== 'temperature'),
  });
  const q = { houseIds: [1, 2], code: 'dust', from: T0 - 24 * HOUR, to: T0 + 48 * HOUR };

  it('stores each reading once and adds only new ones to its hour', async () => {
    await database.transaction(async ({ query }) => {
      await writeExtras(query, [
        reading(1, T0, { dust: 10, temperature: 20 }),
        reading(1, T0 + 60_000, { dust: 14 }),
        reading(1, T0 + HOUR, { dust: 3 }),
        reading(2, T0, { dust: 7 }),
        { ...houseReading({ gatewayId: 1, houseId: 2, farmId: 1 }, T0 + 1), extraKeys: null },
      ]);
    });
    // The resend of a stored reading changes nothing.
    await writeExtras(database.query, [reading(1, T0 + 60_000, { dust: 14 })]);

    const minutes = await readExtraBuckets(database.query, { ...q, granularity: 'minute' }, 'UTC');
    expect(minutes).toEqual([
      { houseId: 1, t: new Date(T0), v: 10, lo: 10, hi: 10 },
      { houseId: 1, t: new Date(T0 + 60_000), v: 14, lo: 14, hi: 14 },
      { houseId: 1, t: new Date(T0 + HOUR), v: 3, lo: 3, hi: 3 },
      { houseId: 2, t: new Date(T0), v: 7, lo: 7, hi: 7 },
    ]);
    const hours = await readExtraBuckets(database.query, { ...q, granularity: 'hour' }, 'UTC');
    expect(hours).toEqual([
      { houseId: 1, t: new Date(T0), v: 12, lo: 10, hi: 14 },
      { houseId: 1, t: new Date(T0 + HOUR), v: 3, lo: 3, hi: 3 },
      { houseId: 2, t: new Date(T0), v: 7, lo: 7, hi: 7 },
    ]);
    expect(
      await readExtraBuckets(database.query, { ...q, code: 'weight', granularity: 'hour' }, 'UTC'),
    ).toEqual([]);
  });

  it("rolls a house's local days up from its hours, and months from the days", async () => {
    const midnight = new Date(Date.UTC(2026, 10, 20));
    await rollExtraDays(database.query, [1, 2], [midnight, midnight], 'UTC');
    const days = await readExtraBuckets(database.query, { ...q, granularity: 'day' }, 'UTC');
    expect(days).toEqual([
      { houseId: 1, t: midnight, v: 9, lo: 3, hi: 14 },
      { houseId: 2, t: midnight, v: 7, lo: 7, hi: 7 },
    ]);
    // Rolled again after a later reading, the day is recomputed, not added to.
    await writeExtras(database.query, [reading(2, T0 + 2 * HOUR, { dust: 9 })]);
    await rollExtraDays(database.query, [2], [midnight], 'UTC');
    const months = await readExtraBuckets(
      database.query,
      { ...q, houseIds: [2], granularity: 'month' },
      'UTC',
    );
    expect(months).toEqual([
      { houseId: 2, t: new Date(Date.UTC(2026, 10, 1)), v: 8, lo: 7, hi: 9 },
    ]);
  });
});
