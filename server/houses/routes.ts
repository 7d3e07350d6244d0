import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import {
  compareExportQuerySchema,
  compareQuerySchema,
  trendExportQuerySchema,
  type ExportFormat,
} from '../../src/contract/houses';
import { overviewQuerySchema, trendQuerySchema } from '../../src/contract/overview';
import { canSeeHouse, scopeOf } from '../auth/scope';
import { compareHouses, comparisonTable } from './compare';
import { sendTable, type ExportTable } from './exportTable';
import { overviewJsonOf } from './overview';
import { readTrend } from './readTrend';
import { trendExportTable } from './trendExport';
import { sessionOf, type AppContext } from '../http/context';
import { localeOf, ok, okJson, parseInput } from '../http/envelope';
import { ApiError } from '../http/errors';

/** The comparison export's first column and standard columns, by locale. */
const COMPARE_HEADERS = {
  en: { time: 'Time', age: 'Day of age', standard: 'Breed standard: ' },
  zh: { time: '时间', age: '日龄', standard: '品种标准：' },
} as const;

/** House status: the overview, a house's trend, the comparison of houses, and their exports. */
export function houseRoutes(ctx: AppContext): FastifyPluginAsync {
  const { database, config } = ctx;
  const send = (reply: FastifyReply, table: ExportTable, format: ExportFormat, name: string) =>
    sendTable(reply, table, format, name, { refuseEmpty: true });

  return async (app) => {
    app.get('/houses/compare', async (request, reply) => {
      const query = parseInput(compareQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      return ok(request, reply, await compareHouses(database, scope, query, config.timeZone));
    });

    app.get('/houses/compare/export', async (request, reply) => {
      const query = parseInput(compareExportQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      const comparison = await compareHouses(database, scope, query, config.timeZone);
      const table = comparisonTable(
        comparison,
        config.timeZone,
        COMPARE_HEADERS[localeOf(request)],
      );
      const name = `compare-${query.metric}-${query.granularity}${query.align === 'age' ? '-by-age' : ''}`;
      return send(reply, table, query.format, name);
    });

    app.get('/houses/trend/export', async (request, reply) => {
      const query = parseInput(trendExportQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      if (!canSeeHouse(scope, query.houseId)) throw new ApiError(404, 'http.notFound');
      const table = await trendExportTable(database, query, config.timeZone, localeOf(request));
      return send(reply, table, query.format, `trend-${query.houseId}-${query.granularity}`);
    });

    app.get('/overview/listOverview/', async (request, reply) => {
      const query = parseInput(overviewQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      const answer = await overviewJsonOf(database, scope, ctx.config.timeZone, {
        farmId: query.farmId,
        houseId: query.houseId,
      });
      return okJson(request, reply, answer);
    });

    app.get('/trend/house', async (request, reply) => {
      const query = parseInput(trendQuerySchema, request.query);
      const scope = await scopeOf(database.db, sessionOf(request).user);
      // Outside the scope looks the same as not existing.
      if (!canSeeHouse(scope, query.houseId)) throw new ApiError(404, 'http.notFound');
      return ok(request, reply, await readTrend(database, query, ctx.config.timeZone));
    });
  };
}
