import {
  DEFAULT_PREFS,
  myPrefsSchema,
  notifyPrefsSchema,
  type MyPrefs,
  type NotifyPrefs,
} from '../../../src/contract/notifyPrefs';
import { canSeeFarm } from '../../auth/scope';
import { sessionOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import { digitsOf, SQL_DIGITS } from '../prefs';
import { logChange, scopeFor } from './shared';

/**
 * Each user's own notification preferences: every role reads and writes only its own row, and
 * may choose only farms it can see.
 */
export function prefsRoutes(ctx: AppContext): RoutePlugin {
  const { database } = ctx;

  const mine = async (userId: number, scope: Awaited<ReturnType<typeof scopeFor>>) => {
    const [user] = await database.query<{ mobile: string }>(
      'select mobile from users where id = $1',
      [userId],
    );
    const mobile = user?.mobile ?? '';
    const [row] = await database.query<{
      farm_ids: number[] | null;
      severities: NotifyPrefs['severities'];
      channels: NotifyPrefs['channels'];
      quiet_start: string | null;
      quiet_end: string | null;
    }>(
      'select farm_ids, severities, channels, quiet_start, quiet_end from notify_prefs where user_id = $1',
      [userId],
    );
    const farms = await database.query<{ id: number; name: string }>(
      scope.all
        ? `select id, name from farms where level = 'farm' order by name, id`
        : `select id, name from farms where level = 'farm' and id = any($1::int[]) order by name, id`,
      scope.all ? [] : [[...scope.farmIds]],
    );
    const [count] = mobile
      ? await database.query<{ n: number }>(
          `select count(*)::int as n from alarm_phones where status = 'open' and ${SQL_DIGITS('phone')} = $1`,
          [digitsOf(mobile)],
        )
      : [{ n: 0 }];
    const answer: MyPrefs = {
      prefs: row
        ? {
            farmIds: row.farm_ids,
            severities: row.severities,
            channels: row.channels,
            quietStart: row.quiet_start,
            quietEnd: row.quiet_end,
          }
        : DEFAULT_PREFS,
      saved: Boolean(row),
      mobile,
      entries: count?.n ?? 0,
      farms,
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
        await database.query(
          `insert into notify_prefs (user_id, farm_ids, severities, channels, quiet_start, quiet_end, updated_at)
         values ($1, $2::jsonb, $3::jsonb, $4::jsonb, $5, $6, now())
         on conflict (user_id) do update set farm_ids = excluded.farm_ids, severities = excluded.severities,
           channels = excluded.channels, quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,
           updated_at = excluded.updated_at`,
          [
            user.id,
            JSON.stringify(farmIds),
            JSON.stringify([...new Set(v.severities)]),
            JSON.stringify([...new Set(v.channels)]),
            v.quietStart,
            v.quietEnd,
          ],
        );
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
