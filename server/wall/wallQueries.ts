import type { Database } from '../db/client';
import type { Scope } from '../auth/scope';
import type { WallFarm, WallHouse, WallState } from '../../src/contract/wall';

interface FarmRow {
  farm_id: number;
  name: string;
  province_adcode: string | null;
  province_name: string | null;
  longitude: number | null;
  latitude: number | null;
  house_count: number;
  alarm_houses: number;
  offline_houses: number;
  alarm_count: number;
  unacknowledged: number;
}

interface HouseRow {
  house_id: number;
  name: string;
  online: boolean | null;
  alarm_count: number | null;
}

/** A house in alarm outweighs an offline one, which outweighs a normal one. */
function worstOf(alarmHouses: number, offlineHouses: number): WallState {
  if (alarmHouses > 0) return 'alarm';
  if (offlineHouses > 0) return 'offline';
  return 'normal';
}

/** `$n` placeholders restricting houses `h` to the scope; pushes its parameters. */
function scopeFilter(scope: Scope, params: unknown[]): string {
  if (scope.all) return 'true';
  return `f.id = any($${params.push([...scope.farmIds])}::int[])`;
}

/**
 * The farm nodes in scope with their houses' worst state. A house without state (never heard
 * from) counts as offline; an alarm counts whatever the gateway's connection.
 */
export async function wallFarms(
  database: Database,
  scope: Scope,
  filter: { adcode?: string; farmId?: number } = {},
): Promise<WallFarm[]> {
  const params: unknown[] = [];
  let where = `f.level = 'farm' and ${scopeFilter(scope, params)}`;
  if (filter.adcode) where += ` and f.province_adcode = $${params.push(filter.adcode)}`;
  if (filter.farmId) where += ` and f.id = $${params.push(filter.farmId)}`;
  const houseScope = scope.all ? 'true' : `h.id = any($${params.push([...scope.houseIds])}::int[])`;
  const rows = await database.query<FarmRow>(
    `select f.id as farm_id, f.name, f.province_adcode, f.province_name, f.longitude, f.latitude,
       count(h.id)::int as house_count,
       count(h.id) filter (where coalesce(hs.alarm_count, 0) > 0)::int as alarm_houses,
       count(h.id) filter (where not coalesce(hs.online, false))::int as offline_houses,
       coalesce(sum(hs.alarm_count), 0)::int as alarm_count,
       coalesce((select count(*) from alarms a where a.farm_id = f.id and a.state = 'active'
         and (${houseScope.replace('h.id', 'a.house_id')})), 0)::int as unacknowledged
     from farms f
     left join houses h on h.farm_id = f.id and ${houseScope}
     left join house_state hs on hs.house_id = h.id
     where ${where}
     group by f.id
     order by f.name, f.id`,
    params,
  );
  return rows.map((r) => ({
    farmId: r.farm_id,
    name: r.name,
    provinceAdcode: r.province_adcode,
    provinceName: r.province_name,
    longitude: r.longitude,
    latitude: r.latitude,
    houseCount: Number(r.house_count),
    worstState: worstOf(Number(r.alarm_houses), Number(r.offline_houses)),
    alarmCount: Number(r.alarm_count),
    unacknowledged: Number(r.unacknowledged),
  }));
}

/** The houses of one farm in scope, in the console's order. */
export async function wallHouses(
  database: Database,
  scope: Scope,
  farmId: number,
): Promise<WallHouse[]> {
  const params: unknown[] = [farmId];
  const houseScope = scope.all ? 'true' : `h.id = any($${params.push([...scope.houseIds])}::int[])`;
  const rows = await database.query<HouseRow>(
    `select h.id as house_id, h.name, hs.online, hs.alarm_count
     from houses h left join house_state hs on hs.house_id = h.id
     where h.farm_id = $1 and ${houseScope}
     order by h.sort, h.id`,
    params,
  );
  return rows.map((r) => {
    const alarmCount = Number(r.alarm_count ?? 0);
    return {
      houseId: r.house_id,
      name: r.name,
      state: worstOf(alarmCount, r.online ? 0 : 1),
      alarmCount,
    };
  });
}
