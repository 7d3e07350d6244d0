import { and, eq, ne } from 'drizzle-orm';
import { MANUALLY_CLEARABLE, type Alarm, type AlarmCause } from '../../src/contract/alarms';
import type { Scope } from '../auth/scope';
import type { FunctionKey } from '../../src/contract/operationLog';
import type { Database, Db, Transaction } from '../db/client';
import { alarms } from '../db/alarmSchema';
import type { ServerEvents } from '../events';
import type { HouseLiveState } from '../houses/state';
import {
  alarmsWithNames,
  logStep,
  presentAlarm,
  type AlarmChange,
  type Operator,
} from './lifecycle';
import { refreshHouseSummary } from './lifecycle.sql';
import { enqueueNotifications } from './queue.sql';
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
  async change(fn: (tx: Transaction) => Promise<AlarmChange[]>): Promise<AlarmChange[]> {
    const states: HouseLiveState[] = [];
    const changes = await this.database.transaction(async (tx) => {
      const { db, query } = tx;
      states.length = 0;
      const made = await fn(tx);
      const houses = new Map(made.map((c) => [c.alarm.houseId, c.alarm.farmId]));
      for (const [houseId, farmId] of [...houses].sort((a, b) => a[0] - b[0])) {
        const state = await refreshHouseSummary(query, houseId, farmId);
        if (state) states.push(state);
      }
      for (const c of made)
        if (c.kind === 'raised') {
          await enqueueNotifications(query, c.alarm, this.now());
          // Open consoles tag it "Silenced" from the start, as the alarm list does.
          if (await silenceCovering(db, c.alarm, this.now())) c.alarm.silenced = true;
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
    return this.manual(id, scope, operator, async (db, alarm) => {
      if (alarm.state !== 'active') return 'notActive';
      const [row] = await db
        .update(alarms)
        .set({
          state: 'acknowledged',
          acknowledgedAt: this.now(),
          acknowledgedBy: operator.name,
          ackUserId: operator.id,
          ackComment: comment,
        })
        .where(and(eq(alarms.id, id), eq(alarms.state, 'active')))
        .returning({ id: alarms.id });
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
    return this.manual(id, scope, operator, async (db, alarm) => {
      if (!MANUALLY_CLEARABLE.includes(alarm.cause as AlarmCause)) return 'notClearable';
      const [row] = await db
        .update(alarms)
        .set({ state: 'cleared', clearedAt: this.now(), clearedBy: 'user' })
        .where(and(eq(alarms.id, id), ne(alarms.state, 'cleared')))
        .returning({ id: alarms.id });
      if (!row) return 'notOpen';
      return { kind: 'cleared', fn: 'alarm.clearByHand', remark: '', source };
    });
  }

  private async manual(
    id: number,
    scope: Scope,
    operator: Operator,
    step: (
      db: Db,
      alarm: Alarm,
    ) => Promise<
      | 'notActive'
      | 'notOpen'
      | 'notClearable'
      | { kind: AlarmChange['kind']; fn: FunctionKey; remark: string; source: string }
    >,
  ): Promise<ManualResult> {
    let refused: ManualResult | null = null;
    const changes = await this.change(async ({ db }) => {
      const before = await readAlarm(db, id);
      // Outside the scope looks the same as not existing.
      if (!before || !(scope.all || scope.houseIds.has(before.houseId))) {
        refused = { ok: false, reason: 'notFound' };
        return [];
      }
      const result = await step(db, before);
      if (typeof result === 'string') {
        refused = { ok: false, reason: result };
        return [];
      }
      const after = await readAlarm(db, id);
      if (!after) return [];
      await logStep(db, operator, result.fn, after, result.remark, result.source);
      return [{ kind: result.kind, alarm: after }];
    });
    if (refused) return refused;
    const alarm = changes[0]?.alarm;
    return alarm ? { ok: true, alarm } : { ok: false, reason: 'notFound' };
  }
}

export async function readAlarm(db: Db, id: number): Promise<Alarm | null> {
  const [row] = await alarmsWithNames(db).where(eq(alarms.id, id));
  return row ? presentAlarm(row) : null;
}
