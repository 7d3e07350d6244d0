import { MANUALLY_CLEARABLE, type Alarm, type AlarmCause } from '../../src/contract/alarms';
import type { Scope } from '../auth/scope';
import type { FunctionKey } from '../../src/contract/operationLog';
import type { Database, Query } from '../db/client';
import type { ServerEvents } from '../events';
import type { HouseLiveState } from '../houses/state';
import {
  ALARM_FROM,
  ALARM_SELECT,
  logStep,
  presentAlarm,
  refreshHouseSummary,
  type AlarmChange,
  type AlarmRow,
  type Operator,
} from './lifecycle';
import { enqueueNotifications } from './queue';
import { silenceCovering } from '../notify/silences';

/** Injected time: tests drive it, the server passes the system clock. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export type ManualResult =
  | { ok: true; alarm: Alarm }
  | { ok: false; reason: 'notFound' | 'notActive' | 'notOpen' | 'notClearable' };

/**
 * Alarm changes with their consequences: the houses' alarm summaries in the same transaction,
 * the notification queue, and after the commit `alarmsChanged` and the houses' new states
 * (`houseSummary`, which is not gateway news: the alarm engine does not hear it).
 */
export class AlarmService {
  constructor(
    private readonly database: Database,
    private readonly events: ServerEvents,
    readonly now: Clock = systemClock,
  ) {}

  /** Runs `fn` in one transaction; houses with changes get their summary refreshed there. */
  async change(fn: (query: Query) => Promise<AlarmChange[]>): Promise<AlarmChange[]> {
    const states: HouseLiveState[] = [];
    const changes = await this.database.transaction(async ({ query }) => {
      states.length = 0;
      const made = await fn(query);
      const houses = new Map(made.map((c) => [c.alarm.houseId, c.alarm.farmId]));
      for (const [houseId, farmId] of [...houses].sort((a, b) => a[0] - b[0])) {
        const state = await refreshHouseSummary(query, houseId, farmId);
        if (state) states.push(state);
      }
      for (const c of made)
        if (c.kind === 'raised') {
          await enqueueNotifications(query, c.alarm, this.now());
          // Open consoles tag it "Silenced" from the start, as the alarm list does.
          if (await silenceCovering(query, c.alarm, this.now())) c.alarm.silenced = true;
        }
      return made;
    });
    if (changes.length > 0) void this.events.emit('alarmsChanged', changes);
    if (states.length > 0) await this.events.emit('houseSummary', states);
    return changes;
  }

  async acknowledge(
    id: number,
    operator: Operator,
    scope: Scope,
    comment: string | null,
    source: string,
  ): Promise<ManualResult> {
    return this.manual(id, scope, operator, async (query, alarm) => {
      if (alarm.state !== 'active') return 'notActive';
      const [row] = await query<{ id: number }>(
        `update alarms set state = 'acknowledged', acknowledged_at = $2, acknowledged_by = $3,
           ack_user_id = $4, ack_comment = $5 where id = $1 and state = 'active' returning id`,
        [id, this.now(), operator.name, operator.id, comment],
      );
      if (!row) return 'notActive';
      return { kind: 'acknowledged', fn: 'alarm.acknowledge', remark: comment ?? '', source };
    });
  }

  async clearByHand(
    id: number,
    operator: Operator,
    scope: Scope,
    source: string,
  ): Promise<ManualResult> {
    return this.manual(id, scope, operator, async (query, alarm) => {
      if (!MANUALLY_CLEARABLE.includes(alarm.cause as AlarmCause)) return 'notClearable';
      const [row] = await query<{ id: number }>(
        `update alarms set state = 'cleared', cleared_at = $2, cleared_by = 'user'
         where id = $1 and state <> 'cleared' returning id`,
        [id, this.now()],
      );
      if (!row) return 'notOpen';
      return { kind: 'cleared', fn: 'alarm.clearByHand', remark: '', source };
    });
  }

  private async manual(
    id: number,
    scope: Scope,
    operator: Operator,
    step: (
      query: Query,
      alarm: Alarm,
    ) => Promise<
      | 'notActive'
      | 'notOpen'
      | 'notClearable'
      | { kind: AlarmChange['kind']; fn: FunctionKey; remark: string; source: string }
    >,
  ): Promise<ManualResult> {
    let refused: ManualResult | null = null;
    const changes = await this.change(async (query) => {
      const before = await readAlarm(query, id);
      // Outside the scope looks the same as not existing.
      if (!before || !(scope.all || scope.houseIds.has(before.houseId))) {
        refused = { ok: false, reason: 'notFound' };
        return [];
      }
      const result = await step(query, before);
      if (typeof result === 'string') {
        refused = { ok: false, reason: result };
        return [];
      }
      const after = await readAlarm(query, id);
      if (!after) return [];
      await logStep(query, operator, result.fn, after, result.remark, result.source);
      return [{ kind: result.kind, alarm: after }];
    });
    if (refused) return refused;
    const alarm = changes[0]?.alarm;
    return alarm ? { ok: true, alarm } : { ok: false, reason: 'notFound' };
  }
}

export async function readAlarm(query: Query, id: number): Promise<Alarm | null> {
  const [row] = await query<AlarmRow>(`select ${ALARM_SELECT} from ${ALARM_FROM} where a.id = $1`, [
    id,
  ]);
  return row ? presentAlarm(row) : null;
}
