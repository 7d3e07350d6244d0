import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { Scope } from '../auth/scope';
import { alarms } from '../db/alarmSchema';
import { inScope } from '../alarms/access';
import { ALARM_FIELDS, presentAlarm } from '../alarms/lifecycle';
import { farms, houses } from '../db/schema';
import { WALL_OPEN_ALARMS_MAX, type WallOpenAlarms } from '../../src/contract/wallAlarms';

/** The order of src/contract/wallAlarms' worstFirst, in SQL. */
const SEVERITY_RANK = sql`case ${alarms.severity} when 'critical' then 0 when 'major' then 1 else 2 end`;

function withNames(database: Database) {
  return database.db
    .select({ ...ALARM_FIELDS, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(alarms)
    .innerJoin(houses, eq(houses.id, alarms.houseId))
    .innerJoin(farms, eq(farms.id, houses.farmId));
}

/**
 * What is wrong now in a scope: its open alarms, worst first, with their total from the same
 * statement (a window count); only when none is open, the one cleared last.
 */
export async function openAlarmsOfScope(database: Database, scope: Scope): Promise<WallOpenAlarms> {
  const rows = await withNames(database)
    .where(and(ne(alarms.state, 'cleared'), inScope(scope, alarms.houseId)))
    .orderBy(SEVERITY_RANK, asc(alarms.raisedAt), asc(alarms.id))
    .limit(WALL_OPEN_ALARMS_MAX);
  if (rows.length > 0)
    return { alarms: rows.map(presentAlarm), total: rows[0]!.total, lastCleared: null };
  const [last] = await withNames(database)
    .where(and(eq(alarms.state, 'cleared'), inScope(scope, alarms.houseId)))
    .orderBy(desc(alarms.clearedAt), desc(alarms.id))
    .limit(1);
  return { alarms: [], total: 0, lastCleared: last ? presentAlarm(last) : null };
}
