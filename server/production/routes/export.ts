import {
  kpiExportQuerySchema,
  powerExportQuerySchema,
} from '../../../src/contract/productionCompare';
import { scopeOf } from '../../auth/scope';
import { sessionOf, type AppContext } from '../../http/context';
import { localeOf } from '../../http/envelope';
import { ANY_ROLE, fileAnswer, type RoutePlugin } from '../../http/routeSchema';
import { sendTable, TABLE_MEDIA_TYPES } from '../../houses/exportTable';
import { Refusal } from '../../refusal';
import { loadFlockKpis } from '../flockKpis';
import { kpiTable, powerTable } from '../exportTables';
import { powerPlace, readPowerDay } from '../power';
import { localDay, readFlocks } from '../records';

/**
 * Daily Business's files: a flock's KPIs and a day's electricity as CSV or XLSX. Made here, on the
 * server, so the spreadsheet library never reaches the console's bundle.
 */
export function exportRoutes(ctx: AppContext): RoutePlugin {
  const { database, config } = ctx;
  return async (app) => {
    app.get(
      '/production/kpi/export',
      {
        schema: {
          summary: "A flock's KPIs by day as a CSV file or a workbook",
          querystring: kpiExportQuerySchema,
          response: fileAnswer(TABLE_MEDIA_TYPES, "The flock's KPI table"),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeOf(database.db, sessionOf(request).user);
        const [flock] = await readFlocks(database, scope, { flockIds: [q.flockId] });
        if (!flock) throw new Refusal('notFound', 'production.flockNotFound');
        const today = localDay(new Date(), config.timeZone);
        const [kpis] = await loadFlockKpis(database, [flock], today, config.timeZone);
        const table = kpiTable(kpis!, localeOf(request));
        return sendTable(reply, table, q.format, `flock-${flock.id}-kpi`, {
          sheet: `KPI ${flock.placedOn}`,
        });
      },
    );

    app.get(
      '/production/power/export',
      {
        schema: {
          summary: "A house's or a farm's electricity of a day as a CSV file or a workbook",
          querystring: powerExportQuerySchema,
          response: fileAnswer(TABLE_MEDIA_TYPES, 'The hourly electricity table'),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = await scopeOf(database.db, sessionOf(request).user);
        const { houseIds, tariff } = await powerPlace(database, scope, q);
        const power = await readPowerDay(
          database,
          houseIds,
          q.day,
          config.timeZone,
          tariff,
          new Date(),
        );
        const place = q.houseId !== undefined ? `house-${q.houseId}` : `farm-${q.farmId}`;
        return sendTable(
          reply,
          powerTable(power, localeOf(request)),
          q.format,
          `power-${place}-${q.day}`,
          {
            sheet: q.day,
          },
        );
      },
    );
  };
}
