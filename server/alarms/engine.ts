import type { FastifyBaseLogger } from 'fastify';
import { gatewayEventSchema } from '../../src/contract/metrics';
import type { Database, Query } from '../db/client';
import type { ServerEvents } from '../events';
import type { HouseLiveState } from '../houses/state';
import type { GatewayDirectory } from '../ingest/gatewayDirectory';
import type { Reading } from '../ingest/types';
import { HouseRulesCache } from './houseRules';
import { applySteps, openAlarmsOf, openAlarmsOfHouses, type AlarmChange } from './lifecycle';
import {
  EMPTY_HOUSE_MODE,
  emptyRuleState,
  evaluateReading,
  keyOf,
  stepsOf,
  type Condition,
  type OpenAlarm,
  type RuleState,
  type Step,
} from './rules';
import { AlarmService, systemClock, type Clock } from './service';

/** Signals (offline, controller events) are debounced by their source: they act at once. */
const IMMEDIATE = { minDurationMs: 0, clearHoldMs: 0 };

export interface AlarmEngineOptions {
  timeZone: string;
  log: FastifyBaseLogger;
  now?: Clock;
}

/**
 * Evaluates the alarm rules on every committed batch, on gateway status changes and on the
 * gateways' event topic. Per house, the rule state row is read `for update`
 * in the evaluating transaction, so a restart keeps pending timers and two processes evaluating
 * the same house take turns; the alarms themselves are changed by conditional statements.
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
    await this.service.change(async (query) => {
      const changes: AlarmChange[] = [];
      // One statement each for every house of the batch, not four per house: the rule states
      // and open alarms are locked in house id order, so two processes never deadlock.
      const states = await lockRuleStates(query, houseIds);
      const openByHouse = await openAlarmsOfHouses(query, houseIds);
      const changedStates: Array<[number, RuleState]> = [];
      for (const houseId of houseIds) {
        const houseReadings = (byHouse.get(houseId) ?? []).sort(
          (a, b) => a.ts.getTime() - b.ts.getTime(),
        );
        const rules = contexts.get(houseId);
        const first = houseReadings[0];
        const state = states.get(houseId);
        if (!rules || !first || !state) continue;
        const open = openByHouse.get(houseId) ?? new Map<string, OpenAlarm>();
        const before = JSON.stringify(state);
        const online = liveByHouse.get(houseId);
        // Without a breed target the controller's own target decides; one context per value, so
        // the rules' thresholds are worked out once, not per reading.
        let context = rules;
        for (const reading of houseReadings) {
          const target = rules.targetTemperature ?? reading.metrics.temperature_target ?? null;
          if (context.targetTemperature !== target)
            context = { ...rules, targetTemperature: target };
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
          changes.push(...(await applySteps(query, { houseId, farmId: first.farmId }, steps)));
          // The next reading of the batch sees the alarms as they are now.
          followSteps(open, steps);
        }
        if (online?.online) {
          this.onlineSeen.set(houseId, true);
          const steps = stepsOf([offline(false)], state, open, this.now().getTime(), IMMEDIATE);
          changes.push(...(await applySteps(query, { houseId, farmId: first.farmId }, steps)));
        }
        if (JSON.stringify(state) !== before) changedStates.push([houseId, state]);
      }
      await saveRuleStates(query, changedStates);
      return changes;
    });
  }

  /** Gateway online/offline (the status topic, its will, the offline sweep). */
  async onStatus(states: readonly HouseLiveState[]): Promise<void> {
    const changed = states.filter((s) => this.onlineSeen.get(s.houseId) !== s.online);
    if (changed.length === 0) return;
    for (const s of changed) this.onlineSeen.set(s.houseId, s.online);
    const sorted = [...changed].sort((a, b) => a.houseId - b.houseId);
    await this.service.change(async (query) => {
      const changes: AlarmChange[] = [];
      // The offline sweep may hand over thousands of houses at once: two statements for all of
      // them, not two per house while the locks taken so far are held.
      const houseIds = sorted.map((s) => s.houseId);
      const states = await lockRuleStates(query, houseIds);
      const openByHouse = await openAlarmsOfHouses(query, houseIds);
      for (const s of sorted) {
        const state = states.get(s.houseId) ?? emptyRuleState();
        const open = openByHouse.get(s.houseId) ?? new Map<string, OpenAlarm>();
        const empty = s.mode === EMPTY_HOUSE_MODE;
        // A house whose gateway never reported is not offline: it has no gateway yet.
        const down = !s.online && !empty && s.lastSeenAt !== null;
        const steps = stepsOf([offline(down)], state, open, this.now().getTime(), IMMEDIATE);
        changes.push(...(await applySteps(query, s, steps)));
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
    await this.service.change(async (query) => {
      const input =
        event.kind === 'di'
          ? (
              await query<{ content: string; important: boolean; shield_test: boolean }>(
                'select content, important, shield_test from alarm_inputs where gateway_id = $1 and di_code = $2',
                [gateway.gatewayId, event.code],
              )
            )[0]
          : undefined;
      // A shielded input is under test: its alarms are not real.
      if (input?.shield_test) return [];
      const [hs] = await query<{ mode: number | null }>(
        'select mode from house_state where house_id = $1',
        [house.houseId],
      );
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
      return applySteps(query, house, steps);
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

/** The rule states of several houses, created on first use and locked in house id order. */
async function lockRuleStates(query: Query, houseIds: number[]): Promise<Map<number, RuleState>> {
  await query(
    `insert into alarm_rule_state (house_id, state)
     select h, $2::jsonb from unnest($1::int[]) as h on conflict (house_id) do nothing`,
    [houseIds, JSON.stringify(emptyRuleState())],
  );
  const rows = await query<{ house_id: number; state: RuleState | string }>(
    'select house_id, state from alarm_rule_state where house_id = any($1::int[]) order by house_id for update',
    [houseIds],
  );
  return new Map(
    rows.map((row) => {
      const state =
        typeof row.state === 'string' ? (JSON.parse(row.state) as RuleState) : row.state;
      return [row.house_id, { ...emptyRuleState(), ...state }];
    }),
  );
}

async function saveRuleStates(query: Query, states: Array<[number, RuleState]>): Promise<void> {
  if (states.length === 0) return;
  await query(
    `update alarm_rule_state s set state = u.state, updated_at = now()
     from unnest($1::int[], $2::jsonb[]) as u(house_id, state) where s.house_id = u.house_id`,
    [states.map(([id]) => id), states.map(([, state]) => JSON.stringify(state))],
  );
}
