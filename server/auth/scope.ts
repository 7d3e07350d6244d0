import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { houses, userFarms, userHouses } from '../db/schema';
import { farmsUnder } from './farmTree.sql';
import type { SessionUser } from './sessions';

/**
 * What a user may see. `all` for administrators; otherwise the farm and house ids. Every
 * handler filters with this, never with ids the client sends.
 */
export type Scope =
  { all: true } | { all: false; farmIds: ReadonlySet<number>; houseIds: ReadonlySet<number> };

type ScopeUser = Pick<SessionUser, 'id' | 'roleKey' | 'scopeNodeId'>;

export async function scopeOf(db: Db, user: ScopeUser): Promise<Scope> {
  switch (user.roleKey) {
    case 'administrator':
      return { all: true };
    case 'company_manager':
      return user.scopeNodeId === null
        ? emptyScope()
        : housesOfFarms(db, await farmsUnder(db, user.scopeNodeId));
    case 'area_manager':
    case 'farm_manager': {
      const rows = await db
        .select({ id: userFarms.farmId })
        .from(userFarms)
        .where(eq(userFarms.userId, user.id));
      // An assignment may name a company node: everything below it counts.
      const nested = await Promise.all(rows.map((r) => farmsUnder(db, r.id)));
      return housesOfFarms(db, nested.flat());
    }
    case 'shack_manager': {
      const rows = await db
        .select({ houseId: userHouses.houseId, farmId: houses.farmId })
        .from(userHouses)
        .innerJoin(houses, eq(houses.id, userHouses.houseId))
        .where(eq(userHouses.userId, user.id));
      return {
        all: false,
        farmIds: new Set(rows.map((r) => r.farmId)),
        houseIds: new Set(rows.map((r) => r.houseId)),
      };
    }
  }
}

export function canSeeHouse(scope: Scope, houseId: number): boolean {
  return scope.all || scope.houseIds.has(houseId);
}

export function canSeeFarm(scope: Scope, farmId: number): boolean {
  return scope.all || scope.farmIds.has(farmId);
}

function emptyScope(): Scope {
  return { all: false, farmIds: new Set(), houseIds: new Set() };
}

async function housesOfFarms(db: Db, farmIds: number[]): Promise<Scope> {
  if (farmIds.length === 0) return emptyScope();
  const rows = await db
    .select({ id: houses.id })
    .from(houses)
    .where(inArray(houses.farmId, farmIds));
  return { all: false, farmIds: new Set(farmIds), houseIds: new Set(rows.map((r) => r.id)) };
}
