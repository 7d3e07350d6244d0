import { inArray } from 'drizzle-orm';
import { AlarmService } from '../alarms/service';
import { openAlarmsOf } from '../alarms/engine.sql';
import { applySteps, type AlarmChange } from '../alarms/lifecycle';
import { emptyRuleState, keyOf, stepsOf, type Condition } from '../alarms/rules';
import { houses } from '../db/schema';
import type { AppContext } from '../http/context';
import { loadFlockKpis } from './flockKpis';
import { readFlocks } from './records';
import { DEFAULT_WARNING_LIMITS, EARLY_WARNINGS } from '../../src/contract/earlyWarnings';
import type { KpiDay } from '../../src/contract/production';
import { estimateBinHours, readBinLevels, type BinReading } from './feedBin';
import { limitsOfFlocks } from './warningLimits';
import { earlyWarningConditions, type EarlyWarningCause } from './warningRules';

/**
 * The bin's estimate. Without a fall long enough to judge, the rate is the flock's daily feed:
 * its last recorded day's, or else (a flock just placed, nothing entered yet) the breed
 * standard's for today's age times the birds placed, as a feed mill plans a delivery.
 */
function binOf(
  readings: BinReading[] | undefined,
  days: readonly KpiDay[],
  nowMs: number,
  headCount: number,
) {
  if (!readings) return null;
  const fed = [...days].reverse().find((d) => d.recorded && d.feedPerBirdG !== null && d.alive);
  let dailyKg = fed ? (fed.feedPerBirdG! * fed.alive!) / 1000 : null;
  const today = days.at(-1);
  if (dailyKg === null && today?.standard.feedPerBirdG)
    dailyKg = (today.standard.feedPerBirdG * (today.alive ?? headCount)) / 1000;
  return estimateBinHours(readings, nowMs, dailyKg);
}

/**
 * The farm of each house, read with the flocks rather than in the alarm transaction: a house
 * does not move between farms, and the transaction hands out only the alarm lifecycle's SQL.
 */
async function farmsOfHouses(
  database: AppContext['database'],
  houseIds: readonly number[],
): Promise<Map<number, number>> {
  if (houseIds.length === 0) return new Map();
  const rows = await database.db
    .select({ id: houses.id, farmId: houses.farmId })
    .from(houses)
    .where(inArray(houses.id, [...houseIds]));
  return new Map(rows.map((r) => [r.id, r.farmId]));
}

/** Daily warnings act at once: a day's figures are already a day's worth of evidence. */
const IMMEDIATE = { minDurationMs: 0, clearHoldMs: 0 };

/**
 * Evaluates the early warnings of these houses' open flocks (after a day is saved, and from the
 * maintenance tick for metered water) through the alarm lifecycle: raised once, cleared once.
 */
export async function evaluateDailyWarnings(
  ctx: Pick<AppContext, 'database' | 'events' | 'config'>,
  houseIds: readonly number[],
  today: string,
  /** The moment of the evaluation: the alarm's raise and clear time (a test's clock). */
  nowMs = Date.now(),
): Promise<AlarmChange[]> {
  if (houseIds.length === 0) return [];
  const { database, events, config } = ctx;
  const flocks = (await readFlocks(database, { all: true }, {})).filter(
    (f) => f.closedOn === null && houseIds.includes(f.houseId),
  );
  const kpis = await loadFlockKpis(database, flocks, today, config.timeZone);
  const [limits, bins, farmOf] = await Promise.all([
    limitsOfFlocks(
      database,
      flocks.map((f) => f.id),
    ),
    readBinLevels(
      database,
      flocks.map((f) => f.houseId),
      nowMs,
    ),
    farmsOfHouses(
      database,
      flocks.map((f) => f.houseId),
    ),
  ]);
  const service = new AlarmService(database, events);
  return service.change(async ({ db, query }) => {
    const changes: AlarmChange[] = [];
    for (const { flock, days } of [...kpis].sort((a, b) => a.flock.houseId - b.flock.houseId)) {
      const open = await openAlarmsOf(query, flock.houseId);
      const openCauses = new Set<EarlyWarningCause>(
        EARLY_WARNINGS.filter((c) => open.has(keyOf(c, ''))),
      );
      const conditions: Condition[] = earlyWarningConditions(
        days,
        openCauses,
        limits.get(flock.id) ?? DEFAULT_WARNING_LIMITS,
        binOf(bins.get(flock.houseId), days, nowMs, flock.headCount),
      ).map((w) => ({
        cause: w.cause,
        subject: '',
        active: w.active,
        value: w.value,
        limit: w.limit,
        text: w.text,
      }));
      const steps = stepsOf(conditions, emptyRuleState(), open, nowMs, IMMEDIATE);
      if (steps.length === 0) continue;
      const farmId = farmOf.get(flock.houseId);
      if (farmId === undefined) continue;
      changes.push(...(await applySteps(db, { houseId: flock.houseId, farmId }, steps)));
    }
    return changes;
  });
}
