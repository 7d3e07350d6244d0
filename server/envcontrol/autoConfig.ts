import { CURVE_DAYS, PARAM_BY_KEY, paramGroupsOf } from '../../src/contract/envcontrol';
import type { Query } from '../db/client';

interface TargetRow {
  age_day: number;
  temperature: number | null;
  humidity: number | null;
  co2: number | null;
  light_hours: number | null;
  light_intensity: number | null;
}

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
  query: Query,
  houseId: number,
  typeKey: number,
): Promise<Record<string, number>> {
  const [flock] = await query<{ breed_id: number | null; age: number }>(
    `select breed_id, (current_date - placed_on) + age_at_placement as age
     from flocks where house_id = $1 and closed_on is null`,
    [houseId],
  );
  if (!flock?.breed_id) return {};
  const targets = await query<TargetRow>(
    `select age_day, temperature, humidity, co2, light_hours, light_intensity
     from breed_targets where breed_id = $1 order by age_day`,
    [flock.breed_id],
  );
  if (targets.length === 0) return {};
  // The target of the latest standard day at or before `day` (the first one before it starts).
  const at = (day: number) => targets.filter((t) => t.age_day <= day).at(-1) ?? targets[0]!;
  const groups = paramGroupsOf(typeKey);
  const out: Record<string, number> = {};
  if (groups.includes('curve'))
    for (const day of CURVE_DAYS) {
      const t = at(day).temperature;
      if (t !== null) out[`curve_temp_d${day}`] = fit(`curve_temp_d${day}`, t);
    }
  const now = at(Number(flock.age));
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
    if (now.light_hours !== null) out.light_hours = fit('light_hours', now.light_hours);
    if (now.light_intensity !== null)
      out.light_intensity = fit('light_intensity', now.light_intensity);
  }
  return out;
}
