import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceRuntime } from '../../server/db/devicesSchema';
import { runSecondsSql } from '../../server/devices/runtime';
import { testDatabaseTargets } from '../helpers/databases';
import { MIGRATIONS, migrationsUpTo, openMigrating, type Migrating } from '../helpers/migrations';

/** The last migration with a device_runtime row per port. */
const BEFORE_BY_HOUSE = '0014_warning_limits_receipts_upgrade_types';

/**
 * Run hours counted before device_runtime became a row per house: each port's seconds stay, and
 * counting goes on from its last reading and state.
 */
describe.each(testDatabaseTargets())('device run times by house migration on $name', (target) => {
  let database: Migrating;
  let oldFolder: string;
  let houses: number[];

  beforeAll(async () => {
    oldFolder = migrationsUpTo(BEFORE_BY_HOUSE);
    database = await openMigrating(target.name);
    await database.migrateTo(oldFolder);
    await database.query(`insert into organizations (name, code) values ('Org', 'ORG')`);
    await database.query(
      `insert into farms (org_id, level, name) select id, 'farm', 'Farm' from organizations`,
    );
    houses = (
      await database.query<{ id: number }>(
        `insert into houses (farm_id, name) select f.id, 'H' || g from farms f, generate_series(1, 2) g
         returning id`,
      )
    ).map((h) => h.id);
    await database.query(
      `insert into device_runtime (house_id, device_key, run_seconds, last_ts, last_state) values
         ($1, 'fan_1', 7200.5, '2026-11-20T06:00:00.123Z', 1),
         ($1, 'heater_1', 60, '2026-11-20T05:00:00Z', 0),
         ($2, 'fan_1', 30, '2026-11-21T00:00:00Z', 3)`,
      houses,
    );
    await database.migrateTo(MIGRATIONS);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    if (oldFolder) rmSync(oldFolder, { recursive: true, force: true });
  });

  it("keeps every port's run seconds, last reading and state, one row per house", async () => {
    const rows = await database.query<{ house_id: number; devices: unknown }>(
      'select house_id, devices from device_runtime order by house_id',
    );
    const parsed = rows.map((r) => ({
      houseId: r.house_id,
      devices: typeof r.devices === 'string' ? JSON.parse(r.devices) : r.devices,
    }));
    expect(parsed).toEqual([
      {
        houseId: houses[0],
        devices: {
          fan_1: { run: 7200.5, last: Date.parse('2026-11-20T06:00:00.123Z'), state: 1 },
          heater_1: { run: 60, last: Date.parse('2026-11-20T05:00:00Z'), state: 0 },
        },
      },
      {
        houseId: houses[1],
        devices: { fan_1: { run: 30, last: Date.parse('2026-11-21T00:00:00Z'), state: 3 } },
      },
    ]);
    // The server's own expression, run on the migrated database (which has no Drizzle handle).
    const read = new PgDialect().sqlToQuery(
      sql`select ${runSecondsSql(sql`'fan_1'`)} as s from ${deviceRuntime} where ${deviceRuntime.houseId} = ${houses[0]}`,
    );
    const [fan] = await database.query<{ s: number }>(read.sql, read.params);
    expect(Number(fan?.s)).toBe(7200.5);
  });
});
