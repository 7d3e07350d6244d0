import type { FastifyPluginAsync } from 'fastify';
import { powerQuerySchema, tariffInputSchema } from '../../src/contract/production';
import { canSeeFarm, canSeeHouse, scopeOf } from '../auth/scope';
import { sessionOf, sourceOf, type AppContext } from '../http/context';
import { ok, parseInput } from '../http/envelope';
import { writeOperationLog } from '../oplog';
import { Refusal } from '../refusal';
import { readPowerDay, readTariff, saveTariff } from './power';

/** Power management: a house's or a farm's electricity of a day and its time-of-use cost; the tariff. */
export function powerRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database, config } = ctx;
  return async (app) => {
    app.get('/production/power', async (request, reply) => {
      const q = parseInput(powerQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      let houseIds: number[];
      if (q.houseId !== undefined) {
        if (!canSeeHouse(scope, q.houseId)) throw new Refusal('notFound', 'houses.notFound');
        houseIds = [q.houseId];
      } else {
        if (!canSeeFarm(scope, q.farmId!)) throw new Refusal('notFound', 'houses.notFound');
        const rows = await database.query<{ id: number }>(
          'select id from houses where farm_id = $1',
          [q.farmId],
        );
        houseIds = rows.map((r) => Number(r.id)).filter((id) => canSeeHouse(scope, id));
      }
      // The farm's organisation bills it; a user's own organisation when it has none of its own.
      const [org] = await database.query<{ org_id: number }>(
        'select f.org_id from houses h join farms f on f.id = h.farm_id where h.id = any($1::int[]) limit 1',
        [houseIds],
      );
      const tariff = org ? await readTariff(database, Number(org.org_id)) : null;
      return ok(
        request,
        reply,
        await readPowerDay(database, houseIds, q.day, config.timeZone, tariff),
      );
    });

    app.put('/production/tariff', async (request, reply) => {
      const { user } = sessionOf(request);
      // The tariff bills the whole organisation: its administrators and company managers set it.
      if (!user.canOperate || !['administrator', 'company_manager'].includes(user.roleKey))
        throw new Refusal('forbidden', 'auth.forbidden');
      const { orgId, ...tariff } = parseInput(tariffInputSchema, request.body);
      // A company manager sets its own organisation's; another answers like one that does not exist.
      if (user.roleKey !== 'administrator' && orgId !== user.orgId)
        throw new Refusal('notFound', 'production.noOrganisation');
      const [org] = await database.query('select id from organizations where id = $1', [orgId]);
      if (!org) throw new Refusal('notFound', 'production.noOrganisation');
      await saveTariff(database, orgId, tariff);
      await writeOperationLog(database.db, {
        operator: { id: user.id, name: user.realName || user.username },
        function: 'production.tariff',
        operation: { key: 'text', params: { text: JSON.stringify(tariff.prices) } },
        source: sourceOf(request),
      });
      return ok(request, reply, { tariff }, 'production.tariffSaved');
    });
  };
}
