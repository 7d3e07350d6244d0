import { asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Command, CommandState } from '../../src/contract/envcontrol';
import type { UpgradeStage } from '../../src/contract/gateway';
import type { Db } from '../db/client';
import { gatewayCommands, gatewayParams, paramChanges } from '../db/envcontrolSchema';
import { gateways, houses } from '../db/schema';
import { gatewayUpgrades } from '../db/upgradeSchema';

interface CommandRow {
  id: string;
  houseId: number;
  houseName: string;
  networkId: string;
  kind: string;
  state: string;
  params: unknown;
  readBack: unknown;
  reason: string | null;
  requestedBy: string;
  createdAt: Date;
  sentAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date;
  upVersion: string | null;
  upFrom: string | null;
  upFile: string | null;
  upSha: string | null;
  upStage: string | null;
  upPercent: number | null;
}

/**
 * Every command read: the command joined with its house and gateway. Upgrade commands carry
 * their file and progress in `gateway_upgrades`, beside the state.
 */
function selectCommands(db: Db, where: SQL | undefined) {
  const c = gatewayCommands;
  const u = gatewayUpgrades;
  return db
    .select({
      id: c.id,
      houseId: c.houseId,
      houseName: houses.name,
      networkId: gateways.networkId,
      kind: c.kind,
      state: c.state,
      params: c.params,
      readBack: c.readBack,
      reason: c.reason,
      requestedBy: c.requestedByName,
      createdAt: c.createdAt,
      sentAt: c.sentAt,
      finishedAt: c.finishedAt,
      expiresAt: c.expiresAt,
      upVersion: u.version,
      upFrom: u.fromVersion,
      upFile: u.fileName,
      upSha: u.sha256,
      upStage: u.stage,
      upPercent: u.percent,
    })
    .from(c)
    .innerJoin(houses, eq(houses.id, c.houseId))
    .innerJoin(gateways, eq(gateways.id, c.gatewayId))
    .leftJoin(u, eq(u.commandId, c.id))
    .where(where)
    .$dynamic();
}

const iso = (v: Date): string => v.toISOString();
const isoOrNull = (v: Date | null): string | null => (v === null ? null : iso(v));
/** jsonb comes back parsed from PGlite and node-postgres alike; text from older drivers. */
const json = (v: unknown): Record<string, number> =>
  (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, number>;

/** One presenter for the REST answer and the live event, so polling never drifts from live. */
export function presentCommand(row: CommandRow): Command {
  return {
    id: row.id,
    houseId: row.houseId,
    houseName: row.houseName,
    networkId: row.networkId,
    kind: row.kind as Command['kind'],
    state: row.state as CommandState,
    params: json(row.params),
    readBack: row.readBack === null ? null : json(row.readBack),
    reason: row.reason,
    requestedBy: row.requestedBy,
    createdAt: iso(row.createdAt),
    sentAt: isoOrNull(row.sentAt),
    finishedAt: isoOrNull(row.finishedAt),
    expiresAt: iso(row.expiresAt),
    upgrade:
      row.upVersion === null
        ? null
        : {
            version: row.upVersion,
            fromVersion: row.upFrom ?? '',
            fileName: row.upFile ?? '',
            sha256: row.upSha ?? '',
            stage: (row.upStage as UpgradeStage | null) ?? null,
            percent: row.upPercent,
          },
  };
}

export async function readCommands(db: Db, ids: readonly string[]): Promise<Command[]> {
  if (ids.length === 0) return [];
  const rows = await selectCommands(db, inArray(gatewayCommands.id, [...ids])).orderBy(
    asc(gatewayCommands.createdAt),
  );
  return rows.map(presentCommand);
}

export async function commandsOfHouse(db: Db, houseId: number, limit: number): Promise<Command[]> {
  const rows = await selectCommands(db, eq(gatewayCommands.houseId, houseId))
    .orderBy(desc(gatewayCommands.createdAt))
    .limit(limit);
  return rows.map(presentCommand);
}

/** The gateway's stored parameters (what it last reported or read back). */
export async function paramsOfGateway(db: Db, gatewayId: number): Promise<Record<string, number>> {
  const [row] = await db
    .select({ params: gatewayParams.params })
    .from(gatewayParams)
    .where(eq(gatewayParams.gatewayId, gatewayId));
  return row ? json(row.params) : {};
}

/** The last reported parameters of several gateways, in one read; a gateway without any is left out. */
export async function paramsOfGateways(
  db: Db,
  gatewayIds: readonly number[],
): Promise<Map<number, Record<string, number>>> {
  if (gatewayIds.length === 0) return new Map();
  const rows = await db
    .select({ gatewayId: gatewayParams.gatewayId, params: gatewayParams.params })
    .from(gatewayParams)
    .where(inArray(gatewayParams.gatewayId, [...gatewayIds]));
  return new Map(rows.map((r) => [r.gatewayId, json(r.params)]));
}

/** Same keys, same values. */
function sameValues(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] === a[k]);
}

/** A gateway's parameters as stored after a change, and when they were stored. */
export interface StoredParams {
  params: Record<string, number>;
  reportedAt: Date;
}

/**
 * Stores a gateway's new values and writes one modify record per value that changed. The
 * caller's transaction locks the gateway's row first, so two reports never interleave. The
 * values are the catalogue's (replies.ts), so a report writes at most one row per parameter,
 * in one statement; a report equal to the stored set writes nothing (answers null).
 */
export async function recordParams(
  db: Db,
  change: {
    gatewayId: number;
    houseId: number | null;
    values: Record<string, number>;
    source: 'console' | 'local';
    operatorName: string;
    commandId: string | null;
    /** A full report replaces the set; a read-back merges into it. */
    replace: boolean;
  },
): Promise<StoredParams | null> {
  const [row] = await db
    .select({ params: gatewayParams.params })
    .from(gatewayParams)
    .where(eq(gatewayParams.gatewayId, change.gatewayId))
    .for('update');
  const known = row !== undefined;
  const before = known ? json(row.params) : {};
  const after = change.replace ? { ...change.values } : { ...before, ...change.values };
  if (known && sameValues(before, after)) return null;
  const [written] = await db
    .insert(gatewayParams)
    .values({ gatewayId: change.gatewayId, params: after, reportedAt: sql`now()` })
    .onConflictDoUpdate({
      target: gatewayParams.gatewayId,
      set: { params: sql`excluded.params`, reportedAt: sql`now()` },
    })
    .returning({ reportedAt: gatewayParams.reportedAt });
  const stored = { params: after, reportedAt: written!.reportedAt };
  // The first report is the starting point, not a change anybody made.
  if (!known || change.houseId === null) return stored;
  const houseId = change.houseId;
  const changed = Object.entries(change.values).filter(([key, value]) => before[key] !== value);
  if (changed.length === 0) return stored;
  await db.insert(paramChanges).values(
    changed.map(([key, value]) => ({
      houseId,
      gatewayId: change.gatewayId,
      source: change.source,
      operatorName: change.operatorName,
      commandId: change.commandId,
      key,
      oldValue: before[key] ?? null,
      newValue: value,
    })),
  );
  return stored;
}
