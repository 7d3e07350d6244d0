import { eq, inArray } from 'drizzle-orm';
import { METRIC_BY_KEY } from '../../src/contract/metrics';
import type { CompareAlign, Comparison } from '../../src/contract/houses';
import type { TrendGranularity } from '../../src/contract/overview';
import { canSeeHouse, type Scope } from '../auth/scope';
import type { Database } from '../db/client';
import { farms, houses as houseTable } from '../db/schema';
import { isExtraOf, readExtraTrends } from '../devices/extraStore';
import { Refusal } from '../refusal';
import { alignByAge } from './alignByAge';
import { readTrends } from './readTrend.sql';
import type { Cell, ExportTable } from './exportTable';
import { formatTime } from './exportTable';
import { timeHeading } from '../export/cells';

export interface CompareInput {
  houseIds: number[];
  metric: string;
  from: number;
  to: number;
  granularity: TrendGranularity;
  align?: CompareAlign;
}

/**
 * One metric of several houses, read from the rollups by `readTrends` (the same path as a
 * single house's trend, so the two never disagree). A house outside the scope is refused like a
 * house that does not exist.
 */
export async function compareHouses(
  database: Database,
  scope: Scope,
  input: CompareInput,
  timeZone: string,
): Promise<Comparison> {
  const ids = [...new Set(input.houseIds)];
  if (ids.some((id) => !canSeeHouse(scope, id))) throw new Refusal('notFound', 'http.notFound');
  // A terminal device's extra parameter compares like a catalogue metric.
  const extra = !METRIC_BY_KEY.has(input.metric) && (await isExtraOf(database, ids, input.metric));
  if (!METRIC_BY_KEY.has(input.metric) && !extra)
    throw new Refusal('invalid', 'trend.unknownMetric', { metric: input.metric });
  const names = await database.db
    .select({ id: houseTable.id, houseName: houseTable.name, farmName: farms.name })
    .from(houseTable)
    .innerJoin(farms, eq(farms.id, houseTable.farmId))
    .where(inArray(houseTable.id, ids));
  if (names.length !== ids.length) throw new Refusal('notFound', 'http.notFound');
  const byId = new Map(names.map((n) => [n.id, n]));
  // One statement for every house, averages only: the chart and its export show nothing else.
  const trends = extra
    ? await readExtraTrends(database, { ...input, houseIds: ids, code: input.metric }, timeZone)
    : await readTrends(
        database,
        {
          houseIds: ids,
          metrics: [input.metric],
          from: input.from,
          to: input.to,
          granularity: input.granularity,
          parts: ['avg'],
        },
        timeZone,
      );
  const houses: Comparison['houses'] = trends.map((trend) => {
    const name = byId.get(trend.houseId)!;
    return {
      houseId: trend.houseId,
      houseName: name.houseName,
      farmName: name.farmName,
      times: trend.times,
      values: trend.series[input.metric]?.avg ?? [],
    };
  });
  const base = { metric: input.metric, granularity: input.granularity };
  if (input.align !== 'age') return { ...base, align: 'time', houses, standards: [] };
  const aligned = await alignByAge(database, houses, input.metric, input, timeZone);
  return { ...base, align: 'age', ...aligned };
}

/** Aligned by age, a row's key is the day of age; else the bucket start. */
function xsOf(house: Comparison['houses'][number], byAge: boolean): number[] {
  return byAge ? (house.ages ?? []) : house.times;
}

/**
 * The comparison as a table: one row per bucket (or day of age), one column per house, and
 * when aligned by age one per breed standard: exactly the chart's points.
 */
export function comparisonTable(
  comparison: Comparison,
  timeZone: string,
  headers: { time: string; age: string; standard: string },
): ExportTable {
  const byAge = comparison.align === 'age';
  const columns = comparison.houses.map((house) => {
    const values = new Map<number, number | null>();
    xsOf(house, byAge).forEach((x, i) => values.set(x, house.values[i] ?? null));
    return values;
  });
  const standards = byAge
    ? comparison.standards.map((s) => new Map(s.ages.map((a, i) => [a, s.values[i]!])))
    : [];
  const xs = [
    ...new Set([
      ...comparison.houses.flatMap((h) => xsOf(h, byAge)),
      ...standards.flatMap((s) => [...s.keys()]),
    ]),
  ].sort((a, b) => a - b);
  return {
    header: [
      byAge ? headers.age : timeHeading(headers.time, timeZone),
      ...comparison.houses.map((h) => `${h.farmName} / ${h.houseName}`),
      ...(byAge ? comparison.standards.map((s) => `${headers.standard}${s.breedName}`) : []),
    ],
    rows: xs.map((x): Cell[] => [
      byAge ? x : formatTime(x, timeZone),
      ...columns.map((c) => c.get(x) ?? null),
      ...standards.map((s) => s.get(x) ?? null),
    ]),
  };
}
