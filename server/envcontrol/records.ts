import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  PARAM_BY_KEY,
  type ParamChange,
  type paramChangeExportQuerySchema,
} from '../../src/contract/envcontrol';
import type { Locale } from '../../src/contract/envelope';
import { containsPattern } from '../admin/access';
import { toCsv } from '../export/csv';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { paramChanges } from '../db/envcontrolSchema';
import { farms, houses } from '../db/schema';
import { formatDateTime, timeHeading } from '../export/cells';
import { translate } from '../http/messages';

type RecordFilters = z.infer<typeof paramChangeExportQuerySchema>;

/** The condition on modify records: inside the scope, and the filters asked for. */
export function recordsWhere(scope: Scope, q: RecordFilters): SQL | undefined {
  const c = paramChanges;
  return and(
    scope.all ? undefined : inArray(c.houseId, [...scope.houseIds]),
    q.houseId ? eq(c.houseId, q.houseId) : undefined,
    q.source ? eq(c.source, q.source) : undefined,
    q.key ? eq(c.key, q.key) : undefined,
    q.operator
      ? sql`${c.operatorName} ilike ${containsPattern(q.operator)} escape '\\'`
      : undefined,
    q.from ? sql`${c.at} >= ${q.from}::timestamptz` : undefined,
    q.to ? sql`${c.at} <= ${q.to}::timestamptz` : undefined,
  );
}

/** Reads modify records, newest first. */
export async function readRecords(
  db: Db,
  where: SQL | undefined,
  limit: number,
  offset: number,
): Promise<ParamChange[]> {
  const c = paramChanges;
  const rows = await db
    .select({
      id: c.id,
      houseId: c.houseId,
      farmName: farms.name,
      houseName: houses.name,
      at: c.at,
      source: c.source,
      operator: c.operatorName,
      key: c.key,
      oldValue: c.oldValue,
      newValue: c.newValue,
    })
    .from(c)
    .innerJoin(houses, eq(houses.id, c.houseId))
    .innerJoin(farms, eq(farms.id, houses.farmId))
    .where(where)
    .orderBy(desc(c.at), desc(c.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({
    ...r,
    source: r.source as ParamChange['source'],
    at: r.at.toISOString(),
  }));
}

export async function countRecords(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(paramChanges).where(where);
  return row?.n ?? 0;
}

const COLUMNS = [
  'at',
  'farm',
  'house',
  'source',
  'operator',
  'parameter',
  'old',
  'new',
  'unit',
] as const;

/**
 * Modify records as CSV in the reader's language: one row per change, old → new, with the
 * house's farm, and times in the installation's zone, which the time heading names.
 */
export function recordsCsv(rows: readonly ParamChange[], locale: Locale, timeZone: string): Buffer {
  const header = COLUMNS.map((c) => {
    const label = translate(`envcontrol.recordCol.${c}`, locale);
    return c === 'at' ? timeHeading(label, timeZone) : label;
  });
  const cells = rows.map((r) => {
    const spec = PARAM_BY_KEY.get(r.key);
    return [
      formatDateTime(new Date(r.at), timeZone),
      r.farmName,
      r.houseName,
      translate(`envcontrol.recordSource.${r.source}`, locale),
      r.operator || translate('envcontrol.recordSource.controller', locale),
      spec ? spec.label[locale] : r.key,
      r.oldValue === null ? '' : String(r.oldValue),
      String(r.newValue),
      spec?.unit ?? '',
    ];
  });
  return toCsv(header, cells, 'always');
}
