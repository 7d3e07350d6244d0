import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import {
  applyInserted,
  insertRaw,
  insertRawRows,
  writeNewBatch,
} from '../../server/ingest/batch.sql';
import type { Reading } from '../../server/ingest/types';
import { applyParams, rawInsertParams } from '../../server/ingest/writer';
import { testDatabaseTargets } from '../helpers/databases';
import { firstDemoHouse, openDemoDatabase, type DemoHouse } from '../helpers/demoDatabase';
import { houseReading } from '../helpers/readings';

const HOUR_MS = 3_600_000;

/**
 * The batch insert's statements, each on its own: what they answer and what they write. How
 * the writer chooses between them is tests/ingest/writer.test.ts.
 */
describe.each(testDatabaseTargets())('the batch insert statements on $name', (target) => {
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

  const reading = (ts: number, temperature: number): Reading =>
    houseReading(house, ts, { metrics: { temperature } });
  const rawRows = async (from: number) =>
    (
      await database.query<{ n: number }>(
        `select count(*)::int as n from telemetry where gateway_id = $1 and ts >= $2 and ts < $3`,
        [house.gatewayId, new Date(from), new Date(from + HOUR_MS)],
      )
    )[0]?.n;
  const hour = async (bucket: number) =>
    (
      await database.query<{ readings: number; min: number; max: number; dirty: boolean }>(
        `select h.readings, h.temperature_min as min, h.temperature_max as max,
           exists (select 1 from rollup_dirty d where d.house_id = h.house_id and d.hour = h.bucket) as dirty
         from telemetry_hourly h where h.house_id = $1 and h.bucket = $2`,
        [house.houseId, new Date(bucket)],
      )
    )[0];

  it('insertRawRows stores the rows and skips one stored before', async () => {
    const t0 = Date.UTC(2026, 9, 1, 8);
    await database.transaction(({ query }) =>
      insertRawRows(query, rawInsertParams([reading(t0, 20), reading(t0 + 1000, 21)])),
    );
    await database.transaction(({ query }) =>
      insertRawRows(query, rawInsertParams([reading(t0 + 1000, 21), reading(t0 + 2000, 22)])),
    );
    expect(await rawRows(t0)).toBe(3);
  });

  it('insertRaw answers the count of new rows, and their keys only when some were not new', async () => {
    const t0 = Date.UTC(2026, 9, 2, 8);
    const allNew = await database.transaction(({ query }) =>
      insertRaw(query, rawInsertParams([reading(t0, 20), reading(t0 + 1000, 21)])),
    );
    expect(allNew).toEqual({ n: 2, keys: null });
    const some = await database.transaction(({ query }) =>
      insertRaw(query, rawInsertParams([reading(t0 + 1000, 21), reading(t0 + 2000, 22)])),
    );
    expect(some).toEqual({ n: 1, keys: [[house.gatewayId, t0 + 2000]] });
    expect(await rawRows(t0)).toBe(3);
  });

  it('applyInserted adds the readings to their hour, marks it dirty and answers the new state', async () => {
    const t0 = Date.UTC(2026, 9, 3, 8);
    const batch = [reading(t0, 20), reading(t0 + 1000, 23)];
    const states = await database.transaction(({ query }) =>
      applyInserted(query, applyParams(batch, [batch[1]!])),
    );
    expect(states).toEqual([
      expect.objectContaining({
        house_id: house.houseId,
        online: true,
        metrics: expect.objectContaining({ temperature: 23 }),
      }),
    ]);
    expect(await hour(t0)).toEqual({ readings: 2, min: 20, max: 23, dirty: true });
  });

  it('writeNewBatch stores an all-new batch whole and answers the new state', async () => {
    const t0 = Date.UTC(2026, 9, 4, 8);
    const batch = [reading(t0, 24), reading(t0 + 1000, 25.5)];
    const states = await writeNewBatch(
      database,
      rawInsertParams(batch),
      applyParams(batch, [batch[1]!]),
    );
    expect(states).toEqual([
      expect.objectContaining({
        house_id: house.houseId,
        metrics: expect.objectContaining({ temperature: 25.5 }),
      }),
    ]);
    expect(await rawRows(t0)).toBe(2);
    expect(await hour(t0)).toEqual({ readings: 2, min: 24, max: 25.5, dirty: true });
  });

  it('writeNewBatch answers null for a batch holding a reading stored before, and keeps none of it', async () => {
    const t0 = Date.UTC(2026, 9, 5, 8);
    const first = [reading(t0, 24)];
    await writeNewBatch(database, rawInsertParams(first), applyParams(first, first));
    const batch = [reading(t0, 24), reading(t0 + 1000, 30)];
    expect(
      await writeNewBatch(database, rawInsertParams(batch), applyParams(batch, [batch[1]!])),
    ).toBeNull();
    expect(await rawRows(t0)).toBe(1);
    expect(await hour(t0)).toEqual({ readings: 1, min: 24, max: 24, dirty: true });
  });
});
