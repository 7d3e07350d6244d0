import type { Database } from '../db/client';
import type { Scope } from '../auth/scope';
import { scopeWhere } from '../alarms/access';
import { STATE_COLUMNS, stateFromRow, type StateRow } from '../ingest/writer';
import { presentLive } from '../live/presenter';
import { ALARM_CAUSES, type AlarmToday } from '../../src/contract/alarms';
import type { HouseOverview } from '../../src/contract/overview';

/**
 * What the wall reads besides its map, for a kiosk link: the console's endpoints
 * (/overview/listOverview/, /alarm/today, /overview/alarmAmt/) answer signed-in users only, and
 * take their scope from the user. These answer the same shapes for any scope, so a kiosk wall
 * runs on the console's own stores and live connection.
 */

interface OverviewRow extends StateRow {
  house_name: string;
  farm_id: number;
  farm_name: string;
  province_name: string | null;
  network_id: string | null;
  type_key: number | null;
  breed_name: string | null;
  age_days: number | null;
  head_count: number | null;
  has_state: boolean;
}

/** A house never heard from: offline, no values. */
const NO_STATE = {
  online: false,
  metrics: {},
  faults: {},
  devices: {},
  network: null,
  gateway_version: null,
  online_since: null,
  last_seen_at: null,
  last_ts: null,
  mode: null,
  alarm_count: 0,
  alarm_top: null,
};

/** Every house of the scope with its latest state, in the console's order. */
export async function overviewOf(
  database: Database,
  scope: Scope,
  timeZone: string,
): Promise<HouseOverview[]> {
  const params: unknown[] = [timeZone, scope.all, scope.all ? [] : [...scope.houseIds]];
  const stateColumns = STATE_COLUMNS.split(', ')
    .filter((c) => c !== 'house_id')
    .map((c) => `hs.${c}`)
    .join(', ');
  const rows = await database.query<OverviewRow>(
    `select h.id as house_id, h.name as house_name, f.id as farm_id, f.name as farm_name, f.province_name,
       g.network_id, g.type_key, b.name as breed_name, fl.head_count,
       ((now() at time zone $1)::date - fl.placed_on + fl.age_at_placement) as age_days,
       (hs.house_id is not null) as has_state, ${stateColumns}
     from houses h
     join farms f on f.id = h.farm_id
     left join gateways g on g.house_id = h.id
     left join flocks fl on fl.house_id = h.id and fl.closed_on is null
     left join breeds b on b.id = fl.breed_id
     left join house_state hs on hs.house_id = h.id
     where ($2 or h.id = any($3::int[]))
     order by f.name, h.sort, h.id`,
    params,
  );
  return rows.map((row) => ({
    houseId: row.house_id,
    houseName: row.house_name,
    farmId: row.farm_id,
    farmName: row.farm_name,
    provinceName: row.province_name,
    networkId: row.network_id,
    gatewayType: row.type_key,
    breedName: row.breed_name,
    ageDays: row.age_days === null ? null : Number(row.age_days),
    headCount: row.head_count,
    live: presentLive(stateFromRow(row.has_state ? row : { ...row, ...NO_STATE }, row.farm_id)),
  }));
}

/** Alarms raised today (the installation's day) by cause, in the scope. */
export async function alarmsTodayOf(
  database: Database,
  scope: Scope,
  timeZone: string,
): Promise<AlarmToday> {
  const params: unknown[] = [timeZone];
  const rows = await database.query<{ cause: string; n: number }>(
    `select a.cause, count(*)::int as n from alarms a
     where a.raised_at >= (date_trunc('day', now() at time zone $1) at time zone $1)
       and ${scopeWhere(scope, params)}
     group by a.cause`,
    params,
  );
  const counts = new Map(rows.map((r) => [r.cause, Number(r.n)]));
  return ALARM_CAUSES.map((cause) => ({ cause, count: counts.get(cause) ?? 0 }));
}

/** The open (not cleared) alarms of the scope. */
export async function openAlarmCountOf(database: Database, scope: Scope): Promise<number> {
  const params: unknown[] = [];
  const [row] = await database.query<{ n: number }>(
    `select count(*)::int as n from alarms a where a.state <> 'cleared' and ${scopeWhere(scope, params)}`,
    params,
  );
  return Number(row?.n ?? 0);
}
