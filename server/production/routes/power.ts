import type { FastifyPluginAsync } from 'fastify';
import { powerQuerySchema, tariffInputSchema } from '../../../src/contract/production';
import { powerMonthQuerySchema, tariffQuerySchema } from '../../../src/contract/productionPower';
import { scopeOf } from '../../auth/scope';
import { sessionOf, sourceOf, type AppContext } from '../../http/context';
import { ok, parseInput } from '../../http/envelope';
import { writeOperationLog } from '../../oplog';
import { Refusal } from '../../refusal';
import { loadFlockKpis } from '../flockKpis';
import { powerPlace, readPowerDay, readTariff, saveTariff } from '../power';
import { daysOfMonth, readPowerMonth } from '../powerMonth';
import { localDay, readFlocks } from '../records';
import { OPERATING } from '../../auth/operate';

/**
 * The tariff bills the whole organisation: its administrators and company managers read and set
 * it (setting is an operating action). A company manager sees its own organisation's; another answers
 * like one that does not exist.
 */
function mayBill(user: { roleKey: string; orgId: number | null }, orgId: number | null): void {
  if (!['administrator', 'company_manager'].includes(user.roleKey))
    throw new Refusal('forbidden', 'auth.forbidden');
  if (orgId !== null && user.roleKey !== 'administrator' && orgId !== user.orgId)
    throw new Refusal('notFound', 'production.noOrganisation');
}

/** Power management: a house's or a farm's electricity of a day and its time-of-use cost; the tariff. */
export function powerRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database, config } = ctx;
  return async (app) => {
    app.get('/production/power', async (request, reply) => {
      const q = parseInput(powerQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      const { houseIds, tariff } = await powerPlace(database, scope, q);
      return ok(
        request,
        reply,
        await readPowerDay(database, houseIds, q.day, config.timeZone, tariff),
      );
    });

    app.get('/production/power/month', async (request, reply) => {
      const q = parseInput(powerMonthQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      const { houseIds, tariff } = await powerPlace(database, scope, q);
      const days = daysOfMonth(q.month);
      const [first, last] = [days[0]!, days[days.length - 1]!];
      // The flocks housed in those houses at some time of the month give the per-bird figures.
      const flocks = (
        await readFlocks(
          database,
          scope,
          q.houseId !== undefined ? { houseId: q.houseId } : { farmId: q.farmId },
        )
      ).filter(
        (f) =>
          houseIds.includes(f.houseId) &&
          f.placedOn <= last &&
          (f.closedOn === null || f.closedOn >= first),
      );
      const today = localDay(new Date(), config.timeZone);
      const kpis = await loadFlockKpis(database, flocks, today, config.timeZone);
      return ok(
        request,
        reply,
        await readPowerMonth(database, houseIds, q.month, config.timeZone, tariff, kpis),
      );
    });

    app.get('/production/tariff', async (request, reply) => {
      const { orgId } = parseInput(tariffQuerySchema, request.query);
      mayBill(sessionOf(request).user, orgId);
      const [org] = await database.query('select id from organizations where id = $1', [orgId]);
      if (!org) throw new Refusal('notFound', 'production.noOrganisation');
      return ok(request, reply, { orgId, tariff: await readTariff(database, orgId) });
    });

    app.put('/production/tariff', OPERATING, async (request, reply) => {
      const { user } = sessionOf(request);
      mayBill(user, null);
      const { orgId, ...tariff } = parseInput(tariffInputSchema, request.body);
      mayBill(user, orgId);
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
