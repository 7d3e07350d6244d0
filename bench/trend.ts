import { bootstrap } from '../server/bootstrap';
import { readConfig } from '../server/config';
import { openDatabase } from '../server/db/open';
import { readTrend } from '../server/trends/readTrend';
import { METRIC_KEYS } from '../src/contract/metrics';
import { testDatabaseTargets } from '../tests/helpers/databases';
import { percentile } from './load';

const DAY_MS = 86_400_000;
const QUERIES = 200;
const TREND_METRICS = ['temperature', 'humidity', 'co2', 'nh3', 'water', 'feed'];

export interface TrendFigures {
  kind: string;
  rows: number;
  p50Ms: number;
  p95Ms: number;
}

/**
 * One house, 90 days at hourly granularity, 6 metrics, read from the rollups as the console
 * does — with 42 houses × 90 days of hourly rows in the table around it.
 */
export async function benchTrend(): Promise<TrendFigures[]> {
  const figures: TrendFigures[] = [];
  for (const target of testDatabaseTargets()) {
    const created = await target.create();
    const database = await openDatabase(created.target);
    try {
      await bootstrap(readConfig({ DATA_DIR: 'memory://', ROOST_DEMO: '1' }), database);
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
         from houses h, generate_series(date_trunc('hour', now()) - interval '90 days', date_trunc('hour', now()), interval '1 hour') g`,
      );
      const [house] = await database.query<{ id: number }>('select min(id) as id from houses');
      const to = Date.now();
      const from = to - 90 * DAY_MS;
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < QUERIES + 20; i += 1) {
        const start = performance.now();
        const trend = await readTrend(
          database,
          { houseId: house!.id, metrics: TREND_METRICS, from, to, granularity: 'hour' },
          'Asia/Shanghai',
        );
        if (i >= 20) times.push(performance.now() - start);
        rows = trend.times.length;
      }
      figures.push({
        kind: target.name,
        rows,
        p50Ms: percentile(times, 50),
        p95Ms: percentile(times, 95),
      });
    } finally {
      await database.close();
      await created.drop();
    }
  }
  return figures;
}
