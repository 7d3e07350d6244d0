import { and, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Alarm, AlarmCause, AlarmSeverity, AlarmState } from '../../src/contract/alarms';
import type { FunctionKey } from '../../src/contract/operationLog';
import type { Db } from '../db/client';
import { alarms } from '../db/alarmSchema';
import { farms, houses, operationLogs } from '../db/schema';
import { anyOf } from './access';
import type { Step } from './rules';

/**
 * The alarm lifecycle in the database. Every change is one conditional statement (`where
 * state <> 'cleared'`, `where state = 'active'`, the partial unique index on insert), so two
 * processes racing on one alarm agree: one wins, the other changes nothing.
 */

/** An alarm with its house and farm names: select from `alarmsWithNames`. */
export const ALARM_FIELDS = {
  id: alarms.id,
  houseId: alarms.houseId,
  farmId: alarms.farmId,
  houseName: houses.name,
  farmName: farms.name,
  cause: alarms.cause,
  subject: alarms.subject,
  severity: alarms.severity,
  state: alarms.state,
  value: alarms.value,
  limit: alarms.limitValue,
  text: alarms.text,
  raisedAt: alarms.raisedAt,
  acknowledgedAt: alarms.acknowledgedAt,
  acknowledgedBy: alarms.acknowledgedBy,
  ackComment: alarms.ackComment,
  clearedAt: alarms.clearedAt,
  clearedBy: alarms.clearedBy,
  occurrences: alarms.occurrences,
};

export interface AlarmRow {
  id: number;
  houseId: number;
  farmId: number;
  houseName: string;
  farmName: string;
  cause: string;
  subject: string;
  severity: string;
  state: string;
  value: number | null;
  limit: number | null;
  text: string | null;
  raisedAt: Date;
  acknowledgedAt: Date | null;
  acknowledgedBy: string | null;
  ackComment: string | null;
  clearedAt: Date | null;
  clearedBy: string | null;
  occurrences: number;
}

/** Alarms joined to their house and farm, for `ALARM_FIELDS`. */
export function alarmsWithNames(db: Db) {
  return db
    .select(ALARM_FIELDS)
    .from(alarms)
    .innerJoin(houses, eq(houses.id, alarms.houseId))
    .innerJoin(farms, eq(farms.id, houses.farmId));
}

const iso = (v: Date | null) => (v === null ? null : v.toISOString());

/** The one wire shape of an alarm (REST and live events alike). */
export function presentAlarm(row: AlarmRow): Alarm {
  return {
    id: row.id,
    houseId: row.houseId,
    houseName: row.houseName,
    farmId: row.farmId,
    farmName: row.farmName,
    cause: row.cause as AlarmCause,
    severity: row.severity as AlarmSeverity,
    subject: row.subject === '' ? null : row.subject,
    value: row.value,
    limit: row.limit,
    text: row.text,
    state: row.state as AlarmState,
    raisedAt: row.raisedAt.toISOString(),
    acknowledgedAt: iso(row.acknowledgedAt),
    acknowledgedBy: row.acknowledgedBy,
    ackComment: row.ackComment,
    clearedAt: iso(row.clearedAt),
    clearedBy: row.clearedBy === 'user' ? 'user' : row.clearedBy === null ? null : 'condition',
    occurrences: row.occurrences,
  };
}

export type AlarmEventKind = 'raised' | 'acknowledged' | 'cleared';
export interface AlarmChange {
  kind: AlarmEventKind;
  alarm: Alarm;
}

async function withNames(db: Db, ids: number[]): Promise<Map<number, Alarm>> {
  if (ids.length === 0) return new Map();
  const rows = await alarmsWithNames(db).where(anyOf(alarms.id, ids));
  return new Map(rows.map((r) => [r.id, presentAlarm(r)]));
}

export interface Operator {
  id: number | null;
  name: string;
}
export const SYSTEM_OPERATOR: Operator = { id: null, name: 'Roost' };

/** The operation log, in the caller's transaction (the same table server/oplog.ts writes). */
export async function logStep(
  db: Db,
  operator: Operator,
  fn: FunctionKey,
  alarm: Alarm,
  remark = '',
  source = 'other',
): Promise<void> {
  // The cause and subject as keys: the reader's language names them when the log is shown.
  const params = {
    cause: alarm.cause,
    ...(alarm.subject ? { metric: alarm.subject } : {}),
    id: alarm.id,
  };
  await db.insert(operationLogs).values({
    operatorId: operator.id,
    operatorName: operator.name,
    function: fn,
    houseId: alarm.houseId,
    houseName: alarm.houseName,
    operation: 'alarm',
    params,
    remark,
    source,
  });
}

/** Applies the rules' steps for one house; answers what browsers should hear about. */
export async function applySteps(
  db: Db,
  house: { houseId: number; farmId: number },
  steps: readonly Step[],
): Promise<AlarmChange[]> {
  const changed: Array<{ kind: AlarmEventKind; id: number; fn: FunctionKey }> = [];
  const id = { id: alarms.id };
  for (const s of steps) {
    const at = new Date(s.at);
    const open = and(
      eq(alarms.houseId, house.houseId),
      eq(alarms.cause, s.cause),
      eq(alarms.subject, s.subject),
      ne(alarms.state, 'cleared'),
    );
    if (s.kind === 'raise') {
      // Another process raised it first (the index holds): then there is nothing to tell.
      const [row] = await db
        .insert(alarms)
        .values({
          houseId: house.houseId,
          farmId: house.farmId,
          cause: s.cause,
          subject: s.subject,
          severity: s.severity,
          state: 'active',
          value: s.value,
          limitValue: s.limit,
          text: s.text,
          raisedAt: at,
        })
        .onConflictDoNothing({
          target: [alarms.houseId, alarms.cause, alarms.subject],
          where: sql`state <> 'cleared'`,
        })
        .returning(id);
      if (row) changed.push({ kind: 'raised', id: row.id, fn: 'alarm.raise' });
    } else if (s.kind === 'recur') {
      const [row] = await db
        .update(alarms)
        .set({
          occurrences: sql`${alarms.occurrences} + 1`,
          conditionEndedAt: null,
          value: sql`coalesce(${s.value}, ${alarms.value})`,
        })
        .where(and(open, isNotNull(alarms.conditionEndedAt)))
        .returning(id);
      if (row) changed.push({ kind: 'raised', id: row.id, fn: 'alarm.recur' });
    } else if (s.kind === 'end') {
      await db
        .update(alarms)
        .set({ conditionEndedAt: at })
        .where(and(open, isNull(alarms.conditionEndedAt)));
    } else {
      const [row] = await db
        .update(alarms)
        .set({ state: 'cleared', clearedAt: at, clearedBy: 'condition' })
        .where(open)
        .returning(id);
      if (row) changed.push({ kind: 'cleared', id: row.id, fn: 'alarm.clear' });
    }
  }
  const named = await withNames(
    db,
    changed.map((c) => c.id),
  );
  const out: AlarmChange[] = [];
  for (const c of changed) {
    const alarm = named.get(c.id);
    if (!alarm) continue;
    await logStep(db, SYSTEM_OPERATOR, c.fn, alarm, alarm.text ?? '');
    out.push({ kind: c.kind, alarm });
  }
  return out;
}
