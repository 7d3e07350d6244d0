import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Alarm } from '../../src/contract/alarms';
import type { NotifyPrefs } from '../../src/contract/notifyPrefs';
import type { Channel } from '../alarms/channels';
import { inWindow, type PhoneWindow } from '../alarms/schedule';
import type { Db } from '../db/client';
import { notifyPrefs } from '../db/notifySchema';
import { users } from '../db/schema';

/** A number as entries and accounts may write it: spaces and dashes do not count. */
export const digitsSql = (column: AnyPgColumn) =>
  sql<string>`regexp_replace(${column}, '[\\s-]', '', 'g')`;
export const digitsOf = (phone: string) => phone.replace(/[\s-]/g, '');

/**
 * The preferences of the person an alarm phone entry reaches: the account whose mobile is the
 * entry's number (the lowest id, should two accounts share one). Null: none saved, everything
 * goes as the entry says.
 */
export async function prefsForPhone(db: Db, phone: string): Promise<NotifyPrefs | null> {
  const p = notifyPrefs;
  const [row] = await db
    .select({
      farmIds: p.farmIds,
      severities: p.severities,
      channels: p.channels,
      quietStart: p.quietStart,
      quietEnd: p.quietEnd,
    })
    .from(p)
    .innerJoin(users, eq(users.id, p.userId))
    .where(and(ne(users.mobile, ''), eq(digitsSql(users.mobile), digitsOf(phone))))
    .orderBy(asc(users.id))
    .limit(1);
  if (!row) return null;
  // Stored as the save route checked them (notifyPrefsSchema): only known names.
  return {
    ...row,
    severities: row.severities as NotifyPrefs['severities'],
    channels: row.channels as NotifyPrefs['channels'],
  };
}

export type PrefDecision =
  | { kind: 'send'; channels: Channel[] }
  /** This person does not want this alarm at all (farm, severity or no channel left). */
  | { kind: 'skip'; reason: string }
  /** Quiet hours: a non-critical alarm waits until they end. */
  | { kind: 'wait'; until: Date };

const quietWindow = (p: NotifyPrefs): PhoneWindow | null =>
  p.quietStart && p.quietEnd
    ? {
        period1Start: p.quietStart,
        period1End: p.quietEnd,
        period2Start: null,
        period2End: null,
        dateType: 'daily',
      }
    : null;

/** The first whole minute after `now` outside the quiet hours (they last under a day). */
function quietEnds(window: PhoneWindow, now: Date, timeZone: string): Date {
  const start = Math.ceil((now.getTime() + 1) / 60_000) * 60_000;
  for (let i = 0; i <= 24 * 60; i += 1) {
    const at = new Date(start + i * 60_000);
    if (!inWindow(window, at, timeZone)) return at;
  }
  return new Date(start + 24 * 3_600_000);
}

/**
 * What a person's preferences make of one notification: the entry's channels they kept, or
 * nothing (not their farm, not a severity they want), or later (quiet hours; critical alarms
 * still go at once).
 */
export function applyPrefs(
  prefs: NotifyPrefs | null,
  alarm: Pick<Alarm, 'farmId' | 'severity'>,
  channels: readonly Channel[],
  now: Date,
  timeZone: string,
): PrefDecision {
  if (!prefs) return { kind: 'send', channels: [...channels] };
  if (prefs.farmIds !== null && !prefs.farmIds.includes(alarm.farmId))
    return { kind: 'skip', reason: 'prefFarm' };
  if (!prefs.severities.includes(alarm.severity)) return { kind: 'skip', reason: 'prefSeverity' };
  const kept = channels.filter((c) => (prefs.channels as readonly string[]).includes(c));
  if (kept.length === 0) return { kind: 'skip', reason: 'prefChannel' };
  const quiet = quietWindow(prefs);
  if (quiet && alarm.severity !== 'critical' && inWindow(quiet, now, timeZone))
    return { kind: 'wait', until: quietEnds(quiet, now, timeZone) };
  return { kind: 'send', channels: kept };
}
