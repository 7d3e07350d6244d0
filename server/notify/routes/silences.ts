import { pagedSchema } from '../../../src/contract/paged';
import {
  silenceIdSchema,
  silenceInputSchema,
  silenceListQuerySchema,
  silenceSchema,
} from '../../../src/contract/notify';
import { sessionOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';
import { Refusal } from '../../refusal';
import { presentSilence, SILENCE_SELECT, type SilenceRow } from '../silences';
import { checkPlace, logChange, scopeFor } from './shared';

/** Silences and maintenance windows: list, create, end early. Changes need canOperate. */
export function silenceRoutes(ctx: AppContext): RoutePlugin {
  const { database } = ctx;
  const now = () => new Date();

  /** Farm-wide silences of the user's farms and house silences of houses in scope. */
  const silencesOf = async (
    scope: Awaited<ReturnType<typeof scopeFor>>,
    filter: { id?: number; farmId?: number; houseId?: number; current?: boolean },
  ) => {
    const params: unknown[] = [];
    const where: string[] = [];
    if (!scope.all)
      where.push(
        `s.farm_id = any($${params.push([...scope.farmIds])}::int[]) and (s.house_id is null or s.house_id = any($${params.push([...scope.houseIds])}::int[]))`,
      );
    if (filter.id) where.push(`s.id = $${params.push(filter.id)}`);
    if (filter.farmId) where.push(`s.farm_id = $${params.push(filter.farmId)}`);
    if (filter.houseId)
      where.push(`(s.house_id is null or s.house_id = $${params.push(filter.houseId)})`);
    if (filter.current) where.push(`s.ended_at is null and s.ends_at > $${params.push(now())}`);
    const rows = await database.query<SilenceRow>(
      `${SILENCE_SELECT} where ${where.length ? where.join(' and ') : 'true'}
       order by (s.ended_at is null and s.ends_at > now()) desc, s.starts_at desc, s.id desc limit 500`,
      params,
    );
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
        const [row] = await database.query<{ id: number }>(
          `insert into notify_silences (farm_id, house_id, cause, reason, owner_id, owner_name, starts_at, ends_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
          [v.farmId, v.houseId, v.cause, v.reason, user.id, owner, startsAt, new Date(v.endsAt)],
        );
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
        const ended = await database.query(
          `update notify_silences set ended_at = $2, ended_by = $3
         where id = $1 and ended_at is null and ends_at > $2 returning id`,
          [id, at, user.realName || user.username],
        );
        if (ended.length === 0) throw new Refusal('conflict', 'notify.notCurrent');
        // Held notifications go out at the dispatcher's next look instead of at the old end.
        await database.query(
          `update alarm_notifications n set next_at = $2 from notify_silenced_alarms m
         where m.silence_id = $1 and n.alarm_id = m.alarm_id and not n.done and n.next_at > $2`,
          [id, at],
        );
        const [after] = await silencesOf(scope, { id });
        const house = found.houseId ? { id: found.houseId, name: found.houseName ?? '' } : null;
        await logChange(database, request, 'notify.silence.end', `#${id}`, house);
        void ctx.events.emit('silencesChanged', [{ farmId: found.farmId, houseId: found.houseId }]);
        return ok(request, reply, after, 'notify.silenceEnded');
      },
    );
  };
}
