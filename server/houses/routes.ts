import type { FastifyReply } from 'fastify';
import {
  compareExportQuerySchema,
  compareQuerySchema,
  comparisonSchema,
  trendExportQuerySchema,
  type ExportFormat,
} from '../../src/contract/houses';
import {
  overviewListSchema,
  overviewQuerySchema,
  trendQuerySchema,
  trendSchema,
} from '../../src/contract/overview';
import { canSeeHouse, scopeOf } from '../auth/scope';
import {
  completenessQuerySchema,
  completenessSchema,
  type Completeness,
} from '../../src/contract/completeness';
import { completenessWindow, readCompleteness } from './completeness.sql';
import { compareHouses, comparisonTable } from './compare';
import { sendTable, TABLE_MEDIA_TYPES, type ExportTable } from './exportTable';
import { overviewJsonOf } from './overview.sql';
import { readTrend } from './readTrend.sql';
import { trendExportTable } from './trendExport';
import { sessionOf, type AppContext } from '../http/context';
import { localeOf, ok, okJson } from '../http/envelope';
import { ApiError } from '../http/errors';
import { ANY_ROLE, answers, fileAnswer, type RoutePlugin } from '../http/routeSchema';

/** The comparison export's first column and standard columns, by locale. */
const COMPARE_HEADERS = {
  en: { time: 'Time', age: 'Day of age', standard: 'Breed standard: ' },
  zh: { time: '时间', age: '日龄', standard: '品种标准：' },
} as const;

/**
 * House status: the overview, a house's trend, the comparison of houses, and their exports.
 * Every signed-in user may ask; what they get is their scope's (a house outside it is a 404).
 */
export function houseRoutes(ctx: AppContext): RoutePlugin {
  const { database, config } = ctx;
  const send = (reply: FastifyReply, table: ExportTable, format: ExportFormat, name: string) =>
    sendTable(reply, table, format, name, { refuseEmpty: true });

  return async (app) => {
    app.get(
      '/houses/compare',
      {
        schema: {
          summary: 'One metric of up to six houses over a window, by time or by day of age',
          querystring: compareQuerySchema,
          response: answers(comparisonSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const scope = await scopeOf(database.db, sessionOf(request).user);
        return ok(
          request,
          reply,
          await compareHouses(database, scope, request.query, config.timeZone),
        );
      },
    );

    app.get(
      '/houses/completeness',
      {
        schema: {
          summary:
            "Per house and day, the share of the readings its gateway's interval promised that were stored",
          querystring: completenessQuerySchema,
          response: answers(completenessSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const query = request.query;
        const scope = await scopeOf(database.db, sessionOf(request).user);
        const ids = [...new Set(query.houseIds)];
        if (ids.some((id) => !canSeeHouse(scope, id))) throw new ApiError(404, 'http.notFound');
        const now = new Date();
        const { from, to } = completenessWindow(query, now, config.timeZone);
        const rows = await readCompleteness(database, {
          houseIds: ids,
          from,
          to,
          now,
          timeZone: config.timeZone,
        });
        if (rows.length !== ids.length) throw new ApiError(404, 'http.notFound');
        const data: Completeness = {
          rows: rows.map(({ houseId, intervalSeconds, days }) => ({
            houseId,
            intervalSeconds,
            days,
          })),
          minPercent: config.completenessMinPercent,
        };
        return ok(request, reply, data);
      },
    );

    app.get(
      '/houses/compare/export',
      {
        schema: {
          summary: 'The comparison of houses as a CSV file or a workbook',
          querystring: compareExportQuerySchema,
          response: fileAnswer(TABLE_MEDIA_TYPES, 'The comparison table'),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const query = request.query;
        const scope = await scopeOf(database.db, sessionOf(request).user);
        const comparison = await compareHouses(database, scope, query, config.timeZone);
        const table = comparisonTable(
          comparison,
          config.timeZone,
          COMPARE_HEADERS[localeOf(request)],
        );
        const name = `compare-${query.metric}-${query.granularity}${query.align === 'age' ? '-by-age' : ''}`;
        return send(reply, table, query.format, name);
      },
    );

    app.get(
      '/houses/trend/export',
      {
        schema: {
          summary: "A house's trend of several metrics as a CSV file or a workbook",
          querystring: trendExportQuerySchema,
          response: fileAnswer(TABLE_MEDIA_TYPES, "The house's trend table"),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const query = request.query;
        const scope = await scopeOf(database.db, sessionOf(request).user);
        if (!canSeeHouse(scope, query.houseId)) throw new ApiError(404, 'http.notFound');
        const table = await trendExportTable(database, query, config.timeZone, localeOf(request));
        return send(reply, table, query.format, `trend-${query.houseId}-${query.granularity}`);
      },
    );

    app.get(
      '/overview/listOverview/',
      {
        schema: {
          summary: 'Every house in scope with what it is and its latest live state',
          querystring: overviewQuerySchema,
          response: answers(overviewListSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const query = request.query;
        const scope = await scopeOf(database.db, sessionOf(request).user);
        const answer = await overviewJsonOf(database, scope, config.timeZone, {
          farmId: query.farmId,
          houseId: query.houseId,
        });
        return okJson(request, reply, answer);
      },
    );

    app.get(
      '/trend/house',
      {
        schema: {
          summary: "A house's metrics over a window: mean, minimum and maximum per bucket",
          querystring: trendQuerySchema,
          response: answers(trendSchema),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const query = request.query;
        const scope = await scopeOf(database.db, sessionOf(request).user);
        // Outside the scope looks the same as not existing.
        if (!canSeeHouse(scope, query.houseId)) throw new ApiError(404, 'http.notFound');
        return ok(request, reply, await readTrend(database, query, config.timeZone));
      },
    );
  };
}
