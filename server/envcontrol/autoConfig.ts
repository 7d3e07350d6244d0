import { CURVE_DAYS, PARAM_BY_KEY, paramGroupsOf } from '../../src/contract/envcontrol';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { breedTargets, flocks } from '../db/schema';

/** How far from the breed's target temperature the alarms sit: wide enough not to ring daily. */
const TEMPERATURE_ALARM_MARGIN_C = 6;
const HUMIDITY_HIGH_MARGIN = 15;
const HUMIDITY_LOW_MARGIN = 20;

/** A value on its parameter's step, inside its range. */
function fit(key: string, value: number): number {
  const spec = PARAM_BY_KEY.get(key)!;
  const stepped = spec.min + Math.round((value - spec.min) / spec.step) * spec.step;
  return Math.round(Math.min(spec.max, Math.max(spec.min, stepped)) * 100) / 100;
}

/**
 * "Auto config": the temperature curve and the alarm limits (and the lighting programme) from
 * the breed standard of the house's open flock, at its age today. Only parameters the gateway's
 * type holds; empty when the flock has no breed with targets.
 */
export async function autoConfig(
  db: Db,
  houseId: number,
  typeKey: number,
): Promise<Record<string, number>> {
  const [flock] = await db
    .select({
      breedId: flocks.breedId,
      age: sql<number>`(current_date - ${flocks.placedOn}) + ${flocks.ageAtPlacement}`.mapWith(
        Number,
      ),
    })
    .from(flocks)
    .where(and(eq(flocks.houseId, houseId), isNull(flocks.closedOn)));
  if (!flock?.breedId) return {};
  const targets = await db
    .select({
      ageDay: breedTargets.ageDay,
      temperature: breedTargets.temperature,
      humidity: breedTargets.humidity,
      co2: breedTargets.co2,
      lightHours: breedTargets.lightHours,
      lightIntensity: breedTargets.lightIntensity,
    })
    .from(breedTargets)
    .where(eq(breedTargets.breedId, flock.breedId))
    .orderBy(asc(breedTargets.ageDay));
  if (targets.length === 0) return {};
  // The target of the latest standard day at or before `day` (the first one before it starts).
  const at = (day: number) => targets.filter((t) => t.ageDay <= day).at(-1) ?? targets[0]!;
  const groups = paramGroupsOf(typeKey);
  const out: Record<string, number> = {};
  if (groups.includes('curve'))
    for (const day of CURVE_DAYS) {
      const t = at(day).temperature;
      if (t !== null) out[`curve_temp_d${day}`] = fit(`curve_temp_d${day}`, t);
    }
  const now = at(flock.age);
  if (groups.includes('alarmLimits')) {
    if (now.temperature !== null) {
      out.alarm_temp_high = fit('alarm_temp_high', now.temperature + TEMPERATURE_ALARM_MARGIN_C);
      out.alarm_temp_low = fit('alarm_temp_low', now.temperature - TEMPERATURE_ALARM_MARGIN_C);
    }
    if (now.humidity !== null) {
      out.alarm_humidity_high = fit('alarm_humidity_high', now.humidity + HUMIDITY_HIGH_MARGIN);
      out.alarm_humidity_low = fit('alarm_humidity_low', now.humidity - HUMIDITY_LOW_MARGIN);
    }
    if (now.co2 !== null) out.alarm_co2_high = fit('alarm_co2_high', now.co2);
  }
  if (groups.includes('lighting')) {
    if (now.lightHours !== null) out.light_hours = fit('light_hours', now.lightHours);
    if (now.lightIntensity !== null)
      out.light_intensity = fit('light_intensity', now.lightIntensity);
  }
  return out;
}
