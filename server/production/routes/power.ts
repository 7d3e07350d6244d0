import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  powerAnswerSchema,
  powerQuerySchema,
  tariffInputSchema,
  tariffSchema,
} from '../../../src/contract/production';
import {
  powerMonthQuerySchema,
  powerMonthSchema,
  tariffAnswerSchema,
  tariffQuerySchema,
} from '../../../src/contract/productionPower';
import { scopeOf } from '../../auth/scope';
import { organizations } from '../../db/schema';
import { sessionOf, sourceOf, type AppContext } from '../../http/context';
import { ok } from '../../http/envelope';
import { ANY_ROLE, answers, type RoutePlugin } from '../../http/routeSchema';
import { writeOperationLog } from '../../oplog';
import { Refusal } from '../../refusal';
import { loadFlockKpis } from '../flockKpis';
import { mustBillOrg, powerPlace, readPowerDay, readTariff, saveTariff } from '../power';
import { daysOfMonth, readPowerMonth } from '../powerMonth';
import { localDay, readFlocks } from '../records';

/**
 * The tariff bills the whole organisation: its administrators and company managers read and set
 * it (setting is an operating action).
 */
const BILLING = ['administrator', 'company_manager'] as const;

/** Power management: a house's or a farm's electricity of a day and its time-of-use cost; the tariff. */
export function powerRoutes(ctx: AppContext): RoutePlugin {
  const { database, config } = ctx;
  /** An organisation that does not exist answers like one the user may not bill. */
  const mustExistOrg = async (orgId: number) => {
    const [org] = await database.db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, orgId));
    if (!org) throw new Refusal('notFound', 'production.noOrganisation');
  };
  return async (app) => {
    app.get(
      '/production/power',
      {
        schema: {
          summary: "A house's or a farm's electricity of a day, by hour, and its time-of-use cost",
          querystring: powerQuerySchema,
          response: answers(powerAnswerSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeOf(database.db, sessionOf(request).user);
        const { houseIds, tariff } = await powerPlace(database, scope, q);
        return ok(
          request,
          reply,
          await readPowerDay(database, houseIds, q.day, config.timeZone, tariff, new Date()),
        );
      },
    );

    app.get(
      '/production/power/month',
      {
        schema: {
          summary:
            "A house's or a farm's electricity of a month, by day, with cost per bird and per egg",
          querystring: powerMonthQuerySchema,
          response: answers(powerMonthSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
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
        const now = new Date();
        const kpis = await loadFlockKpis(
          database,
          flocks,
          localDay(now, config.timeZone),
          config.timeZone,
        );
        return ok(
          request,
          reply,
          await readPowerMonth(database, houseIds, q.month, config.timeZone, tariff, kpis, now),
        );
      },
    );

    app.get(
      '/production/tariff',
      {
        schema: {
          summary: "An organisation's electricity tariff (time-of-use prices)",
          querystring: tariffQuerySchema,
          response: answers(tariffAnswerSchema),
        },
        config: { roles: BILLING },
      },
      async (request, reply) => {
        const { orgId } = request.query;
        mustBillOrg(sessionOf(request).user, orgId);
        await mustExistOrg(orgId);
        return ok(request, reply, { orgId, tariff: await readTariff(database, orgId) });
      },
    );

    app.put(
      '/production/tariff',
      {
        schema: {
          summary: "Sets an organisation's electricity tariff",
          body: tariffInputSchema,
          response: answers(z.object({ tariff: tariffSchema })),
        },
        config: { roles: BILLING, operating: true },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const { orgId, ...tariff } = request.body;
        mustBillOrg(user, orgId);
        await mustExistOrg(orgId);
        await saveTariff(database, orgId, tariff);
        await writeOperationLog(database.db, {
          operator: { id: user.id, name: user.realName || user.username },
          function: 'production.tariff',
          operation: { key: 'text', params: { text: JSON.stringify(tariff.prices) } },
          source: sourceOf(request),
        });
        return ok(request, reply, { tariff }, 'production.tariffSaved');
      },
    );
  };
}
