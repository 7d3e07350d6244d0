import type { Database } from '../db/client';
import { canSeeHouse, type Scope } from '../auth/scope';

/** A house with its gateway and what House Setting shows of it. */
export interface HouseRow {
  houseId: number;
  houseName: string;
  farmId: number;
  farmName: string;
  province: string | null;
  breedName: string | null;
  gatewayId: number | null;
  networkId: string | null;
  typeKey: number | null;
  version: string | null;
  simCard: string | null;
  number: string | null;
  online: boolean | null;
  network: string | null;
  onlineSince: Date | string | null;
}

/**
 * The houses of `houseIds` the scope holds, with their gateways (commands, upgrades and log
 * requests all start here). The version is the one the gateway last reported, else the one
 * it was registered with.
 */
export async function housesInScope(
  database: Database,
  scope: Scope,
  houseIds: readonly number[],
): Promise<HouseRow[]> {
  const visible = houseIds.filter((id) => canSeeHouse(scope, id));
  if (visible.length === 0) return [];
  return database.query<HouseRow>(
    `select h.id as "houseId", h.name as "houseName", f.id as "farmId", f.name as "farmName",
       f.province_name as province, b.name as "breedName", g.id as "gatewayId", g.network_id as "networkId",
       g.type_key as "typeKey", coalesce(s.gateway_version, g.version) as version, g.sim_card as "simCard",
       g.number, s.online, s.network, s.online_since as "onlineSince"
     from houses h join farms f on f.id = h.farm_id
     left join gateways g on g.house_id = h.id
     left join house_state s on s.house_id = h.id
     left join flocks fl on fl.house_id = h.id and fl.closed_on is null
     left join breeds b on b.id = fl.breed_id
     where h.id = any($1::int[]) order by h.id`,
    [visible],
  );
}
