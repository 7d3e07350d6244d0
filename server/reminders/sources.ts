import { alarmReminders } from '../alarms/reminders';
import { completenessReminders } from '../houses/completenessReminders';
import { deviceExpiryReminders } from '../devices/reminders';
import { paramChangeReminders } from '../envcontrol/reminders';
import { taskReminders } from '../production/reminders';
import type { ReminderSource } from './types';

/** Every feature's reminders, in the order the console lists their kinds. A feature adds its source here. */
export const REMINDER_SOURCES: readonly ReminderSource[] = [
  alarmReminders,
  taskReminders,
  deviceExpiryReminders,
  paramChangeReminders,
  completenessReminders,
];
