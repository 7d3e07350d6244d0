import type { FastifyPluginAsync } from 'fastify';
import {
  kpiExportQuerySchema,
  powerExportQuerySchema,
} from '../../../src/contract/productionCompare';
import { scopeOf } from '../../auth/scope';
import { sessionOf, type AppContext } from '../../http/context';
import { localeOf, parseInput } from '../../http/envelope';
import { sendTable } from '../../houses/exportTable';
import { Refusal } from '../../refusal';
import { loadFlockKpis } from '../flockKpis';
import { kpiTable, powerTable } from '../exportTables';
import { powerPlace, readPowerDay } from '../power';
import { localDay, readFlocks } from '../records';

/**
 * Daily Business's files: a flock's KPIs and a day's electricity as CSV or XLSX. Made here, on the
 * server, so the spreadsheet library never reaches the console's bundle.
 */
export function exportRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database, config } = ctx;
  return async (app) => {
    app.get('/production/kpi/export', async (request, reply) => {
      const q = parseInput(kpiExportQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      const [flock] = await readFlocks(database, scope, { flockIds: [q.flockId] });
      if (!flock) throw new Refusal('notFound', 'production.flockNotFound');
      const today = localDay(new Date(), config.timeZone);
      const [kpis] = await loadFlockKpis(database, [flock], today, config.timeZone);
      const table = kpiTable(kpis!, localeOf(request));
      return sendTable(reply, table, q.format, `flock-${flock.id}-kpi`, {
        sheet: `KPI ${flock.placedOn}`,
      });
    });

    app.get('/production/power/export', async (request, reply) => {
      const q = parseInput(powerExportQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      const { houseIds, tariff } = await powerPlace(database, scope, q);
      const power = await readPowerDay(database, houseIds, q.day, config.timeZone, tariff);
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
    });
  };
}
