import type { Query } from '../db/client';
import { keyOf, emptyRuleState, type OpenAlarm, type RuleState } from './rules';

/**
 * The alarm engine's statements on the ingest path: every stored batch runs them for all its
 * houses at once (a batch may name thousands), so each is one statement over arrays (`unnest`,
 * `= any`), where the builder would write one parameter per house, and those sent together in
 * a transaction go out without waiting for each other (pgliteWorker.mjs, QueryOptions.last).
 * Rule states are JSON: PGlite answers some jsonb as text, parsed here.
 */

/** A house's rule state as evaluated, and as it was read (JSON). */
export interface ChangedState {
  houseId: number;
  state: RuleState;
  was: string;
}

interface RuleStateRow {
  house_id: number;
  state: RuleState | string;
}

function ruleStatesOf(rows: RuleStateRow[]): Map<number, RuleState> {
  return new Map(
    rows.map((row) => {
      const state =
        typeof row.state === 'string' ? (JSON.parse(row.state) as RuleState) : row.state;
      return [row.house_id, { ...emptyRuleState(), ...state }];
    }),
  );
}

/**
 * The rule states of several houses, created on first use, read without locks. One statement:
 * a row it creates is not yet visible to its own select, so it is answered from the insert.
 */
export async function readRuleStates(
  query: Query,
  houseIds: number[],
): Promise<Map<number, RuleState>> {
  const rows = await query<RuleStateRow>(
    `with created as (
       insert into alarm_rule_state (house_id, state)
       select h, $2::jsonb from unnest($1::int[]) as h on conflict (house_id) do nothing
       returning house_id, state)
     select house_id, state from alarm_rule_state where house_id = any($1::int[])
     union all select house_id, state from created`,
    [houseIds, JSON.stringify(emptyRuleState())],
  );
  return ruleStatesOf(rows);
}

/**
 * The rule states of several houses, created on first use and locked in house id order (two
 * processes never deadlock). The two statements are sent together and run in order.
 */
export async function lockRuleStates(
  query: Query,
  houseIds: number[],
): Promise<Map<number, RuleState>> {
  const [, rows] = await Promise.all([
    query(
      `insert into alarm_rule_state (house_id, state)
       select h, $2::jsonb from unnest($1::int[]) as h on conflict (house_id) do nothing`,
      [houseIds, JSON.stringify(emptyRuleState())],
    ),
    query<RuleStateRow>(
      'select house_id, state from alarm_rule_state where house_id = any($1::int[]) order by house_id for update',
      [houseIds],
    ),
  ]);
  return ruleStatesOf(rows);
}

/**
 * Writes the evaluated rule states, one statement for the batch. `last`: the transaction's
 * last statement (QueryOptions.last).
 */
export async function saveRuleStates(
  query: Query,
  states: ChangedState[],
  last: boolean,
): Promise<void> {
  if (states.length === 0) return;
  await query(
    `update alarm_rule_state s set state = u.state, updated_at = now()
     from unnest($1::int[], $2::jsonb[]) as u(house_id, state) where s.house_id = u.house_id`,
    [states.map((c) => c.houseId), states.map((c) => JSON.stringify(c.state))],
    { last },
  );
}

/**
 * Writes the evaluated rule states, without locks, only where they are still as read; answers
 * how many it wrote (fewer than given: another evaluation changed some meanwhile).
 */
export async function saveRuleStatesIfUnchanged(
  query: Query,
  states: ChangedState[],
): Promise<number> {
  const [saved] = await query<{ n: number }>(
    `with saved as (
       update alarm_rule_state s set state = u.state, updated_at = now()
       from unnest($1::int[], $2::jsonb[], $3::jsonb[]) as u(house_id, state, was)
       where s.house_id = u.house_id and s.state = u.was
       returning 1)
     select count(*)::int as n from saved`,
    [
      states.map((c) => c.houseId),
      states.map((c) => JSON.stringify(c.state)),
      states.map((c) => c.was),
    ],
  );
  return saved?.n ?? 0;
}

/**
 * Open alarms of several houses, by house then condition key, locked in house id order (or
 * read without locks). Sent beside `lockRuleStates`, in the same turn.
 */
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

/** Open alarms of one house by condition key, locked for this transaction. */
export async function openAlarmsOf(query: Query, houseId: number): Promise<Map<string, OpenAlarm>> {
  return (await openAlarmsOfHouses(query, [houseId])).get(houseId) ?? new Map();
}
