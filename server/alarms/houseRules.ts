import { houseAlarmLimitsSchema, type HouseAlarmLimits } from '../../src/contract/alarms';
import type { Database } from '../db/client';
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
    const rows = await this.database.query<{
      id: number;
      breed_id: number | null;
      age: number | null;
      limits: HouseAlarmLimits | string | null;
    }>(
      `select h.id, fl.breed_id, (($2::timestamptz at time zone $3)::date - fl.placed_on + fl.age_at_placement) as age, al.limits
       from houses h
       left join flocks fl on fl.house_id = h.id and fl.closed_on is null
       left join alarm_limits al on al.house_id = h.id
       where h.id = any($1::int[])`,
      [missing, new Date(now), this.timeZone],
    );
    for (const row of rows) {
      const raw = typeof row.limits === 'string' ? (JSON.parse(row.limits) as unknown) : row.limits;
      const parsed = houseAlarmLimitsSchema.safeParse(raw ?? {});
      const targets = row.breed_id === null ? [] : await this.targetsOf(row.breed_id, now);
      const age = row.age === null ? null : Number(row.age);
      const at = (field: 'temperature' | 'humidity' | 'co2') =>
        age === null ? null : interpolate(targets, age, field);
      const rules: HouseRules = {
        houseId: row.id,
        targetTemperature: at('temperature'),
        breedHumidity: at('humidity'),
        breedCo2: at('co2'),
        limits: parsed.success ? parsed.data : {},
      };
      this.entries.set(row.id, { at: now, rules });
      out.set(row.id, rules);
    }
    return out;
  }

  private async targetsOf(breedId: number, now: number): Promise<Target[]> {
    const hit = this.breeds.get(breedId);
    if (hit && now - hit.at < RULES_TTL_MS) return hit.targets;
    const rows = await this.database.query<{
      age_day: number;
      temperature: number | null;
      humidity: number | null;
      co2: number | null;
    }>(
      'select age_day, temperature, humidity, co2 from breed_targets where breed_id = $1 order by age_day',
      [breedId],
    );
    const targets = rows.map((r) => ({
      age: Number(r.age_day),
      temperature: r.temperature === null ? null : Number(r.temperature),
      humidity: r.humidity === null ? null : Number(r.humidity),
      co2: r.co2 === null ? null : Number(r.co2),
    }));
    this.breeds.set(breedId, { at: now, targets });
    return targets;
  }
}
