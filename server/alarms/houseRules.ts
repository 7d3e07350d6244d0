import { houseAlarmLimitsSchema, type HouseAlarmLimits } from '../../src/contract/alarms';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { alarmLimits } from '../db/alarmSchema';
import { gatewayParams } from '../db/envcontrolSchema';
import { parseJson } from '../db/jsonColumn';
import { breedTargets, flocks, gateways, houses } from '../db/schema';
import type { HouseRules } from './rules';
import type { Clock } from './service';

/**
 * House context is configuration (flock, breed standard, the house's limits), not rule state:
 * it is cached this long, so a change made on another server process applies within a minute
 * (this process's own changes drop the entry at once: the bus's `alarmRulesChanged`).
 */
const RULES_TTL_MS = 60_000;

interface Target {
  age: number;
  temperature: number | null;
  humidity: number | null;
  co2: number | null;
}

/** Linear interpolation between the configured ages; the nearest end outside them. */
export function interpolate(
  targets: readonly Target[],
  age: number,
  field: 'temperature' | 'humidity' | 'co2',
): number | null {
  const rows = targets.filter((t) => t[field] !== null);
  if (rows.length === 0) return null;
  let below: Target | undefined;
  let above: Target | undefined;
  for (const t of rows) {
    if (t.age <= age && (!below || t.age > below.age)) below = t;
    if (t.age >= age && (!above || t.age < above.age)) above = t;
  }
  if (!below) return above?.[field] ?? null;
  if (!above || above.age === below.age) return below[field];
  const f = (age - below.age) / (above.age - below.age);
  return (below[field] as number) + f * ((above[field] as number) - (below[field] as number));
}

export class HouseRulesCache {
  private readonly entries = new Map<number, { at: number; rules: HouseRules }>();
  private readonly breeds = new Map<number, { at: number; targets: Target[] }>();

  constructor(
    private readonly database: Database,
    private readonly timeZone: string,
    private readonly now: Clock,
  ) {}

  forget(houseId: number | null): void {
    if (houseId === null) this.entries.clear();
    else this.entries.delete(houseId);
  }

  async get(houseIds: readonly number[]): Promise<Map<number, HouseRules>> {
    const now = this.now().getTime();
    const out = new Map<number, HouseRules>();
    const missing: number[] = [];
    for (const id of houseIds) {
      const hit = this.entries.get(id);
      if (hit && now - hit.at < RULES_TTL_MS) out.set(id, hit.rules);
      else missing.push(id);
    }
    if (missing.length === 0) return out;
    // The flock's age today in the installation's day (null without an open flock).
    const today = sql`(${new Date(now)}::timestamptz at time zone ${this.timeZone})::date`;
    const rows = await this.database.db
      .select({
        id: houses.id,
        breedId: flocks.breedId,
        age: sql<number | null>`${today} - ${flocks.placedOn} + ${flocks.ageAtPlacement}`.mapWith(
          Number,
        ),
        limits: alarmLimits.limits,
        controller: gatewayParams.params,
      })
      .from(houses)
      .leftJoin(flocks, and(eq(flocks.houseId, houses.id), isNull(flocks.closedOn)))
      .leftJoin(alarmLimits, eq(alarmLimits.houseId, houses.id))
      .leftJoin(gateways, eq(gateways.houseId, houses.id))
      .leftJoin(gatewayParams, eq(gatewayParams.gatewayId, gateways.id))
      .where(inArray(houses.id, missing));
    for (const row of rows) {
      const raw = row.limits as HouseAlarmLimits | string | null;
      const parsed = houseAlarmLimitsSchema.safeParse(
        (typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw) ?? {},
      );
      const targets = row.breedId === null ? [] : await this.targetsOf(row.breedId, now);
      const age = row.age;
      const at = (field: 'temperature' | 'humidity' | 'co2') =>
        age === null ? null : interpolate(targets, age, field);
      const rules: HouseRules = {
        houseId: row.id,
        targetTemperature: at('temperature'),
        breedHumidity: at('humidity'),
        breedCo2: at('co2'),
        limits: parsed.success ? parsed.data : {},
        controller: row.controller === null ? null : parseJson(row.controller),
      };
      this.entries.set(row.id, { at: now, rules });
      out.set(row.id, rules);
    }
    return out;
  }

  private async targetsOf(breedId: number, now: number): Promise<Target[]> {
    const hit = this.breeds.get(breedId);
    if (hit && now - hit.at < RULES_TTL_MS) return hit.targets;
    const targets: Target[] = await this.database.db
      .select({
        age: breedTargets.ageDay,
        temperature: breedTargets.temperature,
        humidity: breedTargets.humidity,
        co2: breedTargets.co2,
      })
      .from(breedTargets)
      .where(eq(breedTargets.breedId, breedId))
      .orderBy(asc(breedTargets.ageDay));
    this.breeds.set(breedId, { at: now, targets });
    return targets;
  }
}
