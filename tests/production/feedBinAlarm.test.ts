import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerEvents } from '../../server/events';
import { checkEarlyWarnings } from '../../server/production/warningTick';
import { demoHouse } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';

const H = 3_600_000;

describe.each(testDatabaseTargets())('the feed-running-out warning on $name', (target) => {
  let t: TestApp;
  let ctx: Parameters<typeof checkEarlyWarnings>[0];
  beforeAll(async () => {
    t = await createTestApp(target, { ROOST_TIMEZONE: 'UTC' });
    const events = new ServerEvents(pino({ level: 'silent' }));
    ctx = { database: t.database, config: t.config, events };
  }, 180_000);
  afterAll(() => t?.close());

  it('a bin level falling to under 24 h of feed raises once; the refill clears it', async () => {
    // A young flock (its standard feed far under the 100 kg/h fall below): the fall judges.
    const house = await demoHouse(t.database, 'Tieling Broiler Farm', 'House 5');
    // The demo gave this house's feed bin a level sensor: a terminal device whose extra
    // parameter is the level in kg.
    const [sensor] = await t.database.query<{ extras: unknown }>(
      `select extras from terminal_devices where house_id = $1 and code = 'BIN-5'`,
      [house.houseId],
    );
    expect(JSON.stringify(sensor?.extras)).toContain('"code":"feed_bin"');
    const base = Math.floor((Date.now() - 10 * H) / H) * H;
    const level = async (at: number, kg: number) => {
      const result = await t.ingest.submitTelemetry(house.networkId, {
        ts: at,
        metrics: { feed_bin: kg },
      });
      expect(result.status).toBe('stored');
    };
    const binAlarms = () =>
      t.database.query<{ state: string; value: number; text: string }>(
        `select state, value, text from alarms where house_id = $1 and cause = 'feedBinLow' order by id`,
        [house.houseId],
      );

    // 2000 → 1600 kg over four hours: 100 kg an hour, 16 hours left.
    for (const [i, kg] of [2000, 1900, 1800, 1700, 1600].entries())
      await level(base + (i - 4) * H, kg);
    await t.ingest.drain();
    await checkEarlyWarnings(ctx, new Date(base));
    await checkEarlyWarnings(ctx, new Date(base + 600_000));
    expect(await binAlarms()).toEqual([
      { state: 'active', value: 16, text: '1600 kg, ≈ 16 h (< 24 h)' },
    ]);

    // Refilled to 9000 kg, eaten at the same rate: 88 hours left, the alarm clears once.
    for (const [i, kg] of [9000, 8900, 8800].entries()) await level(base + (i + 1) * H, kg);
    await t.ingest.drain();
    await checkEarlyWarnings(ctx, new Date(base + 3 * H));
    await checkEarlyWarnings(ctx, new Date(base + 3 * H + 600_000));
    const after = await binAlarms();
    expect(after.map((a) => a.state)).toEqual(['cleared']);
  });

  it("a flock just placed, with no day entered and no fall yet, is judged at its breed's standard feed", async () => {
    const house = await demoHouse(t.database, 'Gaocheng Broiler Farm', 'House 5');
    const [flock] = await t.database.query<{ head_count: number }>(
      `select head_count from flocks where house_id = $1 and closed_on is null`,
      [house.houseId],
    );
    expect(flock?.head_count).toBeGreaterThan(0);
    const now = Date.now();
    // One reading only: no fall to judge a rate from, and the demo's flock has no day entered.
    const stored = await t.ingest.submitTelemetry(house.networkId, {
      ts: now - 60_000,
      metrics: { feed_bin: 100 },
    });
    expect(stored.status).toBe('stored');
    await t.ingest.drain();
    await checkEarlyWarnings(ctx, new Date(now));
    const [alarm] = await t.database.query<{ state: string; value: number; text: string }>(
      `select state, value, text from alarms where house_id = $1 and cause = 'feedBinLow'`,
      [house.houseId],
    );
    // 100 kg against thousands of birds eating the standard's grams a day: hours, not days.
    expect(alarm?.state).toBe('active');
    expect(alarm!.value).toBeGreaterThan(0);
    expect(alarm!.value).toBeLessThan(24);
    expect(alarm!.text).toMatch(/^100 kg, ≈ \d+(\.\d)? h \(< 24 h\)$/);
  });
});
