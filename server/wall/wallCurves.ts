import type { Scope } from '../auth/scope';
import type { Database } from '../db/client';
import type { HouseRulesCache } from '../alarms/houseRules';
import { readTrends } from '../houses/readTrend.sql';
import {
  WALL_CURVE_HOURS,
  WALL_CURVE_STEP_MS,
  type WallFarmCurves,
} from '../../src/contract/wallRanking';
import { wallHouses } from './wallQueries';

const STEPS = (WALL_CURVE_HOURS * 3_600_000) / WALL_CURVE_STEP_MS;

/**
 * The last hours of temperature of a farm's houses in scope, a mean per step, read in one
 * statement from the minutes (readTrends), and each house's target now (the alarm engine's).
 */
export async function farmCurves(
  database: Database,
  rules: HouseRulesCache,
  scope: Scope,
  farmId: number,
  timeZone: string,
  now = Date.now(),
): Promise<WallFarmCurves> {
  const to = Math.ceil(now / WALL_CURVE_STEP_MS) * WALL_CURVE_STEP_MS;
  const from = to - STEPS * WALL_CURVE_STEP_MS;
  const houseIds = (await wallHouses(database, scope, farmId)).map((h) => h.houseId);
  const [trends, targets] = await Promise.all([
    readTrends(
      database,
      { houseIds, metrics: ['temperature'], from, to, granularity: 'minute', parts: ['avg'] },
      timeZone,
    ),
    rules.get(houseIds),
  ]);
  const houses = trends.map((trend) => {
    const sums = new Array<number>(STEPS).fill(0);
    const counts = new Array<number>(STEPS).fill(0);
    const values = trend.series['temperature']?.avg ?? [];
    trend.times.forEach((time, i) => {
      const value = values[i];
      const step = Math.floor((time - from) / WALL_CURVE_STEP_MS);
      if (value === null || value === undefined || step < 0 || step >= STEPS) return;
      sums[step]! += value;
      counts[step]! += 1;
    });
    return {
      houseId: trend.houseId,
      target: targets.get(trend.houseId)?.targetTemperature ?? null,
      temperature: sums.map((sum, i) =>
        counts[i] === 0 ? null : Math.round((sum / counts[i]!) * 10) / 10,
      ),
    };
  });
  return { farmId, from, houses };
}
