import type { Reminder } from '../../src/contract/reminders';
import { REMINDERS_PER_KIND, type ReminderSource } from '../reminders/types';
import { addDays } from './kpi';
import { houseScopeSql, localDay } from './records';

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
    const params: unknown[] = [today, TASK_GRACE_DAYS];
    const where = [`f.closed_on is null`, houseScopeSql(scope, params, 'f.house_id')];
    if (houseId !== undefined) where.push(`f.house_id = $${params.push(houseId)}`);
    const rows = await database.query<Record<string, unknown>>(
      `select f.id as "flockId", f.house_id as "houseId", h.name as "houseName", fa.name as "farmName",
         f.placed_on::text as "placedOn", f.age_at_placement as "ageAtPlacement",
         ir.id as "reminderId", ir.age_day as "ageDay", ir.content,
         ($1::date - f.placed_on) + f.age_at_placement as "ageToday"
       from flocks f join houses h on h.id = f.house_id join farms fa on fa.id = h.farm_id
         join immune_reminders ir on ir.breed_id = f.breed_id
       where ${where.join(' and ')}
         and ir.age_day between ($1::date - f.placed_on) + f.age_at_placement - $2
                            and ($1::date - f.placed_on) + f.age_at_placement
         and not exists (select 1 from flock_tasks t
           where t.flock_id = f.id and t.age_day = ir.age_day and t.content = ir.content)
       order by ir.age_day, fa.name, h.name, ir.id limit ${REMINDERS_PER_KIND}`,
      params,
    );
    return rows.map((r): Reminder => {
      const ageDay = Number(r.ageDay);
      const dueDay = addDays(String(r.placedOn), ageDay - Number(r.ageAtPlacement));
      return {
        kind: 'task',
        id: `task:flock${Number(r.flockId)}:day${ageDay}:${Number(r.reminderId)}`,
        houseId: Number(r.houseId),
        houseName: String(r.houseName),
        farmName: String(r.farmName),
        at: `${dueDay}T00:00:00.000Z`,
        text: 'production.reminder.immune',
        params: { ageDay, content: String(r.content), flockId: Number(r.flockId) },
        overdue: ageDay < Number(r.ageToday),
      };
    });
  },
};
