import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeOf, type Scope } from '../../server/auth/scope';
import { farms, houses, users } from '../../server/db/schema';
import { DEMO_FARMS } from '../../server/demo/demoFarms';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';

describe.each(testDatabaseTargets())('scope of each demo role on $name', (target) => {
  let t: TestApp;
  const scopeFor = async (username: string): Promise<Scope> => {
    const [user] = await t.database.db.select().from(users).where(eq(users.username, username));
    return scopeOf(t.database.db, {
      id: user!.id,
      roleKey: user!.roleKey as never,
      scopeNodeId: user!.scopeNodeId,
    });
  };
  const farmNames = async (scope: Scope) => {
    if (scope.all) return ['*'];
    const rows = await t.database.db
      .select({ name: farms.name })
      .from(farms)
      .where(inArray(farms.id, [...scope.farmIds]));
    return rows.map((r) => r.name).sort();
  };

  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t?.close());

  it('gives the administrator everything', async () => {
    expect((await scopeFor('admin')).all).toBe(true);
  });

  it("gives the company manager its company's farms and all their houses", async () => {
    const scope = await scopeFor('company');
    const north = DEMO_FARMS.filter((f) => f.company === 'north');
    expect(await farmNames(scope)).toEqual(north.map((f) => f.name).sort());
    expect(scope.all ? -1 : scope.houseIds.size).toBe(north.reduce((n, f) => n + f.houses, 0));
  });

  it('gives area and farm managers their assigned farms only', async () => {
    expect(await farmNames(await scopeFor('area'))).toEqual([
      'Gaocheng Broiler Farm',
      'Weifang Broiler Farm',
    ]);
    const farmScope = await scopeFor('farm');
    expect(await farmNames(farmScope)).toEqual(['Weifang Broiler Farm']);
    expect(farmScope.all ? -1 : farmScope.houseIds.size).toBe(8);
  });

  it('gives the house manager its three houses and nothing else', async () => {
    const scope = await scopeFor('shack');
    expect(scope.all).toBe(false);
    if (scope.all) return;
    const rows = await t.database.db
      .select({ name: houses.name })
      .from(houses)
      .where(inArray(houses.id, [...scope.houseIds]));
    expect(rows.map((r) => r.name).sort()).toEqual(['House 1', 'House 2', 'House 3']);
    expect(await farmNames(scope)).toEqual(['Weifang Broiler Farm']);
  });
});
