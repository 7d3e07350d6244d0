import { testDatabaseTargets } from '../tests/helpers/databases';
import { createTestApp } from '../tests/helpers/testApp';
import { FUZZ_USERS, fuzzableRoutes, runFuzz } from '../tests/harden/fuzzRequests';

export interface FuzzFigures {
  database: string;
  routes: number;
  requests: number;
  serverErrors: number;
  firstErrors: Array<{ status: number; method: string; url: string }>;
  requestsPerSecond: number;
  statuses: Record<string, number>;
}

/**
 * The long run of the CI fuzz (tests/harden/fuzz.test.ts): BENCH_FUZZ_REQUESTS (default
 * 100,000) generated requests to every /api route as each role, half of them carrying a
 * control character; counts the answers ≥ 500. PGlite, and PostgreSQL when TEST_DATABASE_URL
 * is set.
 */
export async function benchFuzz(total: number): Promise<FuzzFigures[]> {
  const figures: FuzzFigures[] = [];
  for (const target of testDatabaseTargets()) {
    const t = await createTestApp(target);
    try {
      const tokens: string[] = [];
      for (const user of FUZZ_USERS) tokens.push(await t.signIn(user));
      const started = performance.now();
      const statuses = new Map<number, number>();
      const errors: FuzzFigures['firstErrors'] = [];
      let requests = 0;
      let serverErrors = 0;
      const chunk = 5_000;
      for (let done = 0; done < total; done += chunk) {
        const run = await runFuzz(t.app, tokens, {
          seed: 7_000 + done,
          count: Math.min(chunk, total - done),
          poisoned: (done / chunk) % 2 === 0,
        });
        requests += run.requests;
        serverErrors += run.failures.length;
        for (const f of run.failures) if (errors.length < 10) errors.push(f);
        for (const [status, n] of run.statuses)
          statuses.set(status, (statuses.get(status) ?? 0) + n);
      }
      const seconds = (performance.now() - started) / 1000;
      figures.push({
        database: target.name,
        routes: fuzzableRoutes(t.app).length,
        requests,
        serverErrors,
        firstErrors: errors,
        requestsPerSecond: Math.round(requests / seconds),
        statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
      });
    } finally {
      await t.close();
    }
  }
  return figures;
}
