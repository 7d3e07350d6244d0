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
  'houseId', h.id, 'houseName', h.name, 'farmId', f.id, 'farmName', f.name,
  'provinceName', f.province_name, 'networkId', g.network_id, 'gatewayType', g.type_key,
  'breedName', b.name,
  'ageDays', ((now() at time zone $1)::date - fl.placed_on + fl.age_at_placement),
  'headCount', fl.head_count,
  'live', json_build_object(
    'houseId', h.id,
    'online', coalesce(hs.online, false),
    'network', case when hs.network in ('wired', 'wireless') then hs.network end,
    'gatewayVersion', hs.gateway_version,
    'onlineSince', ${iso('hs.online_since')},
    'lastSeenAt', ${iso('hs.last_seen_at')},
    'lastTs', ${iso('hs.last_ts')},
    'mode', hs.mode,
    'metrics', coalesce(hs.metrics, '{}'::jsonb),
    'faults', coalesce(hs.faults, '{}'::jsonb),
    'devices', coalesce(hs.devices, '{}'::jsonb),
    'alarm', json_build_object('count', coalesce(hs.alarm_count, 0), 'top', hs.alarm_top)))`;

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
  // behind it in the one worker.
  const [result] = await database.query<{ json: string; total: number }>(
    `select coalesce(json_agg(x.house order by x.farm_name, x.sort, x.house_id), '[]')::text as json,
       count(*)::int as total
     from (
       select h.id as house_id, h.sort, f.name as farm_name, ${HOUSE_JSON} as house
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
  return `{"rows":${result?.json ?? '[]'},"total":${result?.total ?? 0}}`;
}
