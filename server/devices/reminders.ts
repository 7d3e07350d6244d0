import type { Reminder } from '../../src/contract/reminders';
import { REMINDERS_PER_KIND, type ReminderSource } from '../reminders/types';
import { readPlans } from './maintenance';

/**
 * Device expiry: every maintenance plan of the scope that is due or overdue today (a regular
 * service on its date, a fan past its run hours), overdue first.
 */
export const deviceExpiryReminders: ReminderSource = {
  kind: 'deviceExpiry',
  async read({ database, scope, now, timeZone, houseId }) {
    const plans = await readPlans(
      database,
      scope,
      now,
      timeZone,
      houseId === undefined ? {} : { houseId },
    );
    return plans
      .filter((p) => p.state !== 'ok')
      .sort((a, b) => Number(b.state === 'overdue') - Number(a.state === 'overdue'))
      .slice(0, REMINDERS_PER_KIND)
      .map((p): Reminder => ({
        kind: 'deviceExpiry',
        id: `deviceExpiry:${p.id}`,
        houseId: p.houseId,
        houseName: p.houseName,
        farmName: p.farmName,
        at: p.plannedDate
          ? new Date(`${p.plannedDate}T00:00:00Z`).toISOString()
          : now.toISOString(),
        text: p.type === 'duration' ? 'devices.reminder.runHours' : 'devices.reminder.planned',
        params: {
          content: p.content,
          device: p.deviceName ?? '',
          hours: p.runHours ?? 0,
          interval: p.interval ?? 0,
          date: p.plannedDate ?? '',
        },
        overdue: p.state === 'overdue',
      }));
  },
};
