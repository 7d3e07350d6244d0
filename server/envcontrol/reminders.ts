import type { Reminder } from '../../src/contract/reminders';
import { PARAM_BY_KEY } from '../../src/contract/envcontrol';
import { REMINDERS_PER_KIND, type ReminderSource } from '../reminders/types';

/**
 * "Parameter changed": each controller parameter changed today (in the installation's zone),
 * from the console or at the controller, once per house and parameter with its latest value
 * and who set it, newest first. A change is news, never overdue.
 */
export const paramChangeReminders: ReminderSource = {
  kind: 'paramChange',
  async read({ database, scope, timeZone, houseId }) {
    const params: unknown[] = [timeZone];
    const where = [`c.at >= date_trunc('day', now() at time zone $1) at time zone $1`];
    if (!scope.all) where.push(`c.house_id = any($${params.push([...scope.houseIds])}::int[])`);
    if (houseId !== undefined) where.push(`c.house_id = $${params.push(houseId)}`);
    const rows = await database.query<{
      id: number;
      house_id: number;
      house_name: string;
      farm_name: string;
      at: Date | string;
      source: string;
      operator_name: string;
      key: string;
      new_value: number;
    }>(
      `select * from (
         select distinct on (c.house_id, c.key) c.id, c.house_id, h.name as house_name,
           f.name as farm_name, c.at, c.source, c.operator_name, c.key, c.new_value
         from param_changes c join houses h on h.id = c.house_id join farms f on f.id = h.farm_id
         where ${where.join(' and ')}
         order by c.house_id, c.key, c.at desc, c.id desc
       ) latest order by at desc limit ${REMINDERS_PER_KIND}`,
      params,
    );
    return rows.map((r): Reminder => {
      const unit = PARAM_BY_KEY.get(r.key)?.unit ?? '';
      const value = Number(r.new_value);
      const local = r.source === 'local' || !r.operator_name;
      return {
        kind: 'paramChange',
        id: `paramChange:${r.house_id}:${r.key}`,
        houseId: Number(r.house_id),
        houseName: r.house_name,
        farmName: r.farm_name,
        at: new Date(r.at).toISOString(),
        text: 'envcontrol.reminder.changed',
        params: {
          parameterKey: `envcontrol.param.${r.key}`,
          value: unit ? `${value} ${unit}` : String(value),
          ...(local ? { whoKey: 'envcontrol.records.controller' } : { who: r.operator_name }),
        },
        overdue: false,
      };
    });
  },
};
