import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_FLUSH_INTERVAL_MS } from '../../src/contract/live';
import { tcpOf } from '../helpers/adapters/clientTcp';
import { testDatabaseTargets } from '../helpers/databases';
import { houseLiveState } from '../helpers/houseStates';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';

type Socket = Awaited<ReturnType<TestRoost['socket']>>;

const HOUSES = 5_000;
const ROUNDS = 20;
/** 30 readings a house, as a full controller sends: ~3.5 MB of deltas a round. */
const METRICS = Array.from({ length: 30 }, (_, i) => `metric_${i}`);

const state = (houseId: number, round: number) =>
  houseLiveState(houseId, {
    metrics: Object.fromEntries(METRICS.map((m, i) => [m, round + i / 100])),
  });

/** The round each delta of one house came from (its first metric), in order. */
function valuesOf(socket: Socket, houseId: number): number[] {
  const seen: number[] = [];
  socket.on('house:updated', (batch) => {
    for (const d of batch.deltas)
      if (d.houseId === houseId && d.metrics) seen.push(d.metrics['metric_0']!);
  });
  return seen;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a console whose link cannot keep up', () => {
  let t: TestRoost;
  beforeAll(async () => {
    // The hub is the same on either database: the embedded one is enough.
    t = await startTestRoost(testDatabaseTargets()[0]!);
  });
  afterAll(() => t?.stop());

  it(
    'gets each house’s latest state once its link frees, not every change queued meanwhile',
    { timeout: 120_000 },
    async () => {
      const admin = await t.signIn('admin');
      const slow = await t.socket(admin);
      const fast = await t.socket(admin);
      const watched = 1_000_000 + HOUSES - 1;
      const slowSaw = valuesOf(slow, watched);
      const fastSaw = valuesOf(fast, watched);
      const ids = Array.from({ length: HOUSES }, (_, i) => 1_000_000 + i);

      // The slow browser stops reading (a stalled page, a saturated link) while every house
      // changes at each flush; the server keeps writing until its buffers for that link are full.
      tcpOf(slow).pause();
      for (let round = 1; round <= ROUNDS; round++) {
        t.roost.live.publishStates(ids.map((id) => state(id, round)));
        await sleep(LIVE_FLUSH_INTERVAL_MS + 20);
      }
      await sleep(LIVE_FLUSH_INTERVAL_MS * 2);
      tcpOf(slow).resume();

      // The browser that kept up heard the rounds as they came; the slow one what its buffers
      // held, then the latest state: it ends on the last round, having skipped most of them.
      await expect.poll(() => slowSaw.at(-1), { timeout: 60_000 }).toBe(ROUNDS);
      expect(fastSaw.at(-1)).toBe(ROUNDS);
      expect(fastSaw.length).toBeGreaterThanOrEqual(ROUNDS / 2);
      expect(slowSaw.length).toBeLessThanOrEqual(ROUNDS / 2);
      // What it did get came in order: nothing older after something newer.
      expect(slowSaw).toEqual([...slowSaw].sort((a, b) => a - b));
      expect(slow.connected).toBe(true);
    },
  );
});
