import { performance } from 'node:perf_hooks';
import { loadFlockKpis } from '../server/production/flockKpis';
import { localDay, readFlocks } from '../server/production/records';
import { testDatabaseTargets } from '../tests/helpers/databases';
import { withDemoDatabase } from './demoDatabase';
import { percentile } from './load';

const FLOCKS = 500;
/** A broiler flock's life: placement to catch. */
const LIFE_DAYS = 42;
const QUERIES = 20;
const WARMUP = 3;

export interface ProductionFigures {
  kind: string;
  flocks: number;
  records: number;
  p50Ms: number;
  p95Ms: number;
}

/**
 * The KPIs of 500 closed flocks of one company over their whole lives (42 days of records each),
 * read and computed as the flocks page does for each; on PGlite and (TEST_DATABASE_URL)
 * PostgreSQL. Runs only when named (BENCH_ONLY=production).
 */
export async function benchProduction(): Promise<ProductionFigures[]> {
  const figures: ProductionFigures[] = [];
  for (const target of testDatabaseTargets()) {
    await withDemoDatabase(target, async (database) => {
      // Closed flocks one after another in the demo's houses, 50 days apart, in the past.
      await database.query(
        `insert into flocks (house_id, breed_id, placed_on, age_at_placement, head_count, closed_on)
         select h.id, (select id from breeds where code = 'BROILER-STD'),
           date '2020-01-01' + (g / 42) * 50, 1, 20000, date '2020-01-01' + (g / 42) * 50 + ${LIFE_DAYS - 1}
         from generate_series(0, ${FLOCKS - 1}) g
         join (select id, row_number() over (order by id) - 1 as n from houses) h on h.n = g % 42`,
      );
      await database.query(
        `insert into daily_records (flock_id, day, deaths_am, deaths_pm, culls_am, culls_pm, feed_kg, water_l, body_weight_g)
         select f.id, f.placed_on + d, 5, 3, 1, 0, 20 * (10 + d * 4.2), 20 * (20 + d * 8),
           case when d % 7 = 0 then 42 + d * d * 1.3 else null end
         from flocks f cross join generate_series(0, ${LIFE_DAYS - 1}) d where f.closed_on is not null`,
      );
      const [count] = await database.query<{ n: number }>(
        'select count(*)::int as n from daily_records',
      );
      const today = localDay(new Date(), 'Asia/Shanghai');
      const run = async () => {
        const flocks = (await readFlocks(database, { all: true }, {})).filter(
          (f) => f.closedOn !== null,
        );
        const kpis = await loadFlockKpis(database, flocks, today, 'Asia/Shanghai');
        if (kpis.length !== FLOCKS)
          throw new Error(`expected ${FLOCKS} flocks, got ${kpis.length}`);
      };
      for (let i = 0; i < WARMUP; i++) await run();
      const times: number[] = [];
      for (let i = 0; i < QUERIES; i++) {
        const started = performance.now();
        await run();
        times.push(performance.now() - started);
      }
      figures.push({
        kind: target.name,
        flocks: FLOCKS,
        records: Number(count?.n ?? 0),
        p50Ms: percentile(times, 50),
        p95Ms: percentile(times, 95),
      });
    });
  }
  return figures;
}
