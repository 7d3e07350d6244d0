import { asc, sql } from 'drizzle-orm';
import {
  houseDevicesSummariesSchema,
  type HouseDevicesSummary,
} from '../../../src/contract/devices';
import { concentrators } from '../../db/devicesSchema';
import { houses } from '../../db/schema';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';
import { houseScopeWhere, type DeviceContext } from '../access';
import { readTerminals } from '../equipment';
import { readPlans } from '../maintenance';
import type { Clock } from './maintenance';

/** Shack Manage: each house of the scope with its device counts, faults and maintenance state. */
export function summaryRoutes(dc: DeviceContext, timeZone: string, clock: Clock): RoutePlugin {
  const { database, scopeFor } = dc;
  return async (app) => {
    app.get(
      '/device/houseSummary',
      {
        schema: {
          summary:
            'Each house in scope with its device counts, faults and maintenance due or overdue',
          response: answers(houseDevicesSummariesSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const scope = await scopeFor(request);
        const houseRows = await database.db
          .select({
            houseId: houses.id,
            concentrators: sql<number>`(select count(*)::int from ${concentrators} where ${concentrators.houseId} = ${houses.id})`,
          })
          .from(houses)
          .where(houseScopeWhere(scope, houses.id))
          .orderBy(asc(houses.id));
        const byHouse = new Map<number, HouseDevicesSummary>(
          houseRows.map((h) => [
            h.houseId,
            {
              houseId: h.houseId,
              concentrators: h.concentrators,
              terminals: 0,
              faults: 0,
              due: 0,
              overdue: 0,
            },
          ]),
        );
        for (const d of await readTerminals(database, scope)) {
          const row = byHouse.get(d.houseId);
          if (!row) continue;
          row.terminals += 1;
          if (d.status === 'fault') row.faults += 1;
        }
        for (const p of await readPlans(database, scope, clock(), timeZone)) {
          const row = byHouse.get(p.houseId);
          if (row && p.state !== 'ok') row[p.state] += 1;
        }
        return ok(request, reply, { rows: [...byHouse.values()] });
      },
    );
  };
}
