import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { MIGRATIONS, migrationsUpTo, openMigrating, type Migrating } from '../helpers/migrations';

/** The last migration before a camera's code became unique across the installation. */
const BEFORE_UNIQUE_CODE = '0016_camera_name_per_house';

/**
 * Cameras sharing a code before 0017 (in two organisations, or three times): the migration does
 * not fail, the oldest keeps its code, each later one gets `-<id>`, and no code is shared after.
 */
describe.each(testDatabaseTargets())('camera code migration on $name', (target) => {
  let database: Migrating;
  let oldFolder: string;
  let ids: number[];

  beforeAll(async () => {
    oldFolder = migrationsUpTo(BEFORE_UNIQUE_CODE);
    database = await openMigrating(target.name);
    await database.migrateTo(oldFolder);
    await database.query(`insert into organizations (name, code) values ('A', 'A'), ('B', 'B')`);
    await database.query(
      `insert into farms (org_id, level, name) select id, 'farm', name from organizations`,
    );
    await database.query(`insert into houses (farm_id, name) select id, 'H' from farms`);
    ids = (
      await database.query<{ id: number; name: string }>(
        `insert into cameras (org_id, house_id, name, code, vendor)
         select f.org_id, h.id, v.name, v.code, 'dahua'
         from (values ('A', 'c1', 'CAM-1'), ('B', 'c2', 'CAM-1'), ('B', 'c3', 'CAM-1'),
                      ('A', 'c4', 'CAM-2')) as v(org, name, code)
         join farms f on f.name = v.org join houses h on h.farm_id = f.id
         order by v.name returning cameras.id, cameras.name`,
      )
    )
      .sort((x, y) => x.name.localeCompare(y.name))
      .map((r) => r.id);
    await database.migrateTo(MIGRATIONS);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    if (oldFolder) rmSync(oldFolder, { recursive: true, force: true });
  });

  it('keeps the first code, suffixes later duplicates with their id, and then refuses a shared code', async () => {
    const rows = await database.query<{ id: number; code: string }>(
      'select id, code from cameras order by id',
    );
    const [a, b, c, d] = ids;
    expect(rows).toEqual([
      { id: a, code: 'CAM-1' },
      { id: b, code: `CAM-1-${b}` },
      { id: c, code: `CAM-1-${c}` },
      { id: d, code: 'CAM-2' },
    ]);
    await expect(
      database.query(
        `insert into cameras (org_id, house_id, name, code, vendor)
         select org_id, house_id, 'c5', 'CAM-2', 'dahua' from cameras where id = $1`,
        [b],
      ),
    ).rejects.toMatchObject({ code: '23505' });
  });
});
