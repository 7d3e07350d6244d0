import { and, desc, eq, gt, inArray, isNull, not, or, sql, type SQL } from 'drizzle-orm';
import { pagedSchema } from '../../../src/contract/paged';
import {
  silenceIdSchema,
  silenceInputSchema,
  silenceListQuerySchema,
  silenceSchema,
} from '../../../src/contract/notify';
import { alarmNotifications } from '../../db/alarmSchema';
import { notifySilencedAlarms, notifySilences } from '../../db/notifySchema';
import { sessionOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import { presentSilence, selectSilences } from '../silences';
import { checkPlace, logChange, scopeFor } from './shared';

/** Silences and maintenance windows: list, create, end early. Changes need canOperate. */
export function silenceRoutes(ctx: AppContext): RoutePlugin {
  const { database } = ctx;
  const { db } = database;
  const s = notifySilences;
  const now = () => new Date();

  /** Farm-wide silences of the user's farms and house silences of houses in scope. */
  const silencesOf = async (
    scope: Awaited<ReturnType<typeof scopeFor>>,
    filter: { id?: number; farmId?: number; houseId?: number; current?: boolean },
  ) => {
    const where: (SQL | undefined)[] = [];
    if (!scope.all)
      where.push(
        inArray(s.farmId, [...scope.farmIds]),
        or(isNull(s.houseId), inArray(s.houseId, [...scope.houseIds])),
      );
    if (filter.id) where.push(eq(s.id, filter.id));
    if (filter.farmId) where.push(eq(s.farmId, filter.farmId));
    if (filter.houseId) where.push(or(isNull(s.houseId), eq(s.houseId, filter.houseId)));
    if (filter.current) where.push(isNull(s.endedAt), gt(s.endsAt, now()));
    const rows = await selectSilences(db)
      .where(and(...where))
      .orderBy(
        // Current ones first.
        desc(sql`(${s.endedAt} is null and ${s.endsAt} > now())`),
        desc(s.startsAt),
        desc(s.id),
      )
      .limit(500);
    const at = now();
    return rows.map((r) => presentSilence(r, at));
  };

  return async (app) => {
    app.get(
      '/notify/silence/list',
      {
        schema: {
          summary:
            'The silences of the farms and houses in your scope: current and planned, or all',
          querystring: silenceListQuerySchema,
          response: answers(pagedSchema(silenceSchema)),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const rows = await silencesOf(await scopeFor(database, request), {
          farmId: q.farmId,
          houseId: q.houseId,
          current: q.state === 'current',
        });
        return ok(request, reply, { rows, total: rows.length });
      },
    );

    app.post(
      '/notify/silence/create',
      {
        schema: {
          summary:
            'Silences the notifications of a farm or a house for a while (alarms are still recorded)',
          body: silenceInputSchema,
          response: answers(silenceSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const v = request.body;
        const scope = await scopeFor(database, request);
        const house = await checkPlace(database, request, scope, v.farmId, v.houseId);
        const { user } = sessionOf(request);
        const owner = user.realName || user.username;
        const startsAt = v.startsAt ? new Date(v.startsAt) : now();
        const [row] = await db
          .insert(s)
          .values({
            farmId: v.farmId,
            houseId: v.houseId,
            cause: v.cause,
            reason: v.reason,
            ownerId: user.id,
            ownerName: owner,
            startsAt,
            endsAt: new Date(v.endsAt),
          })
          .returning({ id: s.id });
        const [created] = await silencesOf(scope, { id: row!.id });
        await logChange(
          database,
          request,
          'notify.silence.create',
          `#${created!.id} ${created!.farmName}${created!.houseName ? ` / ${created!.houseName}` : ''} ${v.cause ?? '*'} ${created!.startsAt} – ${created!.endsAt}: ${v.reason}`,
          house,
        );
        // Open consoles tag the alarms it holds now (a planned one: when it starts).
        if (startsAt <= now())
          void ctx.events.emit('silencesChanged', [{ farmId: v.farmId, houseId: v.houseId }]);
        return ok(request, reply, created, 'notify.silenced');
      },
    );

    app.post(
      '/notify/silence/end',
      {
        schema: {
          summary: 'Ends a silence early; the notifications it held go out',
          body: silenceIdSchema,
          response: answers(silenceSchema),
        },
        config: { roles: ANY_ROLE, operating: true },
      },
      async (request, reply) => {
        const { id } = request.body;
        const scope = await scopeFor(database, request);
        const [found] = await silencesOf(scope, { id });
        if (!found) throw new Refusal('notFound', 'http.notFound');
        // Ending a farm-wide silence changes what every house of the farm hears.
        await checkPlace(database, request, scope, found.farmId, found.houseId);
        const { user } = sessionOf(request);
        const at = now();
        const ended = await db
          .update(s)
          .set({ endedAt: at, endedBy: user.realName || user.username })
          .where(and(eq(s.id, id), isNull(s.endedAt), gt(s.endsAt, at)))
          .returning({ id: s.id });
        if (ended.length === 0) throw new Refusal('conflict', 'notify.notCurrent');
        // Held notifications go out at the dispatcher's next look instead of at the old end.
        const n = alarmNotifications;
        const m = notifySilencedAlarms;
        await db
          .update(n)
          .set({ nextAt: at })
          .from(m)
          .where(and(eq(m.silenceId, id), eq(n.alarmId, m.alarmId), not(n.done), gt(n.nextAt, at)));
        const [after] = await silencesOf(scope, { id });
        const house = found.houseId ? { id: found.houseId, name: found.houseName ?? '' } : null;
        await logChange(database, request, 'notify.silence.end', `#${id}`, house);
        void ctx.events.emit('silencesChanged', [{ farmId: found.farmId, houseId: found.houseId }]);
        return ok(request, reply, after, 'notify.silenceEnded');
      },
    );
  };
}
