import { and, asc, between, eq, isNull, notExists, sql } from 'drizzle-orm';
import type { Reminder } from '../../src/contract/reminders';
import { flockTasks } from '../db/productionSchema';
import { farms, flocks, houses, immuneReminders } from '../db/schema';
import { REMINDERS_PER_KIND, type ReminderSource } from '../reminders/types';
import { addDays } from './kpi';
import { houseInScope, localDay } from './records';

/**
 * A task left undone is still shown this many days after its day of age (then it is overdue):
 * a vaccination missed on Friday must not vanish over the weekend.
 */
export const TASK_GRACE_DAYS = 3;

/**
 * The day's tasks: each breed's immune reminders (age, content) for every open flock that has
 * reached that age today, until someone marks them done or skipped.
 */
export const taskReminders: ReminderSource = {
  kind: 'task',
  async read({ database, scope, now, timeZone, houseId }) {
    const today = localDay(now, timeZone);
    const ageToday = sql<number>`(${today}::date - ${flocks.placedOn}) + ${flocks.ageAtPlacement}`;
    const decided = database.db
      .select({ one: sql`1` })
      .from(flockTasks)
      .where(
        and(
          eq(flockTasks.flockId, flocks.id),
          eq(flockTasks.ageDay, immuneReminders.ageDay),
          eq(flockTasks.content, immuneReminders.content),
        ),
      );
    const rows = await database.db
      .select({
        flockId: flocks.id,
        houseId: flocks.houseId,
        houseName: houses.name,
        farmName: farms.name,
        placedOn: flocks.placedOn,
        ageAtPlacement: flocks.ageAtPlacement,
        reminderId: immuneReminders.id,
        ageDay: immuneReminders.ageDay,
        content: immuneReminders.content,
        ageToday: ageToday.mapWith(Number),
      })
      .from(flocks)
      .innerJoin(houses, eq(houses.id, flocks.houseId))
      .innerJoin(farms, eq(farms.id, houses.farmId))
      .innerJoin(immuneReminders, eq(immuneReminders.breedId, flocks.breedId))
      .where(
        and(
          isNull(flocks.closedOn),
          houseInScope(scope, flocks.houseId),
          houseId === undefined ? undefined : eq(flocks.houseId, houseId),
          between(immuneReminders.ageDay, sql`${ageToday} - ${TASK_GRACE_DAYS}`, ageToday),
          notExists(decided),
        ),
      )
      .orderBy(
        asc(immuneReminders.ageDay),
        asc(farms.name),
        asc(houses.name),
        asc(immuneReminders.id),
      )
      .limit(REMINDERS_PER_KIND);
    return rows.map((r): Reminder => {
      const { ageDay } = r;
      const dueDay = addDays(r.placedOn, ageDay - r.ageAtPlacement);
      return {
        kind: 'task',
        id: `task:flock${r.flockId}:day${ageDay}:${r.reminderId}`,
        houseId: r.houseId,
        houseName: r.houseName,
        farmName: r.farmName,
        at: `${dueDay}T00:00:00.000Z`,
        text: 'production.reminder.immune',
        params: { ageDay, content: r.content, flockId: r.flockId },
        overdue: ageDay < r.ageToday,
      };
    });
  },
};
