import { DEFAULT_COMPLETENESS_MIN_PERCENT } from '../../src/contract/completeness';
import type { Reminder } from '../../src/contract/reminders';
import { REMINDERS_PER_KIND, type ReminderSource } from '../reminders/types';
import { addDays, dayOf, readCompleteness } from './completeness.sql';

/**
 * "Completeness below N %": the houses in scope, with a gateway, whose readings stored yesterday
 * (a whole day: today's share still moves) fall short of the share set by
 * ROOST_COMPLETENESS_MIN_PERCENT, worst first. A day with nothing expected (a gateway added
 * today) is not one.
 */
export const completenessReminders: ReminderSource = {
  kind: 'completeness',
  async read({ database, scope, now, timeZone, houseId, completenessMinPercent }) {
    const min = completenessMinPercent ?? DEFAULT_COMPLETENESS_MIN_PERCENT;
    const yesterday = addDays(dayOf(now, timeZone), -1);
    const houseIds = houseId !== undefined ? [houseId] : scope.all ? null : [...scope.houseIds];
    if (houseIds !== null && houseIds.length === 0) return [];
    const rows = await readCompleteness(database, {
      houseIds,
      from: yesterday,
      to: yesterday,
      now,
      timeZone,
      withGatewayOnly: true,
    });
    const short = rows.flatMap((house) => {
      const day = house.days[0];
      return day && day.percent !== null && day.percent < min ? [{ house, day }] : [];
    });
    short.sort((a, b) => a.day.percent! - b.day.percent!);
    return short.slice(0, REMINDERS_PER_KIND).map(({ house, day }): Reminder => ({
      kind: 'completeness',
      id: `completeness:${house.houseId}:${day.day}`,
      houseId: house.houseId,
      houseName: house.houseName,
      farmName: house.farmName,
      at: `${day.day}T00:00:00.000Z`,
      text: 'houses.reminder.completeness',
      params: {
        percent: day.percent!,
        min,
        readings: day.readings,
        expected: day.expected,
      },
      overdue: false,
    }));
  },
};
