import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Reminder } from '../../src/contract/reminders';
import { PARAM_BY_KEY } from '../../src/contract/envcontrol';
import { paramChanges } from '../db/envcontrolSchema';
import { farms, houses } from '../db/schema';
import { REMINDERS_PER_KIND, type ReminderSource } from '../reminders/types';

/**
 * "Parameter changed": each controller parameter changed today (in the installation's zone),
 * from the console or at the controller, once per house and parameter with its latest value
 * and who set it, newest first. A change is news, never overdue.
 */
export const paramChangeReminders: ReminderSource = {
  kind: 'paramChange',
  async read({ database, scope, timeZone, houseId }) {
    const c = paramChanges;
    const latest = database.db
      .selectDistinctOn([c.houseId, c.key], {
        id: c.id,
        houseId: c.houseId,
        // Aliased: both names are `name`, and a subquery's columns need names of their own.
        houseName: sql<string>`${houses.name}`.as('house_name'),
        farmName: sql<string>`${farms.name}`.as('farm_name'),
        at: c.at,
        source: c.source,
        operatorName: c.operatorName,
        key: c.key,
        newValue: c.newValue,
      })
      .from(c)
      .innerJoin(houses, eq(houses.id, c.houseId))
      .innerJoin(farms, eq(farms.id, houses.farmId))
      .where(
        and(
          gte(
            c.at,
            sql`date_trunc('day', now() at time zone ${timeZone}) at time zone ${timeZone}`,
          ),
          scope.all ? undefined : inArray(c.houseId, [...scope.houseIds]),
          houseId === undefined ? undefined : eq(c.houseId, houseId),
        ),
      )
      .orderBy(c.houseId, c.key, desc(c.at), desc(c.id))
      .as('latest');
    const rows = await database.db
      .select()
      .from(latest)
      .orderBy(desc(latest.at))
      .limit(REMINDERS_PER_KIND);
    return rows.map((r): Reminder => {
      const unit = PARAM_BY_KEY.get(r.key)?.unit ?? '';
      const value = r.newValue;
      const local = r.source === 'local' || !r.operatorName;
      return {
        kind: 'paramChange',
        id: `paramChange:${r.houseId}:${r.key}`,
        houseId: r.houseId,
        houseName: r.houseName,
        farmName: r.farmName,
        at: r.at.toISOString(),
        text: 'envcontrol.reminder.changed',
        params: {
          parameterKey: `envcontrol.param.${r.key}`,
          value: unit ? `${value} ${unit}` : String(value),
          ...(local ? { whoKey: 'envcontrol.records.controller' } : { who: r.operatorName }),
        },
        overdue: false,
      };
    });
  },
};
