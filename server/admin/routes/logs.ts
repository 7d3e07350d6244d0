import type { Locale } from '../../../src/contract/envelope';
import { and, count, desc, eq, gte, ilike, inArray, lte, or, type SQL } from 'drizzle-orm';
import { scopeOf } from '../../auth/scope';
import type { SessionUser } from '../../auth/sessions';
import type { Db } from '../../db/client';
import { operationLogs } from '../../db/schema';
import { sessionOf, type AppContext } from '../../http/context';
import { localeOf, ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { ANY_ROLE, answers, fileAnswer, type RoutePlugin } from '../../http/routeSchema';
import { translate, type MessageKey } from '../../http/messages';
import {
  EXPORT_MAX_ROWS,
  EXPORT_WARN_ROWS,
  LOG_COLUMNS,
  logRowSchema,
  logExportQuerySchema,
  logQuerySchema,
  type LogRow,
} from '../../../src/contract/admin';
import { pagedSchema } from '../../../src/contract/paged';
import {
  functionKeysMatching,
  functionLabel,
  renderOperation,
} from '../../../src/contract/operationLog';
import { containsPattern } from '../access';
import { toCsv } from '../../export/csv';
import { timeHeading } from '../../export/cells';
import { formatDateTime, toXlsx } from '../spreadsheet';

type LogFilters = ReturnType<typeof logQuerySchema.parse>;

/**
 * Who reads which entries: administrators all; everyone else the entries about houses in
 * their scope and their own changes (a manager's users' account changes carry no house, and
 * nothing more was asked for: own + houses is the narrow, safe reading).
 */
async function visibleTo(db: Db, user: SessionUser): Promise<SQL | undefined> {
  const scope = await scopeOf(db, user);
  if (scope.all) return undefined;
  const own = eq(operationLogs.operatorId, user.id);
  return scope.houseIds.size === 0
    ? own
    : or(own, inArray(operationLogs.houseId, [...scope.houseIds]));
}

/**
 * The function filter is what the user typed in their language: it matches the functions
 * whose label (in the request's locale) or key contains it; a raw match on the column also
 * keeps functions this build has no label for findable.
 */
function functionFilter(text: string, locale: Locale): SQL | undefined {
  const keys = functionKeysMatching(text, locale);
  const raw = ilike(operationLogs.function, containsPattern(text));
  return keys.length === 0 ? raw : or(inArray(operationLogs.function, keys), raw);
}

async function whereOf(
  db: Db,
  user: SessionUser,
  f: LogFilters,
  locale: Locale,
): Promise<SQL | undefined> {
  return and(
    await visibleTo(db, user),
    f.from ? gte(operationLogs.at, new Date(f.from)) : undefined,
    f.to ? lte(operationLogs.at, new Date(f.to)) : undefined,
    f.operator ? ilike(operationLogs.operatorName, containsPattern(f.operator)) : undefined,
    f.function ? functionFilter(f.function, locale) : undefined,
    f.house ? ilike(operationLogs.houseName, containsPattern(f.house)) : undefined,
    f.source ? eq(operationLogs.source, f.source) : undefined,
  );
}

/** The media type of an XLSX workbook. */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function logRoutes(ctx: AppContext): RoutePlugin {
  const { db } = ctx.database;
  const { timeZone } = ctx.config;
  const present = (r: typeof operationLogs.$inferSelect): LogRow => ({
    id: r.id,
    at: r.at.toISOString(),
    operatorName: r.operatorName,
    function: r.function,
    houseName: r.houseName,
    operation: r.operation,
    params: r.params,
    remark: r.remark,
    source: r.source,
    networkId: r.networkId,
  });

  return async (app) => {
    app.get(
      '/log/list',
      {
        schema: {
          summary:
            'A page of the operation log: every entry for administrators, else own changes and those about houses in scope',
          querystring: logQuerySchema,
          response: answers(pagedSchema(logRowSchema)),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const q = request.query;
        const where = await whereOf(db, user, q, localeOf(request));
        const [rows, [total]] = await Promise.all([
          db
            .select()
            .from(operationLogs)
            .where(where)
            .orderBy(desc(operationLogs.at), desc(operationLogs.id))
            .limit(q.size)
            .offset((q.page - 1) * q.size),
          db.select({ n: count() }).from(operationLogs).where(where),
        ]);
        return ok(request, reply, { rows: rows.map(present), total: Number(total?.n ?? 0) });
      },
    );

    // Above 15,000 rows the user is warned first. The console warns from the total it
    // already shows; the server insists too (409 until `confirm=1`), so no other client skips it.
    app.get(
      '/log/export',
      {
        schema: {
          summary:
            'The filtered operation log as a CSV or XLSX file (above 15,000 rows only once confirmed)',
          querystring: logExportQuerySchema,
          response: fileAnswer(['text/csv', XLSX], 'The operation log as a spreadsheet'),
        },
        config: { roles: ANY_ROLE },
      },
      async (request, reply) => {
        const { user } = sessionOf(request);
        const q = request.query;
        const where = await whereOf(db, user, q, localeOf(request));
        const [counted] = await db.select({ n: count() }).from(operationLogs).where(where);
        const total = Number(counted?.n ?? 0);
        if (total > EXPORT_MAX_ROWS)
          throw new ApiError(422, 'admin.exportTooLarge', { max: EXPORT_MAX_ROWS });
        if (total > EXPORT_WARN_ROWS && q.confirm !== '1')
          throw new ApiError(409, 'admin.exportConfirm', { rows: total, warn: EXPORT_WARN_ROWS });
        const rows = await db
          .select()
          .from(operationLogs)
          .where(where)
          .orderBy(desc(operationLogs.at), desc(operationLogs.id))
          .limit(EXPORT_MAX_ROWS);
        const locale = localeOf(request);
        const header = LOG_COLUMNS.map((c) => {
          const label = translate(`admin.logCol.${c}`, locale);
          return c === 'at' ? timeHeading(label, timeZone) : label;
        });
        const sourceText = (s: string) =>
          `admin.source.${s}` in SOURCE_KEYS
            ? translate(SOURCE_KEYS[`admin.source.${s}` as keyof typeof SOURCE_KEYS], locale)
            : s;
        const cells = rows.map((r) => [
          formatDateTime(r.at, timeZone),
          r.operatorName,
          functionLabel(r.function, locale),
          r.houseName,
          renderOperation(r.operation, r.params, locale),
          r.remark,
          sourceText(r.source),
          r.networkId,
        ]);
        const stamp = new Date().toISOString().slice(0, 10);
        const [type, body] =
          q.format === 'xlsx'
            ? [XLSX, await toXlsx('operation-log', header, cells)]
            : ['text/csv; charset=utf-8', toCsv(header, cells, 'always')];
        return reply
          .header('Content-Type', type)
          .header(
            'Content-Disposition',
            `attachment; filename="operation-log-${stamp}.${q.format}"`,
          )
          .send(body);
      },
    );
  };
}

const SOURCE_KEYS = {
  'admin.source.computer': 'admin.source.computer',
  'admin.source.mobile': 'admin.source.mobile',
  'admin.source.other': 'admin.source.other',
} as const satisfies Record<string, MessageKey>;
