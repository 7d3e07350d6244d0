import type { Scope } from '../auth/scope';
import type { Database } from '../db/client';

export interface OnlineHouse {
  house_id: number;
  farm_id: number;
  name: string;
  /** node-postgres parses jsonb; PGlite may hand it over as text. */
  metrics: Record<string, number> | string;
}

/**
 * The online houses of a scope with their latest readings, one row each (house_state keeps the
 * latest): an offline house's last readings say nothing about now.
 */
export function readOnlineHouses(database: Database, scope: Scope): Promise<OnlineHouse[]> {
  return database.query<OnlineHouse>(
    `select h.id as house_id, h.farm_id, h.name, hs.metrics
       from houses h join house_state hs on hs.house_id = h.id
      where hs.online and ($1 or h.id = any($2::int[]))`,
    [scope.all, scope.all ? [] : [...scope.houseIds]],
  );
}
