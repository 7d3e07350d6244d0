import { bootstrap } from '../server/bootstrap';
import { readConfig } from '../server/config';
import type { Database } from '../server/db/client';
import { openDatabase } from '../server/db/open';
import { compareHouses } from '../server/houses/compare';
import { readTrend } from '../server/houses/readTrend.sql';
import { METRIC_KEYS } from '../src/contract/metrics';
import { testDatabaseTargets } from '../tests/helpers/databases';
import { percentile } from './load';

const DAY_MS = 86_400_000;
const QUERIES = 100;
const WARMUP = 10;
const TREND_METRICS = ['temperature', 'humidity', 'co2', 'nh3', 'water', 'feed'];

export interface QueryFigures {
  kind: string;
  what: string;
  points: number;
  p50Ms: number;
  p95Ms: number;
}

/**
 * Trend and comparison reads from the rollups, as the console makes them, with 42 houses × 90
 * days of hourly rows in the table around them; on PGlite and (TEST_DATABASE_URL) PostgreSQL.
 */
export async function benchTrendQueries(): Promise<QueryFigures[]> {
  const figures: QueryFigures[] = [];
  for (const target of testDatabaseTargets()) {
    const created = await target.create();
    const database = await openDatabase(created.target);
    try {
      const houseIds = await fillHourlyRollups(database, 90);
      const to = Date.now();
      const from = to - 90 * DAY_MS;
      figures.push({
        kind: target.name,
        what: 'trend: 1 house, 90 days hourly, 6 metrics',
        ...(await measure(async () => {
          const trend = await readTrend(
            database,
            { houseId: houseIds[0]!, metrics: TREND_METRICS, from, to, granularity: 'hour' },
            'Asia/Shanghai',
          );
          return trend.times.length * TREND_METRICS.length;
        })),
      });
      figures.push({
        kind: target.name,
        what: 'comparison: 6 houses, 3 months hourly, 1 metric',
        ...(await measure(async () => {
          const comparison = await compareHouses(
            database,
            { all: true },
            {
              houseIds: houseIds.slice(0, 6),
              metric: 'temperature',
              from,
              to,
              granularity: 'hour',
            },
            'Asia/Shanghai',
          );
          return JSON.stringify(comparison).length > 0 ? 6 * 2_160 : 0;
        })),
      });
    } finally {
      await database.close();
      await created.drop();
    }
  }
  return figures;
}

async function measure(
  query: () => Promise<number>,
): Promise<{ points: number; p50Ms: number; p95Ms: number }> {
  const times: number[] = [];
  let points = 0;
  for (let i = 0; i < QUERIES + WARMUP; i += 1) {
    const start = performance.now();
    points = await query();
    if (i >= WARMUP) times.push(performance.now() - start);
  }
  return { points, p50Ms: percentile(times, 50), p95Ms: percentile(times, 95) };
}

/** The demo's 42 houses with `days` of hourly rollups each; answers their ids. */
async function fillHourlyRollups(database: Database, days: number): Promise<number[]> {
  await bootstrap(
    readConfig({ DATA_DIR: 'memory://', ROOST_DEMO: '1', ROOST_DEMO_HISTORY: 'off' }),
    database,
  );
  const columns = METRIC_KEYS.flatMap((k) => [
    `"${k}_min"`,
    `"${k}_max"`,
    `"${k}_sum"`,
    `"${k}_n"`,
  ]);
  const values = METRIC_KEYS.flatMap(() => [
    '20 + random()',
    '25 + random()',
    '1350 + random() * 60',
    '60',
  ]);
  await database.query(
    `insert into telemetry_hourly (house_id, bucket, readings, ${columns.join(', ')})
     select h.id, g, 60, ${values.join(', ')}
     from houses h, generate_series(date_trunc('hour', now()) - interval '${days} days', date_trunc('hour', now()), interval '1 hour') g`,
  );
  const rows = await database.query<{ id: number }>('select id from houses order by id');
  return rows.map((r) => r.id);
}
