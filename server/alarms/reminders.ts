import type { Reminder } from '../../src/contract/reminders';
import { REMINDERS_PER_KIND, type ReminderSource } from '../reminders/types';
import { scopeWhere } from './access';

/**
 * The day's first reminder: every open (not cleared) alarm of the scope, the ones nobody has
 * acknowledged first, then the oldest. An alarm is overdue once it has gone unacknowledged for
 * longer than `UNACKNOWLEDGED_OVERDUE_MS`.
 */
const UNACKNOWLEDGED_OVERDUE_MS = 60 * 60 * 1000;

export const alarmReminders: ReminderSource = {
  kind: 'alarm',
  async read({ database, scope, now, houseId }) {
    const params: unknown[] = [];
    const where = [`a.state <> 'cleared'`, scopeWhere(scope, params)];
    if (houseId !== undefined) where.push(`a.house_id = $${params.push(houseId)}`);
    const rows = await database.query<{
      id: number;
      house_id: number;
      house_name: string;
      farm_name: string;
      cause: string;
      state: string;
      raised_at: Date | string;
    }>(
      `select a.id, a.house_id, h.name as house_name, f.name as farm_name, a.cause, a.state, a.raised_at
       from alarms a join houses h on h.id = a.house_id join farms f on f.id = h.farm_id
       where ${where.join(' and ')}
       order by (a.state = 'active') desc, a.raised_at asc limit ${REMINDERS_PER_KIND}`,
      params,
    );
    return rows.map((r): Reminder => {
      const raisedAt = new Date(r.raised_at);
      const unacknowledged = r.state === 'active';
      return {
        kind: 'alarm',
        id: `alarm:${r.id}`,
        houseId: r.house_id,
        houseName: r.house_name,
        farmName: r.farm_name,
        at: raisedAt.toISOString(),
        text: unacknowledged ? 'alarms.reminder.unacknowledged' : 'alarms.reminder.acknowledged',
        params: { causeKey: `alarms.cause.${r.cause}` },
        overdue: unacknowledged && now.getTime() - raisedAt.getTime() > UNACKNOWLEDGED_OVERDUE_MS,
      };
    });
  },
};
