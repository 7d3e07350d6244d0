import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  DEFAULT_PREFS,
  myPrefsSchema,
  notifyPrefsSchema,
  type MyPrefs,
  type NotifyPrefs,
} from '../../../src/contract/notifyPrefs';
import { canSeeFarm } from '../../auth/scope';
import { alarmPhones } from '../../db/alarmSchema';
import { notifyPrefs } from '../../db/notifySchema';
import { farms, users } from '../../db/schema';
import { sessionOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import { digitsOf, digitsSql } from '../prefs';
import { logChange, scopeFor } from './shared';

/**
 * Each user's own notification preferences: every role reads and writes only its own row, and
 * may choose only farms it can see.
 */
export function prefsRoutes(ctx: AppContext): RoutePlugin {
  const { database } = ctx;
  const { db } = database;

  const mine = async (userId: number, scope: Awaited<ReturnType<typeof scopeFor>>) => {
    const [user] = await db
      .select({ mobile: users.mobile })
      .from(users)
      .where(eq(users.id, userId));
    const mobile = user?.mobile ?? '';
    const [row] = await db
      .select({
        farmIds: notifyPrefs.farmIds,
        severities: notifyPrefs.severities,
        channels: notifyPrefs.channels,
        quietStart: notifyPrefs.quietStart,
        quietEnd: notifyPrefs.quietEnd,
      })
      .from(notifyPrefs)
      .where(eq(notifyPrefs.userId, userId));
    const farmRows = await db
      .select({ id: farms.id, name: farms.name })
      .from(farms)
      .where(
        and(eq(farms.level, 'farm'), scope.all ? undefined : inArray(farms.id, [...scope.farmIds])),
      )
      .orderBy(asc(farms.name), asc(farms.id));
    const [count] = mobile
      ? await db
          .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
          .from(alarmPhones)
          .where(
            and(eq(alarmPhones.status, 'open'), eq(digitsSql(alarmPhones.phone), digitsOf(mobile))),
          )
      : [{ n: 0 }];
    const answer: MyPrefs = {
      // Stored as the save route checked them (notifyPrefsSchema): only known names.
      prefs: row
        ? {
            ...row,
            severities: row.severities as NotifyPrefs['severities'],
            channels: row.channels as NotifyPrefs['channels'],
          }
        : DEFAULT_PREFS,
      saved: Boolean(row),
      mobile,
      entries: count?.n ?? 0,
      farms: farmRows,
    };
    return answer;
  };

  return async (app) => {
    app.get(
      '/notify/prefs/mine',
      {
        schema: {
          summary: 'Your own notification preferences and the farms you may choose',
          response: answers(myPrefsSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        return ok(request, reply, await mine(user.id, await scopeFor(database, request)));
      },
    );

    // Decided by the role alone (every role's own row): not an operating action.
    app.post(
      '/notify/prefs/save',
      {
        schema: {
          summary:
            'Saves your own notification preferences: farms, severities, channels, quiet hours',
          body: notifyPrefsSchema,
          response: answers(myPrefsSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const v = request.body;
        const { user } = sessionOf(request);
        const scope = await scopeFor(database, request);
        // A farm outside the scope answers like one that does not exist.
        for (const farmId of v.farmIds ?? [])
          if (!canSeeFarm(scope, farmId)) throw new Refusal('notFound', 'http.notFound');
        const farmIds = v.farmIds === null ? null : [...new Set(v.farmIds)].sort((a, b) => a - b);
        const saved = {
          farmIds,
          severities: [...new Set(v.severities)],
          channels: [...new Set(v.channels)],
          quietStart: v.quietStart,
          quietEnd: v.quietEnd,
          updatedAt: sql`now()`,
        };
        await db
          .insert(notifyPrefs)
          .values({ userId: user.id, ...saved })
          .onConflictDoUpdate({ target: notifyPrefs.userId, set: saved });
        await logChange(
          database,
          request,
          'notify.prefs.save',
          `${v.severities.join(',')} ${v.channels.join(',')} ${farmIds === null ? '*' : farmIds.join(',')}${v.quietStart ? ` quiet ${v.quietStart}–${v.quietEnd}` : ''}`,
          null,
        );
        return ok(request, reply, await mine(user.id, scope), 'notify.prefsSaved');
      },
    );
  };
}
