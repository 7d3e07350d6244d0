import { z } from 'zod';

/**
 * The day's reminders: the four kinds of thing a manager is reminded of each day (open house
 * alarms, daily tasks such as a flock's vaccination, devices due for maintenance, controller
 * parameters that changed). Each feature contributes its own kind from the server; the console's
 * home and the house monitor show them together. A fifth kind, data completeness, names the houses
 * whose readings yesterday fell short of what their gateway's interval promised.
 */
export const REMINDER_KINDS = [
  'alarm',
  'task',
  'deviceExpiry',
  'paramChange',
  'completeness',
] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/**
 * A reminder's values. A value whose name ends in `Key` is itself a text key: the reader
 * translates it and passes it on under the name without `Key` (`causeKey: 'alarms.cause.offline'`
 * becomes `cause: 'Gateway offline'`), so the server never stores or sends a sentence.
 */
export const reminderParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));

export const reminderSchema = z.object({
  kind: z.enum(REMINDER_KINDS),
  /** Unique within one answer, e.g. `alarm:12` or `task:flock7:day14`. */
  id: z.string().min(1),
  houseId: z.number().int(),
  houseName: z.string(),
  farmName: z.string(),
  /** When the thing happened or falls due (ISO 8601). */
  at: z.string(),
  /**
   * The console's text key that says what it is (`alarms.reminder.unacknowledged`), with `params`
   * interpolated: each feature keeps its reminder texts among its own.
   */
  text: z.string().min(1),
  params: reminderParamsSchema,
  /** Past its due time (maintenance overdue, a task not done on its day). */
  overdue: z.boolean(),
});
export type Reminder = z.infer<typeof reminderSchema>;

export const remindersSchema = z.object({ rows: z.array(reminderSchema) });
export type Reminders = z.infer<typeof remindersSchema>;

export const remindersQuerySchema = z.object({
  houseId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
