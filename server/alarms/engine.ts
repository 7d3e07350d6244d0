import type { FastifyBaseLogger } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { gatewayEventSchema } from '../../src/contract/gateway';
import type { Database, Query } from '../db/client';
import { alarmInputs } from '../db/alarmSchema';
import { houseState } from '../db/telemetrySchema';
import type { ServerEvents } from '../events';
import type { HouseLiveState } from '../houses/state';
import type { GatewayDirectory } from '../ingest/gatewayDirectory';
import type { Reading } from '../ingest/types';
import { HouseRulesCache } from './houseRules';
import {
  lockRuleStates,
  openAlarmsOf,
  openAlarmsOfHouses,
  readRuleStates,
  saveRuleStates,
  saveRuleStatesIfUnchanged,
  type ChangedState,
} from './engine.sql';
import { applySteps, type AlarmChange } from './lifecycle';
import {
  EMPTY_HOUSE_MODE,
  emptyRuleState,
  evaluateReading,
  keyOf,
  stepsOf,
  type Condition,
  type HouseRules,
  type OpenAlarm,
  type RuleState,
  type Step,
} from './rules';
import { AlarmService, systemClock, type Clock } from './service';

/** A stored batch as the engine evaluates it. */
interface StoredBatch {
  houseIds: number[];
  byHouse: Map<number, Reading[]>;
  liveByHouse: Map<number, HouseLiveState>;
  contexts: Map<number, HouseRules>;
}

/** Signals (offline, controller events) are debounced by their source: they act at once. */
const IMMEDIATE = { minDurationMs: 0, clearHoldMs: 0 };

export interface AlarmEngineOptions {
  timeZone: string;
  log: FastifyBaseLogger;
  now?: Clock;
}

/**
 * Evaluates the alarm rules on every committed batch, on gateway status changes and on the
 * gateways' event topic. Per house, a rule state row keeps pending timers across restarts. A
 * batch that changes no alarm writes its rule states only where they are still as it read them;
 * any other evaluation reads them `for update` in its transaction, so two processes evaluating
 * the same house take turns. The alarms themselves are changed by conditional statements.
 */
export class AlarmEngine {
  readonly service: AlarmService;
  private readonly rules: HouseRulesCache;
  /** Last online flag seen per house: only an actual change is worth a transaction. */
  private readonly onlineSeen = new Map<number, boolean>();
  private readonly now: Clock;

  constructor(
    private readonly database: Database,
    private readonly events: ServerEvents,
    private readonly directory: GatewayDirectory,
    private readonly options: AlarmEngineOptions,
  ) {
    this.now = options.now ?? systemClock;
    this.service = new AlarmService(database, events, this.now);
    this.rules = new HouseRulesCache(database, options.timeZone, this.now);
  }

  /** Subscribes the engine to stored batches, gateway status and changed alarm limits. */
  listen(): void {
    this.events.on('batchStored', (batch) => this.onStored(batch.readings, batch.states));
    this.events.on('gatewayStatus', (states) => this.onStatus(states));
    this.events.on('alarmRulesChanged', (houseId) => this.rules.forget(houseId));
  }

  /**
   * A stored batch. Most batches change no alarm, only the houses' rule states (pending
   * starts, the stuck-sensor runs): such a batch is evaluated on states and alarms read without
   * locks, and its rule states are written in one statement only where they are still as read.
   * A batch that changes an alarm, or whose states another evaluation changed meanwhile, is
   * evaluated again in a transaction holding their locks. On the embedded database the locked
   * transaction held the database while this thread evaluated (and waited for its turn), and
   * the next batch's write waited with it.
   */
  async onStored(
    readings: readonly Reading[],
    liveStates: readonly HouseLiveState[],
  ): Promise<void> {
    const byHouse = new Map<number, Reading[]>();
    for (const r of readings) {
      const list = byHouse.get(r.houseId);
      if (list) list.push(r);
      else byHouse.set(r.houseId, [r]);
    }
    const houseIds = [...byHouse.keys()].sort((a, b) => a - b);
    // A batch of 18,500 houses each reporting once: a find() per house would be 18,500² steps.
    const liveByHouse = new Map(liveStates.map((s) => [s.houseId, s]));
    const contexts = await this.rules.get(houseIds);
    const batch: StoredBatch = { houseIds, byHouse, liveByHouse, contexts };
    // A failure here (a deadlock with another process's write, say) changed nothing.
    if (await this.evaluateUnlocked(batch).catch(() => false)) return;
    await this.service.change(async ({ db, query }) => {
      // One statement each for every house of the batch, not four per house: the rule states
      // and open alarms are locked in house id order, so two processes never deadlock. Sent
      // together: a transaction's statements run in the order sent, and the embedded database
      // answers them without waiting for this thread between them (pgliteWorker.mjs).
      const [states, openByHouse] = await Promise.all([
        lockRuleStates(query, houseIds),
        openAlarmsOfHouses(query, houseIds),
      ]);
      const changes: AlarmChange[] = [];
      const changed = await this.evaluate(batch, states, openByHouse, async (house, steps) => {
        changes.push(...(await applySteps(db, house, steps)));
      });
      // Without alarm changes nothing follows it in the transaction (AlarmService.change).
      await saveRuleStates(query, changed!, changes.length === 0);
      return changes;
    });
  }

  /** `onStored` without locks; false when the batch must be evaluated under locks. */
  private async evaluateUnlocked(batch: StoredBatch): Promise<boolean> {
    const [states, openByHouse] = await Promise.all([
      readRuleStates(this.database.query, batch.houseIds),
      openAlarmsOfHouses(this.database.query, batch.houseIds, false),
    ]);
    const changed = await this.evaluate(batch, states, openByHouse, null);
    if (!changed) return false;
    if (changed.length === 0) return true;
    return (await saveRuleStatesIfUnchanged(this.database.query, changed)) === changed.length;
  }

  /**
   * Evaluates a batch's readings, house by house in time order, on the given rule states and
   * open alarms, and answers the rule states it changed. `apply` applies a house's steps (then
   * the batch's next readings see the alarms as they are); without it, answers null at the
   * first step.
   */
  private async evaluate(
    { houseIds, byHouse, liveByHouse, contexts }: StoredBatch,
    states: Map<number, RuleState>,
    openByHouse: Map<number, Map<string, OpenAlarm>>,
    apply: ((house: { houseId: number; farmId: number }, steps: Step[]) => Promise<void>) | null,
  ): Promise<ChangedState[] | null> {
    const changed: ChangedState[] = [];
    for (const houseId of houseIds) {
      const houseReadings = (byHouse.get(houseId) ?? []).sort(
        (a, b) => a.ts.getTime() - b.ts.getTime(),
      );
      const rules = contexts.get(houseId);
      const first = houseReadings[0];
      const state = states.get(houseId);
      if (!rules || !first) continue;
      if (!state) {
        // Read and locked states exist for every house (created on first use): never here.
        if (!apply) return null;
        continue;
      }
      const house = { houseId, farmId: first.farmId };
      const open = openByHouse.get(houseId) ?? new Map<string, OpenAlarm>();
      const before = JSON.stringify(state);
      const online = liveByHouse.get(houseId);
      // Without a breed target the controller's own target decides; one context per value, so
      // the rules' thresholds are worked out once, not per reading.
      let context = rules;
      for (const reading of houseReadings) {
        const target = rules.targetTemperature ?? reading.metrics.temperature_target ?? null;
        if (context.targetTemperature !== target) context = { ...rules, targetTemperature: target };
        const steps = evaluateReading(
          context,
          {
            ts: reading.ts.getTime(),
            mode: reading.mode,
            metrics: reading.metrics,
            faults: reading.faults,
            devices: reading.devices,
          },
          state,
          open,
        );
        if (steps.length === 0) continue;
        if (!apply) return null;
        await apply(house, steps);
        // The next reading of the batch sees the alarms as they are now.
        followSteps(open, steps);
      }
      if (online?.online) {
        const steps = stepsOf([offline(false)], state, open, this.now().getTime(), IMMEDIATE);
        if (steps.length > 0) {
          if (!apply) return null;
          await apply(house, steps);
        }
        this.onlineSeen.set(houseId, true);
      }
      if (JSON.stringify(state) !== before) changed.push({ houseId, state, was: before });
    }
    return changed;
  }

  /** Gateway online/offline (the status topic, its will, the offline sweep). */
  async onStatus(states: readonly HouseLiveState[]): Promise<void> {
    const changed = states.filter((s) => this.onlineSeen.get(s.houseId) !== s.online);
    if (changed.length === 0) return;
    for (const s of changed) this.onlineSeen.set(s.houseId, s.online);
    const sorted = [...changed].sort((a, b) => a.houseId - b.houseId);
    await this.service.change(async ({ db, query }) => {
      const changes: AlarmChange[] = [];
      // The offline sweep may hand over thousands of houses at once: two statements for all of
      // them, not two per house while the locks taken so far are held.
      const houseIds = sorted.map((s) => s.houseId);
      const [states, openByHouse] = await Promise.all([
        lockRuleStates(query, houseIds),
        openAlarmsOfHouses(query, houseIds),
      ]);
      for (const s of sorted) {
        const state = states.get(s.houseId) ?? emptyRuleState();
        const open = openByHouse.get(s.houseId) ?? new Map<string, OpenAlarm>();
        const empty = s.mode === EMPTY_HOUSE_MODE;
        // A house whose gateway never reported is not offline: it has no gateway yet.
        const down = !s.online && !empty && s.lastSeenAt !== null;
        const steps = stepsOf([offline(down)], state, open, this.now().getTime(), IMMEDIATE);
        changes.push(...(await applySteps(db, s, steps)));
      }
      return changes;
    });
  }

  /** `roost/v1/{networkId}/event`: controller alarms and DI inputs (gatewayEventSchema). */
  async submitEvent(networkId: string, payload: unknown): Promise<boolean> {
    let json: unknown = payload;
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      try {
        json = JSON.parse(payload.toString());
      } catch {
        return false;
      }
    }
    const parsed = gatewayEventSchema.safeParse(json);
    const gateway = await this.directory.find(networkId);
    if (!parsed.success || !gateway || gateway.houseId === null || gateway.farmId === null) {
      this.options.log.warn({ networkId }, 'gateway event refused');
      return false;
    }
    const event = parsed.data;
    const house = { houseId: gateway.houseId, farmId: gateway.farmId };
    await this.service.change(async ({ db, query }) => {
      const input =
        event.kind === 'di'
          ? (
              await db
                .select({
                  content: alarmInputs.content,
                  important: alarmInputs.important,
                  shieldTest: alarmInputs.shieldTest,
                })
                .from(alarmInputs)
                .where(
                  and(
                    eq(alarmInputs.gatewayId, gateway.gatewayId),
                    eq(alarmInputs.diCode, event.code),
                  ),
                )
            )[0]
          : undefined;
      // A shielded input is under test: its alarms are not real.
      if (input?.shieldTest) return [];
      const [hs] = await db
        .select({ mode: houseState.mode })
        .from(houseState)
        .where(eq(houseState.houseId, house.houseId));
      const empty = hs?.mode === EMPTY_HOUSE_MODE;
      const state = await lockRuleState(query, house.houseId);
      const open = await openAlarmsOf(query, house.houseId);
      const condition: Condition = {
        cause: event.kind === 'di' ? 'diInput' : 'controllerAlarm',
        subject: event.code,
        active: event.active && !empty,
        value: null,
        limit: null,
        text: input?.content ?? event.text ?? null,
        severity: input ? (input.important ? 'critical' : 'major') : undefined,
      };
      const steps = stepsOf([condition], state, open, this.now().getTime(), IMMEDIATE);
      return applySteps(db, house, steps);
    });
    return true;
  }
}

const offline = (active: boolean): Condition => ({
  cause: 'gatewayOffline',
  subject: '',
  active,
  value: null,
  limit: null,
  text: null,
});

function followSteps(open: Map<string, OpenAlarm>, steps: readonly Step[]): void {
  for (const s of steps) {
    const key = keyOf(s.cause, s.subject);
    if (s.kind === 'clear') open.delete(key);
    else open.set(key, { endedAt: s.kind === 'end' ? s.at : null });
  }
}

/** One house's rule state, locked for this transaction (created on first use). */
async function lockRuleState(query: Query, houseId: number): Promise<RuleState> {
  return (await lockRuleStates(query, [houseId])).get(houseId) ?? emptyRuleState();
}
