import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { dailyRecords } from '../../server/db/productionSchema';
import { farms, flocks, houses, organizations } from '../../server/db/schema';
import { readFlockRecords } from '../../server/production/flockKpis.sql';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';

const day = (
  flockId: number,
  on: string,
  over: Partial<typeof dailyRecords.$inferInsert> = {},
) => ({
  flockId,
  day: on,
  deathsAm: 1,
  deathsPm: 2,
  cullsAm: 0,
  cullsPm: 1,
  feedKg: 412.5,
  ...over,
});

/** The KPIs' records read: every column, typed, in flock then day order. */
describe.each(testDatabaseTargets())('flock records for the KPIs on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;
  let first: number;
  let second: number;
  let empty: number;

  beforeAll(async () => {
    ({ database, close } = await openTestDatabase(target));
    const { db } = database;
    const [org] = await db
      .insert(organizations)
      .values({ name: 'KPI org', code: 'kpi-org' })
      .returning({ id: organizations.id });
    const [farm] = await db
      .insert(farms)
      .values({ orgId: org!.id, level: 'farm', name: 'Farm' })
      .returning({ id: farms.id });
    const made = await db
      .insert(houses)
      .values([
        { farmId: farm!.id, name: 'A' },
        { farmId: farm!.id, name: 'B' },
        { farmId: farm!.id, name: 'C' },
      ])
      .returning({ id: houses.id });
    const placed = await db
      .insert(flocks)
      .values(made.map((h) => ({ houseId: h.id, placedOn: '2026-10-01', headCount: 20_000 })))
      .returning({ id: flocks.id });
    [first, second, empty] = placed.map((f) => f.id).sort((a, b) => a - b) as [
      number,
      number,
      number,
    ];
    // Inserted out of order: the statement orders them.
    await db
      .insert(dailyRecords)
      .values([
        day(second, '2026-10-02', { eggs: 18_000, eggKg: 1_080.25, waterL: 3_000 }),
        day(first, '2026-10-03'),
        day(first, '2026-10-02', { bodyWeightG: 42.5 }),
      ]);
  });
  afterAll(async () => {
    await close?.();
  });

  it('answers each record once, by flock then day, numbers as numbers and null as not measured', async () => {
    const rows = await readFlockRecords(database, [second, first, empty]);
    expect(rows.map((r) => [r.flockId, r.day])).toEqual([
      [first, '2026-10-02'],
      [first, '2026-10-03'],
      [second, '2026-10-02'],
    ]);
    expect(rows.find((r) => r.flockId === first && r.day === '2026-10-02')).toEqual({
      flockId: first,
      day: '2026-10-02',
      deathsAm: 1,
      deathsPm: 2,
      cullsAm: 0,
      cullsPm: 1,
      feedKg: 412.5,
      waterL: null,
      eggs: null,
      eggKg: null,
      bodyWeightG: 42.5,
    });
    expect(rows.find((r) => r.flockId === second)).toMatchObject({
      eggs: 18_000,
      eggKg: 1_080.25,
      waterL: 3_000,
      bodyWeightG: null,
    });
  });

  it('answers nothing for flocks without records, or for no flocks', async () => {
    expect(await readFlockRecords(database, [empty])).toEqual([]);
    expect(await readFlockRecords(database, [])).toEqual([]);
  });
});
