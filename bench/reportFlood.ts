import { testDatabaseTargets } from '../tests/helpers/databases';
import { startTestRoost } from '../tests/helpers/testRoost';
import { p99, runReportFlood } from '../tests/harden/reportFloodRun';

export interface ReportFloodFigures {
  database: string;
  baselineP99Ms: number;
  attackP99Ms: number;
  readings: number;
}

/**
 * One gateway sends 20 hostile 200 KB config/reports at once, again and again, while eight
 * honest gateways publish readings at QoS 1: how far the honest acknowledgements' p99 moves
 * (goal: by less than 100 ms), on each database, with the same phases as the test.
 */
export async function benchReportFlood(rounds = 6): Promise<ReportFloodFigures[]> {
  const figures: ReportFloodFigures[] = [];
  for (const target of testDatabaseTargets()) {
    const r = await startTestRoost(target);
    try {
      const { baseline, attack } = await runReportFlood(r, rounds);
      figures.push({
        database: target.name,
        baselineP99Ms: Math.round(p99(baseline) * 10) / 10,
        attackP99Ms: Math.round(p99(attack) * 10) / 10,
        readings: baseline.length + attack.length,
      });
    } finally {
      await r.stop();
    }
  }
  return figures;
}
