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
import type { Query } from '../db/client';
import { formatDateTime } from '../export/cells';
import { translate } from '../http/messages';

type RecordFilters = z.infer<typeof paramChangeExportQuerySchema>;

/** The where clause of modify records, inside the scope, with its parameters. */
export function recordsWhere(
  scope: Scope,
  q: RecordFilters,
): { clause: string; params: unknown[] } {
  const params: unknown[] = [];
  const where: string[] = [];
  if (!scope.all) where.push(`c.house_id = any($${params.push([...scope.houseIds])}::int[])`);
  if (q.houseId) where.push(`c.house_id = $${params.push(q.houseId)}`);
  if (q.source) where.push(`c.source = $${params.push(q.source)}`);
  if (q.key) where.push(`c.key = $${params.push(q.key)}`);
  if (q.operator)
    where.push(`c.operator_name ilike $${params.push(containsPattern(q.operator))} escape '\\'`);
  if (q.from) where.push(`c.at >= $${params.push(q.from)}::timestamptz`);
  if (q.to) where.push(`c.at <= $${params.push(q.to)}::timestamptz`);
  return { clause: where.length > 0 ? where.join(' and ') : 'true', params };
}

type RecordRow = ParamChange & { at: Date | string };

/** Reads modify records, newest first. */
export async function readRecords(
  query: Query,
  where: { clause: string; params: unknown[] },
  limit: number,
  offset: number,
): Promise<ParamChange[]> {
  const params = [...where.params];
  const rows = await query<RecordRow>(
    `select c.id, c.house_id as "houseId", h.name as "houseName", c.at, c.source,
       c.operator_name as operator, c.key, c.old_value as "oldValue", c.new_value as "newValue"
     from param_changes c join houses h on h.id = c.house_id where ${where.clause}
     order by c.at desc, c.id desc limit $${params.push(limit)} offset $${params.push(offset)}`,
    params,
  );
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    houseId: Number(r.houseId),
    at: new Date(r.at).toISOString(),
    oldValue: r.oldValue === null ? null : Number(r.oldValue),
    newValue: Number(r.newValue),
  }));
}

export async function countRecords(
  query: Query,
  where: { clause: string; params: unknown[] },
): Promise<number> {
  const [row] = await query<{ n: number }>(
    `select count(*)::int as n from param_changes c where ${where.clause}`,
    where.params,
  );
  return Number(row?.n ?? 0);
}

const COLUMNS = ['at', 'house', 'source', 'operator', 'parameter', 'old', 'new', 'unit'] as const;

/** Modify records as CSV in the reader's language: one row per change, old → new. */
export function recordsCsv(rows: readonly ParamChange[], locale: Locale, timeZone: string): Buffer {
  const header = COLUMNS.map((c) => translate(`envcontrol.recordCol.${c}`, locale));
  const cells = rows.map((r) => {
    const spec = PARAM_BY_KEY.get(r.key);
    return [
      formatDateTime(new Date(r.at), timeZone),
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
