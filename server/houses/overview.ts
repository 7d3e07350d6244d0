import type { Scope } from '../auth/scope';
import type { Database } from '../db/client';

/**
 * A timestamp as the presenter writes it (`Date.toISOString()`): UTC, milliseconds cut, not
 * rounded, as a JavaScript Date cuts PostgreSQL's microseconds.
 */
const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * One house as `HouseOverview`, built by the database; its `live` part is what `presentLive`
 * makes of the house's `house_state` row (a house never heard from: offline, no values).
 * tests/houses/overviewJson.test.ts holds the two to the same answer, house by house.
 */
const HOUSE_JSON = `json_build_object(
  'houseId', x.house_id, 'houseName', x.house_name, 'farmId', x.farm_id, 'farmName', x.farm_name,
  'provinceName', x.province_name, 'networkId', x.network_id, 'gatewayType', x.type_key,
  'breedName', x.breed_name,
  'ageDays', ((now() at time zone $1)::date - x.placed_on + x.age_at_placement),
  'headCount', x.head_count,
  'live', json_build_object(
    'houseId', x.house_id,
    'online', coalesce(x.online, false),
    'network', case when x.network in ('wired', 'wireless') then x.network end,
    'gatewayVersion', x.gateway_version,
    'onlineSince', ${iso('x.online_since')},
    'lastSeenAt', ${iso('x.last_seen_at')},
    'lastTs', ${iso('x.last_ts')},
    'mode', x.mode,
    'metrics', coalesce(x.metrics, '{}'::jsonb),
    'faults', coalesce(x.faults, '{}'::jsonb),
    'devices', coalesce(x.devices, '{}'::jsonb),
    'alarm', json_build_object('count', coalesce(x.alarm_count, 0), 'top', x.alarm_top)))`;

/**
 * Every house of the scope (optionally of one farm or one house) with its latest state, in the
 * console's order: what /overview/listOverview/ and a kiosk wall answer, as the JSON text of
 * their `{ rows: HouseOverview[], total }`.
 *
 * The database writes the answer's JSON itself and the server sends that text as it is. At
 * 20,000 houses the answer is 11-22 MB: parsing it, building an object per house and writing it
 * out again took the server's main thread 0.5-0.8 s an answer under load, and its garbage most
 * of the rest, while the same thread acknowledges every gateway's readings (bench/scale.ts).
 */
export async function overviewJsonOf(
  database: Database,
  scope: Scope,
  timeZone: string,
  only: { farmId?: number; houseId?: number } = {},
): Promise<string> {
  const params: unknown[] = [timeZone, scope.all, scope.all ? [] : [...scope.houseIds]];
  let where = '($2 or h.id = any($3::int[]))';
  if (only.farmId) where += ` and f.id = $${params.push(only.farmId)}`;
  if (only.houseId) where += ` and h.id = $${params.push(only.houseId)}`;
  // One json_agg text value, not 20,000 rows: PGlite's per-row, per-column decoding and the
  // worker's structured clone cost 2-3 times the query itself, and every other query waits
  // behind it in the one worker. The rows are put in order before their JSON is written, so
  // the sort moves columns, not 32 MB of JSON text spilled to disk: at 20,000 houses with 30
  // metrics and 11 devices each, PostgreSQL took 608-714 ms a call, against 649-841 ms when
  // json_agg sorted the houses' JSON (8 calls each). (An aggregate's input in the order of its
  // subquery is PostgreSQL's documented behaviour, and tests/houses/overviewJson.test.ts checks it.)
  const [result] = await database.query<{ json: string; total: number }>(
    `select coalesce(json_agg(${HOUSE_JSON}), '[]')::text as json, count(*)::int as total
     from (
       select h.id as house_id, h.name as house_name, f.id as farm_id, f.name as farm_name,
         f.province_name, g.network_id, g.type_key, b.name as breed_name,
         fl.placed_on, fl.age_at_placement, fl.head_count,
         hs.online, hs.network, hs.gateway_version, hs.online_since, hs.last_seen_at, hs.last_ts,
         hs.mode, hs.metrics, hs.faults, hs.devices, hs.alarm_count, hs.alarm_top
       from houses h
       join farms f on f.id = h.farm_id
       left join gateways g on g.house_id = h.id
       left join flocks fl on fl.house_id = h.id and fl.closed_on is null
       left join breeds b on b.id = fl.breed_id
       left join house_state hs on hs.house_id = h.id
       where ${where}
       order by f.name, h.sort, h.id
     ) x`,
    params,
  );
  return `{"rows":${result?.json ?? '[]'},"total":${result?.total ?? 0}}`;
}
