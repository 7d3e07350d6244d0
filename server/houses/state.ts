import type { AlarmSummary } from '../../src/contract/alarms';
import { houseState } from '../db/telemetrySchema';

/**
 * The house state read model: one row of `house_state` per house, written by ingest (readings,
 * gateway status), by the offline sweep and by the alarm side (its summary), and read by the
 * overview, the wall and the live hub. Every statement that answers a house's state selects
 * these columns and turns the row into a `HouseLiveState` here, so they cannot drift apart;
 * the one exception, the overview, writes its JSON in SQL (houses/overview.sql.ts) and a test holds
 * it to what `presentLive` makes of these rows.
 */

/** The latest state of one house as stored in house_state: what the live hub presents. */
export interface HouseLiveState {
  houseId: number;
  farmId: number;
  online: boolean;
  network: string | null;
  gatewayVersion: string | null;
  onlineSince: Date | null;
  lastSeenAt: Date | null;
  lastTs: Date | null;
  mode: number | null;
  metrics: Record<string, number>;
  faults: Record<string, string>;
  devices: Record<string, { state: number; opening?: number }>;
  alarmCount: number;
  alarmTop: AlarmSummary | null;
}

/** The state columns of `house_state`, in the order `StateRow` names them. */
export const STATE_COLUMNS = `house_id, online, network, gateway_version, online_since, last_seen_at, last_ts, mode, metrics, faults, devices, alarm_count, alarm_top`;

/** The state columns qualified by a table alias (`hs.online, …`), for joins; `house_id` optional. */
export function stateColumnsOf(alias: string, withHouseId = true): string {
  return STATE_COLUMNS.split(', ')
    .filter((c) => withHouseId || c !== 'house_id')
    .map((c) => `${alias}.${c}`)
    .join(', ');
}

/** The state columns as a Drizzle selection, named as `StateRow` names them. */
export const STATE_FIELDS = {
  house_id: houseState.houseId,
  online: houseState.online,
  network: houseState.network,
  gateway_version: houseState.gatewayVersion,
  online_since: houseState.onlineSince,
  last_seen_at: houseState.lastSeenAt,
  last_ts: houseState.lastTs,
  mode: houseState.mode,
  metrics: houseState.metrics,
  faults: houseState.faults,
  devices: houseState.devices,
  alarm_count: houseState.alarmCount,
  alarm_top: houseState.alarmTop,
};

export interface StateRow {
  house_id: number;
  online: boolean;
  network: string | null;
  gateway_version: string | null;
  online_since: Date | string | null;
  last_seen_at: Date | string | null;
  last_ts: Date | string | null;
  mode: number | null;
  metrics: Record<string, number> | string;
  faults: Record<string, string> | string;
  devices: Record<string, { state: number; opening?: number }> | string;
  alarm_count: number | null;
  alarm_top: AlarmSummary | string | null;
}

const toDate = (v: Date | string | null) => (v === null ? null : new Date(v));
const toJson = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

export function stateFromRow(row: StateRow, farmId: number): HouseLiveState {
  return {
    houseId: row.house_id,
    farmId,
    online: row.online,
    network: row.network,
    gatewayVersion: row.gateway_version,
    onlineSince: toDate(row.online_since),
    lastSeenAt: toDate(row.last_seen_at),
    lastTs: toDate(row.last_ts),
    mode: row.mode,
    metrics: toJson(row.metrics),
    faults: toJson(row.faults),
    devices: toJson(row.devices),
    // An integer column: a number from both drivers; null where a house has no state row yet.
    alarmCount: row.alarm_count ?? 0,
    alarmTop: row.alarm_top == null ? null : toJson(row.alarm_top),
  };
}
