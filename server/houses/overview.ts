import type { Scope } from '../auth/scope';
import type { Database } from '../db/client';
import { STATE_COLUMNS, stateColumnsOf, stateFromRow, type StateRow } from './state';
import { presentLive } from '../live/presenter';
import type { HouseOverview } from '../../src/contract/overview';

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

const STATE_SELECT = stateColumnsOf('hs', false);

/** An overview row's columns, in the order the query puts them in each house's array. */
const ROW_COLUMNS = [
  'house_id',
  'house_name',
  'sort',
  'farm_id',
  'farm_name',
  'province_name',
  'network_id',
  'type_key',
  'breed_name',
  'head_count',
  'age_days',
  'has_state',
  ...STATE_COLUMNS.split(', ').filter((column) => column !== 'house_id'),
];
const ROW_ARRAY = `json_build_array(${ROW_COLUMNS.map((column) => `x.${column}`).join(', ')})`;

function rowOf(values: readonly unknown[]): OverviewRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < ROW_COLUMNS.length; i += 1) row[ROW_COLUMNS[i]!] = values[i];
  return row as unknown as OverviewRow;
}

/**
 * Every house of the scope (optionally of one farm or one house) with its latest state, in the
 * console's order: what /overview/listOverview/ and a kiosk wall answer.
 */
export async function overviewOf(
  database: Database,
  scope: Scope,
  timeZone: string,
  only: { farmId?: number; houseId?: number } = {},
): Promise<HouseOverview[]> {
  const params: unknown[] = [timeZone, scope.all, scope.all ? [] : [...scope.houseIds]];
  let where = '($2 or h.id = any($3::int[]))';
  if (only.farmId) where += ` and f.id = $${params.push(only.farmId)}`;
  if (only.houseId) where += ` and h.id = $${params.push(only.houseId)}`;
  // One json_agg text value, not 5,000 rows: PGlite's per-row, per-column decoding (dates,
  // jsonb) and the worker's structured clone cost 2-3 times the query itself, and every other
  // query (each request's session check) waits behind it in the one worker. An array per house,
  // not an object: its column names made 12 MB of text of the 7 at 20,000 houses, and on
  // PostgreSQL the query and its parsing took 0.5-0.7 s instead of 0.35.
  const [result] = await database.query<{ rows: string }>(
    `select coalesce(json_agg(${ROW_ARRAY} order by x.farm_name, x.sort, x.house_id), '[]')::text as rows
     from (
       select h.id as house_id, h.name as house_name, h.sort, f.id as farm_id, f.name as farm_name,
         f.province_name, g.network_id, g.type_key, b.name as breed_name, fl.head_count,
         ((now() at time zone $1)::date - fl.placed_on + fl.age_at_placement) as age_days,
         (hs.house_id is not null) as has_state, ${STATE_SELECT}
       from houses h
       join farms f on f.id = h.farm_id
       left join gateways g on g.house_id = h.id
       left join flocks fl on fl.house_id = h.id and fl.closed_on is null
       left join breeds b on b.id = fl.breed_id
       left join house_state hs on hs.house_id = h.id
       where ${where}
     ) x`,
    params,
  );
  const rows = (JSON.parse(result?.rows ?? '[]') as unknown[][]).map(rowOf);
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
