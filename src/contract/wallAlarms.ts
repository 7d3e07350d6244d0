import { z } from 'zod';
import { alarmSchema, ALARM_SEVERITIES, type Alarm } from './alarms';

/**
 * The open alarms a wall lists at most: a wall shows the worst, and counts the rest. Live
 * events keep the list from there; past this many the least grave fall off the end.
 */
export const WALL_OPEN_ALARMS_MAX = 100;

/**
 * GET /api/wall/alarms: the open alarms of the scope, worst first (severity, then the oldest),
 * how many are open in all, and (when none is) the alarm cleared last, so an empty list can say
 * since when nothing is wrong.
 */
export const wallOpenAlarmsSchema = z.object({
  alarms: z.array(alarmSchema),
  total: z.number().int().nonnegative(),
  lastCleared: alarmSchema.nullable(),
});
export type WallOpenAlarms = z.infer<typeof wallOpenAlarmsSchema>;

const rank = (alarm: Pick<Alarm, 'severity'>) => ALARM_SEVERITIES.indexOf(alarm.severity);

/**
 * The wall's order of gravity: critical before major before minor, then the one open longest
 * (it has waited for someone the longest), then by id so the order never flickers.
 */
export function worstFirst(
  a: Pick<Alarm, 'severity' | 'raisedAt' | 'id'>,
  b: Pick<Alarm, 'severity' | 'raisedAt' | 'id'>,
): number {
  return rank(a) - rank(b) || Date.parse(a.raisedAt) - Date.parse(b.raisedAt) || a.id - b.id;
}
