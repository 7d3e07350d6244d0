import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { GatewayStatusMessage } from '../../src/contract/gateway';
import type { Database, Db } from '../db/client';
import { gateways, houses } from '../db/schema';
import { gatewayOnlineLog, houseState } from '../db/telemetrySchema';
import { STATE_FIELDS, stateFromRow, type HouseLiveState } from '../houses/state';

interface AssignedGateway {
  gatewayId: number;
  houseId: number;
  farmId: number;
}

/**
 * Applies a status message (or a will). Answers the house's new state when it changed, so
 * listeners hear only transitions; every transition is written to the online log.
 */
export async function applyStatus(
  database: Database,
  gateway: AssignedGateway,
  status: GatewayStatusMessage,
): Promise<HouseLiveState[]> {
  return database.transaction(async ({ db }) => {
    const [before] = await db
      .select({
        online: houseState.online,
        network: houseState.network,
        gatewayVersion: houseState.gatewayVersion,
      })
      .from(houseState)
      .where(eq(houseState.houseId, gateway.houseId))
      .for('update');
    const network = status.network ?? before?.network ?? null;
    const version = status.version ?? before?.gatewayVersion ?? null;
    const changed =
      !before ||
      before.online !== status.online ||
      before.network !== network ||
      before.gatewayVersion !== version;
    if (!changed) return [];
    // The database's clock, not the process's: every other time of house_state is its own.
    const now = sql`now()`;
    const rows = await db
      .insert(houseState)
      .values({
        houseId: gateway.houseId,
        gatewayId: gateway.gatewayId,
        online: status.online,
        network,
        gatewayVersion: version,
        onlineSince: status.online ? now : null,
        lastSeenAt: status.online ? now : null,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: houseState.houseId,
        set: {
          gatewayId: sql`excluded.gateway_id`,
          online: sql`excluded.online`,
          network: sql`excluded.network`,
          gatewayVersion: sql`excluded.gateway_version`,
          onlineSince: sql`case when excluded.online and not ${houseState.online} then now() when excluded.online then ${houseState.onlineSince} else null end`,
          lastSeenAt: sql`case when excluded.online then now() else ${houseState.lastSeenAt} end`,
          updatedAt: now,
        },
      })
      .returning(STATE_FIELDS);
    if (status.version !== undefined) await keepRegisteredVersion(db, gateway.gatewayId, version);
    if (!before || before.online !== status.online) {
      await db
        .insert(gatewayOnlineLog)
        .values({ gatewayId: gateway.gatewayId, online: status.online, network, reason: 'status' });
    }
    return rows.map((row) => stateFromRow(row, gateway.farmId));
  });
}

/** The gateway's own row follows the version it says it runs (what the admin lists show). */
async function keepRegisteredVersion(db: Db, gatewayId: number, version: string | null) {
  if (version === null) return;
  await db
    .update(gateways)
    .set({ version })
    .where(and(eq(gateways.id, gatewayId), ne(gateways.version, version)));
}

/**
 * The firmware version a gateway says it runs outside its status: an upgrade's `done`, a
 * config/report. A gateway has one stored version, whoever said it last: its house's state
 * (House Setting, the overview, the live hub) and its own row (the admin lists) both take it;
 * an upgrade's "done" once reached only the gateway's row, and House Setting kept showing the
 * version the status had said before. Answers the house's new state when it changed, for the
 * live hub.
 */
export async function recordGatewayVersion(
  db: Db,
  gatewayId: number,
  version: string,
): Promise<HouseLiveState[]> {
  await keepRegisteredVersion(db, gatewayId, version);
  const rows = await db
    .update(houseState)
    .set({ gatewayVersion: version, updatedAt: sql`now()` })
    .where(
      and(
        eq(houseState.gatewayId, gatewayId),
        or(isNull(houseState.gatewayVersion), ne(houseState.gatewayVersion, version)),
      ),
    )
    .returning({
      ...STATE_FIELDS,
      // Every house_state row has its house (a foreign key that cascades).
      farm_id: sql<number>`(select ${houses.farmId} from ${houses} where ${houses.id} = ${houseState.houseId})`,
    });
  return rows.map((row) => stateFromRow(row, row.farm_id));
}

/**
 * A gateway silent for 3 × its interval is offline even without a will. Silence counts only
 * while this process could hear it: `hearingForSeconds` is how long it has (since it started,
 * or since its external broker link came back), so after a restart every gateway gets its full
 * allowance to reconnect before the downtime is taken for its silence. The conditional update
 * lets several server processes sweep at once: each house flips exactly once.
 *
 * Also answers when the next house can fall silent at the earliest (`dueInSeconds`, null when
 * no gateway is online) and the longest a new or changed gateway may wait for a sweep
 * (`newcomerSeconds`: 3 × the shortest interval): a reading only moves a house's time later,
 * so there is nothing to find before then, and the caller need not scan every house each second
 * (at 18,500 houses: 33-110 ms of the database every second, by load; bench/scale.ts).
 */
export async function sweepSilentGateways(
  database: Database,
  hearingForSeconds: number,
): Promise<SweepResult> {
  return database.transaction(async ({ db }) => {
    const allowance = sql`${gateways.intervalSeconds} * 3`;
    // Elapsed time, not a timestamp: the process's clock need not agree with the database's.
    const rows = await db
      .update(houseState)
      .set({ online: false, onlineSince: null, updatedAt: sql`now()` })
      .from(gateways)
      .where(
        and(
          eq(gateways.id, houseState.gatewayId),
          eq(houseState.online, true),
          sql`${houseState.lastSeenAt} < now() - make_interval(secs => ${allowance})`,
          sql`${hearingForSeconds}::float8 >= ${allowance}`,
        ),
      )
      .returning({
        ...STATE_FIELDS,
        gateway_id: houseState.gatewayId,
        // Every house_state row has its house (a foreign key that cascades).
        farm_id: sql<number>`(select ${houses.farmId} from ${houses} where ${houses.id} = ${houseState.houseId})`,
      });
    if (rows.length > 0) {
      await db.insert(gatewayOnlineLog).values(
        rows.map((r) => ({
          gatewayId: r.gateway_id!,
          online: false,
          network: r.network,
          reason: 'silent',
        })),
      );
    }
    // The earliest an online house can fall silent, and 3 × the shortest interval, in one row
    // (an aggregate over gateways answers one even when there are none).
    const dueIn = db
      .select({
        v: sql`min(greatest(
          extract(epoch from ${houseState.lastSeenAt} - now()) + ${allowance},
          ${allowance} - ${hearingForSeconds}::float8))`,
      })
      .from(houseState)
      .innerJoin(gateways, eq(gateways.id, houseState.gatewayId))
      .where(eq(houseState.online, true));
    const [next] = await db
      .select({
        dueIn: sql<number | null>`(${dueIn})::float8`.mapWith(Number),
        newcomer: sql<number | null>`(min(${gateways.intervalSeconds}) * 3)::float8`.mapWith(
          Number,
        ),
      })
      .from(gateways);
    return {
      states: rows.map((row) => stateFromRow(row, row.farm_id)),
      dueInSeconds: next?.dueIn ?? null,
      newcomerSeconds: next?.newcomer ?? null,
    };
  });
}

export interface SweepResult {
  /** The houses this sweep took offline. */
  states: HouseLiveState[];
  /** Seconds until the earliest online house is silent for long enough; null: none online. */
  dueInSeconds: number | null;
  /** 3 × the shortest gateway interval: how soon a gateway coming online could be due. */
  newcomerSeconds: number | null;
}
