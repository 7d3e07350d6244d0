import type { Alarm, AlarmCause, AlarmSeverity, AlarmState } from '../../src/contract/alarms';
import type { FunctionKey } from '../../src/contract/operationLog';
import type { Query } from '../db/client';
import type { HouseLiveState } from '../houses/state';
import { STATE_COLUMNS, stateFromRow, type StateRow } from '../houses/state';
import { keyOf, type OpenAlarm, type Step } from './rules';

/**
 * The alarm lifecycle in the database. Every change is one conditional statement (`where
 * state <> 'cleared'`, `where state = 'active'`, the partial unique index on insert), so two
 * processes racing on one alarm agree: one wins, the other changes nothing.
 */

export interface AlarmRow {
  id: number;
  house_id: number;
  farm_id: number;
  house_name: string;
  farm_name: string;
  cause: string;
  subject: string;
  severity: string;
  state: string;
  value: number | null;
  limit_value: number | null;
  text: string | null;
  raised_at: Date | string;
  condition_ended_at: Date | string | null;
  acknowledged_at: Date | string | null;
  acknowledged_by: string | null;
  ack_comment: string | null;
  cleared_at: Date | string | null;
  cleared_by: string | null;
  occurrences: number;
}

/** Selects an alarm with its house and farm names; `a` is the alarms table. */
export const ALARM_SELECT = `a.id, a.house_id, a.farm_id, h.name as house_name, f.name as farm_name, a.cause,
  a.subject, a.severity, a.state, a.value, a.limit_value, a.text, a.raised_at, a.condition_ended_at,
  a.acknowledged_at, a.acknowledged_by, a.ack_comment, a.cleared_at, a.cleared_by, a.occurrences`;
export const ALARM_FROM = `alarms a join houses h on h.id = a.house_id join farms f on f.id = h.farm_id`;

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** The one wire shape of an alarm (REST and live events alike). */
export function presentAlarm(row: AlarmRow): Alarm {
  return {
    id: row.id,
    houseId: row.house_id,
    houseName: row.house_name,
    farmId: row.farm_id,
    farmName: row.farm_name,
    cause: row.cause as AlarmCause,
    severity: row.severity as AlarmSeverity,
    subject: row.subject === '' ? null : row.subject,
    value: row.value === null ? null : Number(row.value),
    limit: row.limit_value === null ? null : Number(row.limit_value),
    text: row.text,
    state: row.state as AlarmState,
    raisedAt: iso(row.raised_at) ?? '',
    acknowledgedAt: iso(row.acknowledged_at),
    acknowledgedBy: row.acknowledged_by,
    ackComment: row.ack_comment,
    clearedAt: iso(row.cleared_at),
    clearedBy: row.cleared_by === 'user' ? 'user' : row.cleared_by === null ? null : 'condition',
    occurrences: Number(row.occurrences),
  };
}

export type AlarmEventKind = 'raised' | 'acknowledged' | 'cleared';
export interface AlarmChange {
  kind: AlarmEventKind;
  alarm: Alarm;
}

/** Open alarms of a house by condition key, locked for this transaction. */
export async function openAlarmsOf(query: Query, houseId: number): Promise<Map<string, OpenAlarm>> {
  return (await openAlarmsOfHouses(query, [houseId])).get(houseId) ?? new Map();
}

/** Open alarms of several houses, by house then condition key, locked in house id order (or read without locks). */
export async function openAlarmsOfHouses(
  query: Query,
  houseIds: readonly number[],
  lock = true,
): Promise<Map<number, Map<string, OpenAlarm>>> {
  const rows = await query<{
    house_id: number;
    cause: string;
    subject: string;
    condition_ended_at: Date | string | null;
  }>(
    `select house_id, cause, subject, condition_ended_at from alarms
     where house_id = any($1::int[]) and state <> 'cleared' order by house_id, id${lock ? ' for update' : ''}`,
    [houseIds],
  );
  const out = new Map<number, Map<string, OpenAlarm>>();
  for (const r of rows) {
    let open = out.get(r.house_id);
    if (!open) out.set(r.house_id, (open = new Map()));
    open.set(keyOf(r.cause, r.subject), {
      endedAt: r.condition_ended_at === null ? null : new Date(r.condition_ended_at).getTime(),
    });
  }
  return out;
}

async function withNames(query: Query, ids: number[]): Promise<Map<number, Alarm>> {
  if (ids.length === 0) return new Map();
  const rows = await query<AlarmRow>(
    `select ${ALARM_SELECT} from ${ALARM_FROM} where a.id = any($1::int[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, presentAlarm(r)]));
}

export interface Operator {
  id: number | null;
  name: string;
}
export const SYSTEM_OPERATOR: Operator = { id: null, name: 'Roost' };

/** The operation log, in the caller's transaction (the same table server/oplog.ts writes). */
export async function logStep(
  query: Query,
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
  await query(
    `insert into operation_logs (operator_id, operator_name, function, house_id, house_name, operation, params, remark, source)
     values ($1, $2, $3, $4, $5, 'alarm', $6::jsonb, $7, $8)`,
    [
      operator.id,
      operator.name,
      fn,
      alarm.houseId,
      alarm.houseName,
      JSON.stringify(params),
      remark,
      source,
    ],
  );
}

/** Applies the rules' steps for one house; answers what browsers should hear about. */
export async function applySteps(
  query: Query,
  house: { houseId: number; farmId: number },
  steps: readonly Step[],
): Promise<AlarmChange[]> {
  const changed: Array<{ kind: AlarmEventKind; id: number; fn: FunctionKey }> = [];
  for (const s of steps) {
    const at = new Date(s.at);
    const where = `house_id = $1 and cause = $2 and subject = $3 and state <> 'cleared'`;
    const key = [house.houseId, s.cause, s.subject];
    if (s.kind === 'raise') {
      // Another process raised it first (the index holds): then there is nothing to tell.
      const [row] = await query<{ id: number }>(
        `insert into alarms (house_id, farm_id, cause, subject, severity, state, value, limit_value, text, raised_at)
         values ($1, $4, $2, $3, $5, 'active', $6, $7, $8, $9)
         on conflict (house_id, cause, subject) where state <> 'cleared' do nothing
         returning id`,
        [...key, house.farmId, s.severity, s.value, s.limit, s.text, at],
      );
      if (row) changed.push({ kind: 'raised', id: row.id, fn: 'alarm.raise' });
    } else if (s.kind === 'recur') {
      const [row] = await query<{ id: number }>(
        `update alarms set occurrences = occurrences + 1, condition_ended_at = null, value = coalesce($4, value)
         where ${where} and condition_ended_at is not null returning id`,
        [...key, s.value],
      );
      if (row) changed.push({ kind: 'raised', id: row.id, fn: 'alarm.recur' });
    } else if (s.kind === 'end') {
      await query(
        `update alarms set condition_ended_at = $4 where ${where} and condition_ended_at is null`,
        [...key, at],
      );
    } else {
      const [row] = await query<{ id: number }>(
        `update alarms set state = 'cleared', cleared_at = $4, cleared_by = 'condition' where ${where} returning id`,
        [...key, at],
      );
      if (row) changed.push({ kind: 'cleared', id: row.id, fn: 'alarm.clear' });
    }
  }
  const alarms = await withNames(
    query,
    changed.map((c) => c.id),
  );
  const out: AlarmChange[] = [];
  for (const c of changed) {
    const alarm = alarms.get(c.id);
    if (!alarm) continue;
    await logStep(query, SYSTEM_OPERATOR, c.fn, alarm, alarm.text ?? '');
    out.push({ kind: c.kind, alarm });
  }
  return out;
}

const SEVERITY_RANK = `case a.severity when 'critical' then 0 when 'major' then 1 else 2 end`;

/**
 * Writes a house's open-alarm count and its most important alarm into house_state (the live
 * presenter sends them as `live.alarm`) and answers the new state to announce.
 */
export async function refreshHouseSummary(
  query: Query,
  houseId: number,
  farmId: number,
): Promise<HouseLiveState | null> {
  const rows = await query<StateRow>(
    `with open as (
       select a.* from alarms a where a.house_id = $1 and a.state <> 'cleared'
     ), top as (
       select jsonb_build_object('cause', a.cause, 'severity', a.severity, 'subject', nullif(a.subject, ''),
         'value', a.value, 'limit', a.limit_value, 'text', a.text,
         'acknowledged', a.state = 'acknowledged') as summary
       from open a order by ${SEVERITY_RANK}, (a.state = 'active') desc, a.raised_at desc limit 1
     )
     insert into house_state as hs (house_id, alarm_count, alarm_top, updated_at)
     values ($1, (select count(*) from open), (select summary from top), now())
     on conflict (house_id) do update set alarm_count = excluded.alarm_count, alarm_top = excluded.alarm_top, updated_at = now()
     returning ${STATE_COLUMNS}`,
    [houseId],
  );
  const row = rows[0];
  return row ? stateFromRow(row, farmId) : null;
}
