import type { Locale } from '../../src/contract/envelope';
import { METRIC_BY_KEY } from '../../src/contract/metrics';
import type { Database } from '../db/client';
import { extrasOfHouse, readExtraTrends } from '../devices/extraStore';
import { Refusal } from '../refusal';
import { timeHeading } from '../export/cells';
import { formatTime, type Cell, type ExportTable } from './exportTable';
import { readTrend, type HouseTrendQuery } from './readTrend.sql';

const TIME_HEADER: Record<Locale, string> = { en: 'Time', zh: '时间' };
const PART_HEADER: Record<Locale, [string, string, string]> = {
  en: ['avg', 'min', 'max'],
  zh: ['平均', '最低', '最高'],
};

type Triple = [number | null, number | null, number | null];

interface Column {
  label: string;
  at: Map<number, Triple>;
}

/** A series' average, lowest and highest by bucket start. */
function byTime(
  times: number[],
  s: { avg: Array<number | null>; min: Array<number | null>; max: Array<number | null> },
): Map<number, Triple> {
  return new Map(
    times.map((t, i): [number, Triple] => [
      t,
      [s.avg[i] ?? null, s.min[i] ?? null, s.max[i] ?? null],
    ]),
  );
}

/**
 * One house's trend as a table: catalogue metrics and a terminal device's extra parameters side
 * by side (each with its average, lowest and highest), one row per bucket any of them has.
 * `extras: 'all'` adds every extra parameter of the house; a code in `metrics` that is neither
 * in the catalogue nor an extra parameter of this house is refused.
 */
export async function trendExportTable(
  database: Database,
  query: HouseTrendQuery & { extras?: 'all' },
  timeZone: string,
  locale: Locale,
): Promise<ExportTable> {
  const houseExtras = await extrasOfHouse(database, query.houseId);
  const extraByCode = new Map(houseExtras.map((e) => [e.code, e]));
  const catalogue = query.metrics.filter((m) => METRIC_BY_KEY.has(m));
  const named = query.metrics.filter((m) => !METRIC_BY_KEY.has(m));
  for (const code of named)
    if (!extraByCode.has(code))
      throw new Refusal('invalid', 'trend.unknownMetric', { metric: code });
  const extraCodes = [
    ...new Set(query.extras === 'all' ? [...named, ...houseExtras.map((e) => e.code)] : named),
  ];

  const columns: Column[] = [];
  const times = new Set<number>();
  const window = { from: query.from, to: query.to, granularity: query.granularity };
  if (catalogue.length > 0) {
    const trend = await readTrend(
      database,
      { ...window, houseId: query.houseId, metrics: catalogue },
      timeZone,
    );
    for (const m of catalogue) {
      const s = trend.series[m]!;
      const at = byTime(trend.times, s);
      const unit = METRIC_BY_KEY.get(m)!.unit;
      columns.push({
        label: `${METRIC_BY_KEY.get(m)!.label[locale]}${unit ? ` (${unit})` : ''}`,
        at,
      });
    }
    trend.times.forEach((t) => times.add(t));
  }
  for (const code of extraCodes) {
    const [trend] = await readExtraTrends(
      database,
      { ...window, houseIds: [query.houseId], code },
      timeZone,
    );
    const s = trend!.series[code]!;
    const extra = extraByCode.get(code)!;
    columns.push({
      label: `${extra.name}${extra.unit ? ` (${extra.unit})` : ''}`,
      at: byTime(trend!.times, s),
    });
    trend!.times.forEach((t) => times.add(t));
  }
  const parts = PART_HEADER[locale];
  const empty: [null, null, null] = [null, null, null];
  return {
    header: [
      timeHeading(TIME_HEADER[locale], timeZone),
      ...columns.flatMap((c) => parts.map((p) => `${c.label} ${p}`)),
    ],
    rows: [...times]
      .sort((a, b) => a - b)
      .map((t): Cell[] => [
        formatTime(t, timeZone),
        ...columns.flatMap((c) => c.at.get(t) ?? empty),
      ]),
  };
}
