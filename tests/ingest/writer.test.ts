import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import type { Reading } from '../../server/ingest/types';
import { storeBatch, writeBatch, type WriteResult } from '../../server/ingest/writer';
import { testDatabaseTargets } from '../helpers/databases';
import { firstDemoHouse, openDemoDatabase, type DemoHouse } from '../helpers/demoDatabase';
import { houseReading } from '../helpers/readings';

/**
 * The batch writer answers which readings were new: the alarms and the live hub act only on
 * those, and the MQTT acknowledgement says stored or duplicate. Most batches are all new and
 * are stored in one statement (storeBatch); a batch holding a reading stored before is
 * refused by that statement whole and written the long way (writeBatch in a transaction, which
 * the demo's past also uses).
 */
describe.each(testDatabaseTargets())('the telemetry batch writer on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;
  let house: DemoHouse;

  beforeAll(async () => {
    ({ database, close } = await openDemoDatabase(target));
    house = await firstDemoHouse(database);
  });
  afterAll(async () => {
    await close?.();
  });

  const reading = (ts: number, temperature: number): Reading =>
    houseReading(house, ts, { metrics: { temperature } });

  const ways: Array<[string, (batch: Reading[]) => Promise<WriteResult>]> = [
    ['storeBatch', (batch) => storeBatch(database, batch)],
    ['writeBatch', (batch) => database.transaction(({ query }) => writeBatch(query, batch))],
  ];

  it.each(ways)(
    '%s stores a reading resent within its own batch once, and one stored before not again',
    async (way, write) => {
      // Each way its own hour of its own day.
      const t0 = Date.UTC(2026, 10, way === 'storeBatch' ? 20 : 21, 8, 0, 0, 123);
      const first = await write([reading(t0, 20), reading(t0, 20), reading(t0 + 1000, 21)]);
      expect(first.inserted.map((r) => r.ts.getTime())).toEqual([t0, t0 + 1000]);
      expect(first.duplicates).toBe(1);

      const second = await write([reading(t0 + 1000, 21), reading(t0 + 2000, 22)]);
      expect(second.inserted.map((r) => r.ts.getTime())).toEqual([t0 + 2000]);
      expect(second.duplicates).toBe(1);
      expect(second.states[0]?.metrics.temperature).toBe(22);

      const all = await write([reading(t0 + 3000, 23)]);
      expect(all.inserted).toHaveLength(1);
      expect(all.duplicates).toBe(0);
      expect(all.states[0]?.metrics.temperature).toBe(23);

      const [stored] = await database.query<{ rows: number; hourly: number; avg: number }>(
        `select (select count(*)::int from telemetry where house_id = $1
                   and ts >= $2 and ts < $2::timestamptz + interval '1 hour') as rows,
                (select readings from telemetry_hourly where house_id = $1 and bucket = $2) as hourly,
                (select temperature_sum / temperature_n from telemetry_hourly
                  where house_id = $1 and bucket = $2) as avg`,
        [house.houseId, new Date(Math.floor(t0 / 3_600_000) * 3_600_000)],
      );
      // Each reading counted once in its hour: nothing of a refused one-statement try stayed.
      expect(stored).toEqual({ rows: 4, hourly: 4, avg: 21.5 });
    },
  );

  it('stores an all-new batch, its hour and the house state together, and answers the state', async () => {
    const t0 = Date.UTC(2026, 10, 22, 9, 0, 0, 0);
    const result = await storeBatch(database, [
      reading(t0 + 2000, 25.5),
      reading(t0, 24),
      reading(t0 + 1000, 25),
    ]);
    expect(result.inserted).toHaveLength(3);
    expect(result.states).toEqual([
      expect.objectContaining({
        houseId: house.houseId,
        online: true,
        metrics: expect.objectContaining({ temperature: 25.5 }),
      }),
    ]);
    const [row] = await database.query<{ readings: number; max: number; last: number }>(
      `select h.readings, h.temperature_max as max,
         (select extract(epoch from last_ts) * 1000 from house_state where house_id = $1)::float8 as last
       from telemetry_hourly h where h.house_id = $1 and h.bucket = $2`,
      [house.houseId, new Date(t0)],
    );
    expect(row).toEqual({ readings: 3, max: 25.5, last: t0 + 2000 });
  });

  it('answers each house merged field by field, the newest reading winning', async () => {
    const t0 = Date.UTC(2026, 10, 23, 9, 0, 0, 0);
    const older = { ...reading(t0, 24), metrics: { temperature: 24, humidity: 61 }, mode: 2 };
    const newer = { ...reading(t0 + 1000, 25), mode: null };
    // The newer reading lacks humidity and a mode: both come from the older one.
    const [partial] = (await storeBatch(database, [newer, older])).states;
    expect(partial).toMatchObject({ metrics: { temperature: 25, humidity: 61 }, mode: 2 });
    // A newer reading with every field wins whole.
    const full = { ...reading(t0 + 3000, 26), metrics: { temperature: 26, humidity: 58 }, mode: 1 };
    const [whole] = (await storeBatch(database, [{ ...reading(t0 + 2000, 30), mode: 2 }, full]))
      .states;
    expect(whole).toMatchObject({ metrics: { temperature: 26, humidity: 58 }, mode: 1 });
  });
});
