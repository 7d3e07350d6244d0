import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { alarms } from '../../server/db/alarmSchema';
import { farms, houses, organizations } from '../../server/db/schema';
import { houseState } from '../../server/db/telemetrySchema';
import { readWallFarmCounts } from '../../server/wall/wallQueries.sql';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';

/** The wall's farm counts on a small tree whose every count is known by hand. */
describe.each(testDatabaseTargets())('wall farm counts on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;
  /** North: h1 online with 2 open alarms (one acknowledged), h2 offline, h3 never heard from. */
  let north: number;
  /** South: one online house without alarms. */
  let south: number;
  let h1: number;
  let h2: number;

  beforeAll(async () => {
    ({ database, close } = await openTestDatabase(target));
    const { db } = database;
    const [org] = await db
      .insert(organizations)
      .values({ name: 'Wall org', code: 'wall-org' })
      .returning({ id: organizations.id });
    const [group] = await db
      .insert(farms)
      .values({ orgId: org!.id, level: 'company', name: 'Company' })
      .returning({ id: farms.id });
    [{ id: north }, { id: south }] = (await db
      .insert(farms)
      .values([
        {
          orgId: org!.id,
          parentId: group!.id,
          level: 'farm',
          name: 'North',
          provinceAdcode: '370000',
          provinceName: '山东省',
          longitude: 119.5,
          latitude: 36.25,
        },
        { orgId: org!.id, parentId: group!.id, level: 'farm', name: 'South' },
      ])
      .returning({ id: farms.id })) as [{ id: number }, { id: number }];
    const made = await db
      .insert(houses)
      .values([
        { farmId: north, name: 'H1' },
        { farmId: north, name: 'H2' },
        { farmId: north, name: 'H3' },
        { farmId: south, name: 'S1' },
      ])
      .returning({ id: houses.id });
    [h1, h2] = [made[0]!.id, made[1]!.id];
    await db.insert(houseState).values([
      { houseId: h1, online: true, alarmCount: 2 },
      { houseId: h2, online: false, alarmCount: 0 },
      { houseId: made[3]!.id, online: true, alarmCount: 0 },
    ]);
    const raisedAt = new Date('2026-11-01T08:00:00Z');
    await db.insert(alarms).values([
      { houseId: h1, farmId: north, cause: 'nh3High', severity: 'major', raisedAt },
      {
        houseId: h1,
        farmId: north,
        cause: 'tempHigh',
        severity: 'major',
        raisedAt,
        state: 'acknowledged',
      },
    ]);
  });
  afterAll(async () => {
    await close?.();
  });

  it('counts each farm node in scope, by name, with typed numbers and its map position', async () => {
    expect(await readWallFarmCounts(database, { all: true })).toEqual([
      {
        farmId: north,
        name: 'North',
        provinceAdcode: '370000',
        provinceName: '山东省',
        longitude: 119.5,
        latitude: 36.25,
        houseCount: 3,
        alarmHouses: 1,
        offlineHouses: 2,
        alarmCount: 2,
        unacknowledged: 1,
      },
      {
        farmId: south,
        name: 'South',
        provinceAdcode: null,
        provinceName: null,
        longitude: null,
        latitude: null,
        houseCount: 1,
        alarmHouses: 0,
        offlineHouses: 0,
        alarmCount: 0,
        unacknowledged: 0,
      },
    ]);
  });

  it("counts only the scope's farms and houses, and follows the province and farm filters", async () => {
    const scope = { all: false, farmIds: new Set([north]), houseIds: new Set([h2]) } as const;
    expect(await readWallFarmCounts(database, scope)).toEqual([
      expect.objectContaining({
        farmId: north,
        houseCount: 1,
        alarmHouses: 0,
        offlineHouses: 1,
        alarmCount: 0,
        unacknowledged: 0,
      }),
    ]);
    const byProvince = await readWallFarmCounts(database, { all: true }, { adcode: '370000' });
    expect(byProvince.map((f) => f.farmId)).toEqual([north]);
    const byFarm = await readWallFarmCounts(database, { all: true }, { farmId: south });
    expect(byFarm.map((f) => f.farmId)).toEqual([south]);
  });
});
