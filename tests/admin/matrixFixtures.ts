import { and, eq } from 'drizzle-orm';
import {
  breeds,
  farms,
  flocks,
  gateways,
  houses,
  organizations,
  userFarms,
  userHouses,
  users,
} from '../../server/db/schema';
import { writeOperationLog } from '../../server/oplog';
import type { FunctionKey } from '../../src/contract/operationLog';
import type { RoleKey } from '../../src/contract/roles';
import type { TestApp } from '../helpers/testApp';
import type { Query } from '../../server/db/client';
import { startAnsweringGateway } from './matrixGateway';
import { createKiosk, revokeKiosk } from '../../server/wall/kiosk';
import { DEFAULT_WALL_LAYOUT } from '../../src/contract/wallLayout';

export type Role = 'admin' | 'company' | 'area' | 'farm' | 'shack';
export const ROLES: readonly Role[] = ['admin', 'company', 'area', 'farm', 'shack'];

/**
 * Named objects inside and outside each demo role's scope (README "Demo sign-in"):
 * company = North China Broilers (Weifang, Gaocheng, Tieling, Zhumadian); area = Weifang and
 * Gaocheng; farm = Weifang; shack = Weifang houses 1–3. Qingyuan lies in the other company.
 */
export interface Fixtures {
  orgId: number;
  otherOrgId: number;
  node: Record<'north' | 'south' | 'weifang' | 'gaocheng' | 'tieling' | 'qingyuan', number>;
  house: Record<'wf1' | 'wf4' | 'gc1' | 'tl1' | 'qy1', number>;
  gateway: Record<'tl1' | 'qy1', number>;
  user: Record<Role | 'southFarm' | 'tielingFarm' | 'gaochengShack', number>;
  breed: Record<'common' | 'own' | 'other', number>;
  /**
   * Two kiosk links of the wall and their tokens: a live one whose scope is Weifang alone
   * (`farmId`), and a revoked one of every farm (its token must open nothing).
   */
  kiosk: {
    live: string;
    liveId: number;
    name: string;
    farmId: number;
    revoked: string;
    revokedId: number;
  };
  /**
   * Weifang House 2 (inside every demo role's scope), its gateway connected through a real
   * broker and answering commands: started on first use (matrixGateway.ts).
   */
  answeringHouse(): Promise<number>;
  /** Makes a fresh object through the database (not logged): for deletes and one-off changes. */
  make: Maker;
}

export interface Maker {
  user(roleKey: RoleKey, scope?: { farmIds?: number[]; shackIds?: number[] }): Promise<number>;
  farm(parentId: number): Promise<number>;
  house(farmId: number): Promise<number>;
  gateway(houseId: number): Promise<number>;
  breed(orgId: number | null): Promise<number>;
  flock(houseId: number): Promise<number>;
  org(): Promise<number>;
  /** Plain SQL on the test database, for rows of features that have no maker of their own. */
  query: Query;
}

let serial = 0;
const unique = (prefix: string) => `${prefix}${Date.now() % 100000}${(serial += 1)}`;

export async function makeFixtures(t: TestApp): Promise<Fixtures> {
  const { db } = t.database;
  const nodeId = async (name: string) =>
    (await db.select({ id: farms.id }).from(farms).where(eq(farms.name, name)))[0]!.id;
  const houseId = async (farmId: number, name: string) =>
    (
      await db
        .select({ id: houses.id })
        .from(houses)
        .where(and(eq(houses.farmId, farmId), eq(houses.name, name)))
    )[0]!.id;
  const gatewayOf = async (house: number) =>
    (await db.select({ id: gateways.id }).from(gateways).where(eq(gateways.houseId, house)))[0]!.id;
  const userId = async (username: string) =>
    (await db.select().from(users).where(eq(users.username, username)))[0]!;

  const shack = await userId('shack');
  const orgId = shack.orgId!;
  const [other] = await db
    .insert(organizations)
    .values({ name: 'Elsewhere Farms', code: 'ELSE' })
    .returning({ id: organizations.id });
  const node = {
    north: await nodeId('North China Broilers Co.'),
    south: await nodeId('South China Layers Co.'),
    weifang: await nodeId('Weifang Broiler Farm'),
    gaocheng: await nodeId('Gaocheng Broiler Farm'),
    tieling: await nodeId('Tieling Broiler Farm'),
    qingyuan: await nodeId('Qingyuan Layer Farm'),
  };
  const house = {
    wf1: await houseId(node.weifang, 'House 1'),
    wf4: await houseId(node.weifang, 'House 4'),
    gc1: await houseId(node.gaocheng, 'House 1'),
    tl1: await houseId(node.tieling, 'House 1'),
    qy1: await houseId(node.qingyuan, 'House 1'),
  };

  const make: Maker = {
    query: t.database.query,
    async user(roleKey, scope = {}) {
      const [row] = await db
        .insert(users)
        .values({
          orgId,
          username: unique('m.'),
          passwordHash: shack.passwordHash,
          roleKey,
        })
        .returning({ id: users.id });
      const id = row!.id;
      for (const farmId of scope.farmIds ?? [])
        await db.insert(userFarms).values({ userId: id, farmId });
      for (const h of scope.shackIds ?? [])
        await db.insert(userHouses).values({ userId: id, houseId: h });
      return id;
    },
    async farm(parentId) {
      const [parent] = await db.select().from(farms).where(eq(farms.id, parentId));
      const [row] = await db
        .insert(farms)
        .values({ orgId: parent!.orgId, parentId, level: 'farm', name: unique('Farm ') })
        .returning({ id: farms.id });
      return row!.id;
    },
    async house(farmId) {
      const [row] = await db
        .insert(houses)
        .values({ farmId, name: unique('House ') })
        .returning({ id: houses.id });
      return row!.id;
    },
    async gateway(houseId) {
      const [row] = await db
        .insert(gateways)
        .values({ houseId, networkId: unique('GWM'), typeKey: 25, tokenHash: unique('hash') })
        .returning({ id: gateways.id });
      return row!.id;
    },
    async breed(org) {
      const [row] = await db
        .insert(breeds)
        .values({ orgId: org, name: unique('Breed '), code: unique('B') })
        .returning({ id: breeds.id });
      return row!.id;
    },
    async flock(houseId) {
      const [row] = await db
        .insert(flocks)
        .values({ houseId, placedOn: '2026-01-01', headCount: 1000 })
        .returning({ id: flocks.id });
      return row!.id;
    },
    async org() {
      const [row] = await db
        .insert(organizations)
        .values({ name: unique('Org '), code: unique('O') })
        .returning({ id: organizations.id });
      return row!.id;
    },
  };

  const kiosk = async (name: string, farmIds: number[]) => {
    const created = await createKiosk(t.database, {
      name,
      allFarms: farmIds.length === 0,
      farmIds,
      orgId,
      createdBy: { id: shack.id, name: 'matrix' },
      display: { layout: DEFAULT_WALL_LAYOUT, tour: null },
    });
    return { id: created!.link.id, token: created!.token };
  };
  const live = await kiosk('Matrix Weifang wall', [node.weifang]);
  const revoked = await kiosk('Matrix revoked wall', []);
  await revokeKiosk(t.database, revoked.id);

  const [common] = await db.select().from(breeds).where(eq(breeds.isCommon, true));
  const answering = await houseId(node.weifang, 'House 2');
  let answeringStarted: Promise<number> | null = null;
  const fixtures: Fixtures = {
    orgId,
    otherOrgId: other!.id,
    node,
    house,
    gateway: { tl1: await gatewayOf(house.tl1), qy1: await gatewayOf(house.qy1) },
    user: {
      admin: (await userId('admin')).id,
      company: (await userId('company')).id,
      area: (await userId('area')).id,
      farm: (await userId('farm')).id,
      shack: shack.id,
      southFarm: await make.user('farm_manager', { farmIds: [node.qingyuan] }),
      tielingFarm: await make.user('farm_manager', { farmIds: [node.tieling] }),
      gaochengShack: await make.user('shack_manager', { shackIds: [house.gc1] }),
    },
    breed: {
      common: common!.id,
      own: await make.breed(orgId),
      other: await make.breed(other!.id),
    },
    kiosk: {
      live: live.token,
      liveId: live.id,
      name: 'Matrix Weifang wall',
      farmId: node.weifang,
      revoked: revoked.token,
      revokedId: revoked.id,
    },
    answeringHouse: () =>
      (answeringStarted ??= startAnsweringGateway(t, answering).then(() => answering)),
    make,
  };
  // One log entry about a house each role may not see, to check the log list and export.
  for (const [key, name] of [
    ['qy1', 'Qingyuan marker'],
    ['wf4', 'Weifang 4 marker'],
  ] as const)
    await writeOperationLog(db, {
      operator: { id: null, name: 'Matrix' },
      function: 'matrix.marker' as FunctionKey,
      operation: { key: 'text', params: { text: 'marker' } },
      house: { id: house[key], name },
    });
  return fixtures;
}

/** Tables a system or log endpoint may change; sessions without their last-use time. */
const TABLES = [
  'organizations',
  'farms',
  'houses',
  'gateways',
  'flocks',
  'breeds',
  'breed_targets',
  'immune_reminders',
  'users',
  'user_farms',
  'user_houses',
  'operation_logs',
  'daily_records',
  'tariffs',
  'breed_warning_limits',
  'house_warning_limits',
  'notify_silences',
  'notify_phone_levels',
  'notify_prefs',
  'notify_drills',
  'notify_drill_schedules',
  'gateway_commands',
  'concentrators',
  'terminal_devices',
  'maintenance_plans',
  'maintenance_history',
  'upgrade_files',
  'cameras',
  'gateway_enrol_codes',
  'wall_kiosk_links',
  'wall_kiosk_farms',
] as const;

/**
 * Each table's rows as JSON, in one statement: every matrix row takes two snapshots, and 32
 * statements each were most of the matrix's time. Rows are ordered by their text, which needs
 * no knowledge of a table's columns and is the same order whenever the rows are the same.
 */
const rowsOf = (from: string, row = 'r') =>
  `(select coalesce(json_agg(${row} order by r::text), '[]') from ${from} r)`;
const SNAPSHOT = `select json_build_object(${[
  ...TABLES.filter((t) => t !== 'wall_kiosk_links').map((t) => `'${t}', ${rowsOf(t)}`),
  // A kiosk's read notes when its link was last used (as a session's does), once a minute.
  `'wall_kiosk_links', ${rowsOf('wall_kiosk_links', "to_jsonb(r) - 'last_used_at'")}`,
  // Sessions without their last-use time.
  `'sessions', ${rowsOf('(select token_hash, user_id from sessions)')}`,
].join(', ')}) as tables`;

/** Every row of every table an admin endpoint may touch, to prove a refusal changed nothing. */
export async function snapshot(t: TestApp): Promise<Record<string, unknown[]>> {
  const [row] = await t.database.query<{ tables: Record<string, unknown[]> }>(SNAPSHOT);
  return row!.tables;
}
