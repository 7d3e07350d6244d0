import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { farmsUnder, subtreeIds } from '../../server/auth/farmTree.sql';
import type { Database } from '../../server/db/client';
import { farms, organizations } from '../../server/db/schema';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';

describe.each(testDatabaseTargets())('farm tree walks on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;
  // company → area → farm, and a farm straight under the company; a second company apart.
  const ids = { company: 0, area: 0, farmInArea: 0, farmUnderCompany: 0, otherFarm: 0 };

  beforeAll(async () => {
    ({ database, close } = await openTestDatabase(target));
    const db = database.db;
    const [org] = await db
      .insert(organizations)
      .values({ name: 'Tree test', code: 'tree-test' })
      .returning({ id: organizations.id });
    const node = async (level: string, parentId: number | null) => {
      const [row] = await db
        .insert(farms)
        .values({ orgId: org!.id, parentId, level, name: `${level} ${parentId}` })
        .returning({ id: farms.id });
      return row!.id;
    };
    ids.company = await node('company', null);
    ids.area = await node('area', ids.company);
    ids.farmInArea = await node('farm', ids.area);
    ids.farmUnderCompany = await node('farm', ids.company);
    ids.otherFarm = await node('farm', await node('company', null));
  });
  afterAll(() => close?.());

  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

  it('gives a node and every node below it, at any depth, as numbers', async () => {
    const subtree = await subtreeIds(database.db, ids.company);
    expect(sorted(subtree)).toEqual(
      sorted([ids.company, ids.area, ids.farmInArea, ids.farmUnderCompany]),
    );
    expect(subtree.every((id) => typeof id === 'number')).toBe(true);
    expect(sorted(await subtreeIds(database.db, ids.area))).toEqual(
      sorted([ids.area, ids.farmInArea]),
    );
  });

  it('gives only the farms of a subtree, the node itself when it is a farm', async () => {
    const below = await farmsUnder(database.db, ids.company);
    expect(sorted(below)).toEqual(sorted([ids.farmInArea, ids.farmUnderCompany]));
    expect(below.every((id) => typeof id === 'number')).toBe(true);
    expect(await farmsUnder(database.db, ids.farmInArea)).toEqual([ids.farmInArea]);
  });

  it('gives nothing for a node that does not exist', async () => {
    expect(await subtreeIds(database.db, 999_999)).toEqual([]);
    expect(await farmsUnder(database.db, 999_999)).toEqual([]);
  });
});
