import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { dataDigest, FUZZ_USERS, fuzzableRoutes, runFuzz } from './fuzzRequests';

/** Seeded, so a failure found here is found again; a long run is `BENCH_ONLY=fuzz npm run bench`. */
const SEED = 20261123;

describe.each(testDatabaseTargets())('a seeded fuzz of every JSON route on $name', (target) => {
  let t: TestApp;
  let tokens: string[];
  beforeAll(async () => {
    t = await createTestApp(target);
    tokens = [];
    for (const user of FUZZ_USERS) tokens.push(await t.signIn(user));
  }, 180_000);
  afterAll(() => t?.close());

  it('reaches every registered /api route', () => {
    expect(fuzzableRoutes(t.app).length).toBeGreaterThan(60);
  });

  it('answers no request carrying a control character with a 5xx, and none of them changes data', async () => {
    const before = await dataDigest(t.database);
    const run = await runFuzz(t.app, tokens, { seed: SEED, count: 1_200, poisoned: true });
    expect(run.failures).toEqual([]);
    expect(await dataDigest(t.database)).toEqual(before);
  }, 300_000);

  it('answers no generated request with a 5xx, whatever it holds', async () => {
    const run = await runFuzz(t.app, tokens, { seed: SEED + 1, count: 2_000, poisoned: false });
    expect(run.failures).toEqual([]);
    // Some get past validation into the handlers, or the run would prove little.
    expect(run.statuses.get(200) ?? 0).toBeGreaterThan(100);
  }, 300_000);
});
