import type { Reminder, ReminderKind } from '../../src/contract/reminders';
import type { Scope } from '../auth/scope';
import type { Database } from '../db/client';

/** What a reminder source is asked: the caller's scope now, the day's zone, maybe one house. */
export interface ReminderQuery {
  database: Database;
  scope: Scope;
  now: Date;
  timeZone: string;
  /** Only this house (already checked to be in the scope). */
  houseId?: number;
  /** A house whose yesterday's data completeness is below this share (%) is reminded of. */
  completenessMinPercent?: number;
}

/** A feature's reminders of one kind, at most `REMINDERS_PER_KIND` of them, most urgent first. */
export interface ReminderSource {
  kind: ReminderKind;
  read(query: ReminderQuery): Promise<Reminder[]>;
}

/** Keeps one answer small enough for the home page; the feature's own page lists the rest. */
export const REMINDERS_PER_KIND = 100;
