import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlockKpis } from '../../src/contract/production';
import { FEED_BIN_CODE } from '../../src/contract/earlyWarnings';
import { splitSentinels } from '../../server/demo/history/generate';
import { ServerEvents } from '../../server/events';
import type { Reading } from '../../server/ingest/types';
import { writeBatch } from '../../server/ingest/writer';
import { checkEarlyWarnings, WARNING_TICK_MS } from '../../server/production/warningTick';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

const H = 3_600_000;
/** The live simulator's readings, a little coarser than its 30 s: the counters add up the same. */
const STEP_MS = 2 * 60_000;

/**
 * A fresh demo left running: its own simulator's house models (the ones standing at the end of
 * the new demo's past) carry on over two hours of a clock of the test's own, their readings go
 * through the ordinary writer, and the early warnings are judged every maintenance tick.
 */
describe.each(testDatabaseTargets())('a fresh demo left running on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { ROOST_DEMO_HISTORY: 'on' });
  }, 300_000);
  afterAll(() => t?.close());

  it('raises each early warning its story houses make happen within two hours, each true of the data beside it', async () => {
    const gateways = t.boot.demoGateways!;
    const models = t.boot.demoModels!;
    const rows = await t.database.query<{ id: number; house_id: number; farm_id: number }>(
      `select g.id, g.house_id, h.farm_id from gateways g join houses h on h.id = g.house_id
       where g.network_id = any($1::text[])`,
      [gateways.map((g) => g.networkId)],
    );
    const idOf = new Map(rows.map((r) => [r.house_id, r]));
    const ctx = {
      database: t.database,
      config: t.config,
      events: new ServerEvents(pino({ level: 'silent' })),
    };

    const start = Date.now();
    let nextCheck = start + WARNING_TICK_MS;
    for (let at = start + STEP_MS; at <= start + 2 * H; at += STEP_MS) {
      const batch: Reading[] = gateways.map((g, i) => {
        const message = models[i]!.next(at).message;
        const { metrics, faults } = splitSentinels(message.metrics);
        const ids = idOf.get(g.houseId)!;
        return {
          gatewayId: ids.id,
          houseId: g.houseId,
          farmId: ids.farm_id,
          networkId: g.networkId,
          ts: new Date(message.ts),
          receivedAt: new Date(message.ts),
          seq: message.seq,
          mode: message.mode ?? null,
          metrics,
          faults,
          devices: message.devices ?? {},
          // The bin's level is its sensor's extra parameter, as the ingest directory marks it.
          extraKeys: FEED_BIN_CODE in metrics ? [FEED_BIN_CODE] : null,
        };
      });
      await t.database.transaction(({ query }) => writeBatch(query, batch));
      if (at >= nextCheck) {
        await checkEarlyWarnings(ctx, new Date(at));
        nextCheck += WARNING_TICK_MS;
      }
    }

    const stories = new Map(gateways.flatMap((g) => (g.story ? [[g.story, g] as const] : [])));
    expect([...stories.keys()].sort()).toEqual(
      ['feedBinLow', 'feedOffStandard', 'waterDrop', 'weightGainSlow'].sort(),
    );
    const raised = await t.database.query<{
      house_id: number;
      cause: string;
      value: number;
      text: string;
      raised_at: Date;
    }>(
      `select house_id, cause, value, text, raised_at from alarms
       where cause in ('waterDrop', 'feedOffStandard', 'weightGainSlow', 'feedBinLow')
       order by id`,
    );
    // Each story raised its own warning on its own house, and nothing else was raised.
    expect(raised.map((a) => a.cause).sort()).toEqual([...stories.keys()].sort());
    for (const alarm of raised) {
      expect(alarm.house_id).toBe(stories.get(alarm.cause as never)!.houseId);
      expect(new Date(alarm.raised_at).getTime()).toBeLessThanOrEqual(start + 2 * H);
    }

    // The feed bin's warning: the level it names is the one stored at its raise, under a day of
    // the flock's feed, and the bin fell by what the flock ate (no feed appears or vanishes).
    const bin = stories.get('feedBinLow')!;
    const alarm = raised.find((a) => a.cause === 'feedBinLow')!;
    const levels = await t.database.query<{ ts: Date; value: number }>(
      `select ts, value from telemetry_extra where house_id = $1 and code = $2 order by ts`,
      [bin.houseId, FEED_BIN_CODE],
    );
    const raisedAt = new Date(alarm.raised_at).getTime();
    const atRaise = levels.filter((l) => new Date(l.ts).getTime() <= raisedAt).at(-1)!;
    expect(alarm.text).toMatch(
      new RegExp(`^${Math.round(atRaise.value)} kg, ≈ [\\d.]+ h \\(< 24 h\\)$`),
    );
    expect(Number(alarm.value)).toBeLessThan(24);
    expect(levels.every((l, i) => i === 0 || l.value <= levels[i - 1]!.value)).toBe(true);
    const [fed] = await t.database.query<{ kg: number }>(
      `select sum(feed)::float8 as kg from telemetry where house_id = $1 and ts > $2 and ts <= $3`,
      [bin.houseId, levels[0]!.ts, levels.at(-1)!.ts],
    );
    const fell = levels[0]!.value - levels.at(-1)!.value;
    expect(fell).toBeGreaterThan(0);
    expect(Math.abs(fell - Number(fed!.kg)) / fell).toBeLessThan(0.02);

    // The hours it names are the level over the flock's daily feed (its last recorded day, as
    // the KPI page shows it): at most a rounding apart.
    const admin = await t.signIn('admin');
    const kpis = bodyOf<FlockKpis>(
      await t.app.inject({
        method: 'GET',
        url: `/api/production/kpi?houseId=${bin.houseId}`,
        headers: { authorization: `Bearer ${admin}` },
      }),
    ).data;
    const day = [...kpis.days].reverse().find((d) => d.recorded && d.feedPerBirdG !== null)!;
    const kgPerHour = (day.feedPerBirdG! * day.alive!) / 1000 / 24;
    expect(Number(alarm.value)).toBeCloseTo(atRaise.value / kgPerHour, 0);
  }, 600_000);
});
