import type { Scope } from '../auth/scope';
import type { Database } from '../db/client';
import type { HouseRulesCache } from '../alarms/houseRules';
import { cachedThresholdsOf, type Threshold } from '../alarms/thresholds';
import {
  RANKED_METRICS,
  WALL_RANKING_MAX,
  type RankedMetric,
  type WallFarmDistance,
  type WallRanking,
} from '../../src/contract/wallRanking';
import { sharedPerScope } from './sharedReading';
import { readOnlineHouses } from './wallRanking.sql';

/** Readings move by the minute: every wall of a scope shares one ranking for this long. */
const SHARED_FOR_MS = 15_000;
const shared = sharedPerScope<WallRanking>(SHARED_FOR_MS);

const RANKED = new Set<string>(RANKED_METRICS);

/**
 * How far a reading has gone from its target towards the alarm limit of `threshold`: 0 at the
 * target (or on the safe side), 1 at the limit. A limit without a target (NH3's, a house's own
 * CO2 ceiling) counts from zero. Null where there is no way to count (a plain floor).
 */
export function shareOf(threshold: Threshold, value: number): number | null {
  const from = threshold.target ?? (threshold.above ? 0 : null);
  if (from === null) return null;
  const way = threshold.above ? threshold.raise - from : from - threshold.raise;
  if (way <= 0) return null;
  const gone = threshold.above ? value - from : from - value;
  return Math.max(0, gone / way);
}

/** The farms in `scope` furthest from target, through the alarm engine's own limits. */
export function wallRankingOf(
  database: Database,
  rules: HouseRulesCache,
  scope: Scope,
  now = new Date(),
): Promise<WallRanking> {
  return shared(scope, now, () => readWallRanking(database, rules, scope, now));
}

export async function readWallRanking(
  database: Database,
  rules: HouseRulesCache,
  scope: Scope,
  now = new Date(),
): Promise<WallRanking> {
  const rows = await readOnlineHouses(database, scope);
  const houseRules = await rules.get(rows.map((r) => r.house_id));
  const worst = new Map<number, WallFarmDistance>();
  for (const row of rows) {
    const house = houseRules.get(row.house_id);
    if (!house) continue;
    // node-postgres parses jsonb; PGlite may hand it over as text.
    const metrics = typeof row.metrics === 'string' ? JSON.parse(row.metrics) : row.metrics;
    for (const threshold of cachedThresholdsOf(house)) {
      if (!RANKED.has(threshold.metric)) continue;
      const value = (metrics as Record<string, unknown>)[threshold.metric];
      if (typeof value !== 'number') continue;
      const share = shareOf(threshold, value);
      if (share === null || share === 0) continue;
      const held = worst.get(row.farm_id);
      if (held && held.share >= share) continue;
      worst.set(row.farm_id, {
        farmId: row.farm_id,
        houseId: row.house_id,
        houseName: row.name,
        metric: threshold.metric as RankedMetric,
        value,
        target: threshold.target,
        limit: threshold.raise,
        share: Math.round(share * 1000) / 1000,
      });
    }
  }
  const farms = [...worst.values()]
    .sort((a, b) => b.share - a.share || a.farmId - b.farmId)
    .slice(0, WALL_RANKING_MAX);
  return { farms, asOf: now.toISOString() };
}
