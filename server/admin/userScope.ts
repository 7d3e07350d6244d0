import { inArray } from 'drizzle-orm';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { farms, houses, userFarms, userHouses } from '../db/schema';
import type { RoleKey } from '../../src/contract/roles';

/**
 * The farm tree and its houses in memory, to work out many users' scopes with three queries
 * instead of several per user (the user list checks every row). Farm trees have hundreds of
 * nodes and a few thousand houses: small enough to load whole for one request.
 */
export class TreeIndex {
  private constructor(
    private readonly children: Map<number, number[]>,
    private readonly level: Map<number, string>,
    private readonly housesByFarm: Map<number, number[]>,
    readonly houseFarm: Map<number, number>,
  ) {}

  static async load(db: Db): Promise<TreeIndex> {
    const [nodes, houseRows] = await Promise.all([
      db.select({ id: farms.id, parentId: farms.parentId, level: farms.level }).from(farms),
      db.select({ id: houses.id, farmId: houses.farmId }).from(houses),
    ]);
    const children = new Map<number, number[]>();
    const level = new Map<number, string>();
    for (const n of nodes) {
      level.set(n.id, n.level);
      if (n.parentId !== null)
        children.set(n.parentId, [...(children.get(n.parentId) ?? []), n.id]);
    }
    const housesByFarm = new Map<number, number[]>();
    const houseFarm = new Map<number, number>();
    for (const h of houseRows) {
      housesByFarm.set(h.farmId, [...(housesByFarm.get(h.farmId) ?? []), h.id]);
      houseFarm.set(h.id, h.farmId);
    }
    return new TreeIndex(children, level, housesByFarm, houseFarm);
  }

  has(nodeId: number): boolean {
    return this.level.has(nodeId);
  }

  levelOf(nodeId: number): string | undefined {
    return this.level.get(nodeId);
  }

  /** Farm-level nodes at or below `nodeId`. */
  farmsUnder(nodeId: number): number[] {
    const out: number[] = [];
    const stack = [nodeId];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (this.level.get(id) === 'farm') out.push(id);
      stack.push(...(this.children.get(id) ?? []));
    }
    return out;
  }

  housesOf(farmIds: Iterable<number>): number[] {
    return [...farmIds].flatMap((f) => this.housesByFarm.get(f) ?? []);
  }
}

export interface Assignment {
  roleKey: RoleKey;
  scopeNodeId: number | null;
  farmIds: number[];
  shackIds: number[];
}

/** The same answer as auth/scope.ts `scopeOf`, from an in-memory tree. */
export function scopeOfAssignment(tree: TreeIndex, a: Assignment): Scope {
  if (a.roleKey === 'administrator') return { all: true };
  if (a.roleKey === 'shack_manager') {
    const houseIds = a.shackIds.filter((h) => tree.houseFarm.has(h));
    return {
      all: false,
      farmIds: new Set(houseIds.map((h) => tree.houseFarm.get(h)!)),
      houseIds: new Set(houseIds),
    };
  }
  const roots =
    a.roleKey === 'company_manager' ? (a.scopeNodeId === null ? [] : [a.scopeNodeId]) : a.farmIds;
  const farmIds = new Set(roots.flatMap((r) => tree.farmsUnder(r)));
  return { all: false, farmIds, houseIds: new Set(tree.housesOf(farmIds)) };
}

/**
 * Whether `inner` lies inside `outer`: an empty scope lies inside nobody's but an
 * administrator's, so a manager never sees users nobody has placed yet.
 */
export function scopeInside(inner: Scope, outer: Scope): boolean {
  if (outer.all) return true;
  if (inner.all) return false;
  if (inner.farmIds.size === 0 && inner.houseIds.size === 0) return false;
  for (const f of inner.farmIds) if (!outer.farmIds.has(f)) return false;
  for (const h of inner.houseIds) if (!outer.houseIds.has(h)) return false;
  return true;
}

/** The raw assignments (user_farms, user_houses) of these users. */
export async function assignmentsOf(
  db: Db,
  userIds: number[],
): Promise<{ farms: Map<number, number[]>; houses: Map<number, number[]> }> {
  const farmsOf = new Map<number, number[]>();
  const housesOf = new Map<number, number[]>();
  if (userIds.length === 0) return { farms: farmsOf, houses: housesOf };
  const [f, h] = await Promise.all([
    db.select().from(userFarms).where(inArray(userFarms.userId, userIds)),
    db.select().from(userHouses).where(inArray(userHouses.userId, userIds)),
  ]);
  for (const r of f) farmsOf.set(r.userId, [...(farmsOf.get(r.userId) ?? []), r.farmId]);
  for (const r of h) housesOf.set(r.userId, [...(housesOf.get(r.userId) ?? []), r.houseId]);
  return { farms: farmsOf, houses: housesOf };
}
