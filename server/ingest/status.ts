import type { GatewayStatusMessage } from '../../src/contract/gateway';
import type { Database } from '../db/client';
import {
  STATE_COLUMNS,
  stateColumnsOf,
  stateFromRow,
  type HouseLiveState,
  type StateRow,
} from '../houses/state';

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
  return database.transaction(async ({ query }) => {
    const [before] = await query<{
      online: boolean;
      network: string | null;
      gateway_version: string | null;
    }>('select online, network, gateway_version from house_state where house_id = $1 for update', [
      gateway.houseId,
    ]);
    const network = status.network ?? before?.network ?? null;
    const version = status.version ?? before?.gateway_version ?? null;
    const changed =
      !before ||
      before.online !== status.online ||
      before.network !== network ||
      before.gateway_version !== version;
    if (!changed) return [];
    const rows = await query<StateRow>(
      `insert into house_state as hs (house_id, gateway_id, online, network, gateway_version, online_since, last_seen_at, updated_at)
       values ($1, $2, $3, $4, $5, case when $3 then now() end, case when $3 then now() end, now())
       on conflict (house_id) do update set
         gateway_id = excluded.gateway_id,
         online = excluded.online,
         network = excluded.network,
         gateway_version = excluded.gateway_version,
         online_since = case when excluded.online and not hs.online then now() when excluded.online then hs.online_since else null end,
         last_seen_at = case when excluded.online then now() else hs.last_seen_at end,
         updated_at = now()
       returning ${STATE_COLUMNS}`,
      [gateway.houseId, gateway.gatewayId, status.online, network, version],
    );
    if (!before || before.online !== status.online) {
      await query(
        'insert into gateway_online_log (gateway_id, online, network, reason) values ($1, $2, $3, $4)',
        [gateway.gatewayId, status.online, network, 'status'],
      );
    }
    return rows.map((row) => stateFromRow(row, gateway.farmId));
  });
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
  return database.transaction(async ({ query }) => {
    // Elapsed time, not a timestamp: the process's clock need not agree with the database's.
    const rows = await query<StateRow & { gateway_id: number; farm_id: number }>(
      `update house_state hs set online = false, online_since = null, updated_at = now()
       from gateways g, houses h
       where g.id = hs.gateway_id and h.id = hs.house_id and hs.online
         and hs.last_seen_at < now() - make_interval(secs => g.interval_seconds * 3)
         and $1::float8 >= g.interval_seconds * 3
       returning hs.gateway_id, h.farm_id, ${stateColumnsOf('hs')}`,
      [hearingForSeconds],
    );
    if (rows.length > 0) {
      await query(
        `insert into gateway_online_log (gateway_id, online, network, reason)
         select g, false, n, 'silent' from unnest($1::int[], $2::text[]) as u(g, n)`,
        [rows.map((r) => r.gateway_id), rows.map((r) => r.network)],
      );
    }
    const [next] = await query<{ due_in: number | null; newcomer: number | null }>(
      `select (select min(greatest(
           extract(epoch from hs.last_seen_at - now()) + g.interval_seconds * 3,
           g.interval_seconds * 3 - $1::float8))
         from house_state hs join gateways g on g.id = hs.gateway_id
         where hs.online)::float8 as due_in,
       (select min(interval_seconds) * 3 from gateways)::float8 as newcomer`,
      [hearingForSeconds],
    );
    return {
      states: rows.map((row) => stateFromRow(row, row.farm_id)),
      dueInSeconds: next?.due_in ?? null,
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
