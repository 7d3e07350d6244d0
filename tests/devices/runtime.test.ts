import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import { deviceRuntime } from '../../server/db/devicesSchema';
import { countRunTime, MAX_COUNTED_GAP_MS, runSecondsSql } from '../../server/devices/runtime';
import type { Reading } from '../../server/ingest/types';
import { testDatabaseTargets } from '../helpers/databases';
import { openDemoDatabase } from '../helpers/demoDatabase';
import { houseReading } from '../helpers/readings';

const MINUTE = 60_000;

/**
 * A fan's running time, counted from the stored readings off the ingest path: read without a
 * lock and written only where nothing counted meanwhile, else counted again under locks.
 */
describe.each(testDatabaseTargets())('device run times on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;
  let houseId: number;

  beforeAll(async () => {
    ({ database, close } = await openDemoDatabase(target));
    const [house] = await database.query<{ id: number }>(
      'select id from houses order by id limit 1',
    );
    houseId = house!.id;
  }, 120_000);
  afterAll(async () => close?.());

  const reading = (ts: number, devices: Reading['devices']): Reading =>
    houseReading({ gatewayId: 1, houseId, farmId: 1 }, ts, { devices });

  const runMinutes = async (device: string) => {
    const [row] = await database.db
      .select({ s: runSecondsSql(sql`${device}::text`) })
      .from(deviceRuntime)
      .where(eq(deviceRuntime.houseId, houseId));
    return (row?.s ?? 0) / 60;
  };

  it('counts the time after an "on" reading, not after "off", not over a silent gap, not a late reading', async () => {
    const t0 = Date.UTC(2026, 10, 24, 6, 0);
    await countRunTime(database, [
      reading(t0, { fan_7: { state: 1 } }),
      reading(t0 + 10 * MINUTE, { fan_7: { state: 0 } }),
      reading(t0 + 15 * MINUTE, { fan_7: { state: 2 } }),
      reading(t0 + 20 * MINUTE, { fan_7: { state: 1 } }),
    ]);
    expect(await runMinutes('fan_7')).toBe(15);
    // Silent for longer than the counted gap while on: the gap is not running time.
    const later = t0 + 20 * MINUTE + MAX_COUNTED_GAP_MS + MINUTE;
    await countRunTime(database, [reading(later, { fan_7: { state: 1 } })]);
    expect(await runMinutes('fan_7')).toBe(15);
    // A late reading (older than the last counted) is left out.
    await countRunTime(database, [reading(t0 + 30 * MINUTE, { fan_7: { state: 1 } })]);
    await countRunTime(database, [reading(later + 5 * MINUTE, { fan_7: { state: 0 } })]);
    expect(await runMinutes('fan_7')).toBe(20);
  });

  it('counts each minute once when two counts of the same fan overlap, whichever writes last', async () => {
    const t0 = Date.UTC(2026, 10, 25, 6, 0);
    for (const [i, device] of ['fan_8', 'fan_9', 'fan_10'].entries()) {
      const start = t0 + i * 60 * MINUTE;
      await countRunTime(database, [reading(start, { [device]: { state: 1 } })]);
      // The later batch's count starts first, so the earlier batch's write comes last: had it
      // overwritten the row as it read it, the later batch's minutes would be lost.
      await Promise.all([
        countRunTime(database, [reading(start + 10 * MINUTE, { [device]: { state: 1 } })]),
        countRunTime(database, [reading(start + 5 * MINUTE, { [device]: { state: 1 } })]),
      ]);
      expect(await runMinutes(device)).toBe(10);
    }
  });

  it("keeps each port's count when a reading names only some of the house's ports", async () => {
    const t0 = Date.UTC(2026, 10, 26, 6, 0);
    await countRunTime(database, [
      reading(t0, { fan_11: { state: 1 }, heater_2: { state: 1 } }),
      reading(t0 + 10 * MINUTE, { fan_11: { state: 0 }, heater_2: { state: 1 } }),
    ]);
    await countRunTime(database, [reading(t0 + 20 * MINUTE, { heater_2: { state: 0 } })]);
    expect(await runMinutes('fan_11')).toBe(10);
    expect(await runMinutes('heater_2')).toBe(20);
    expect(await runMinutes('fan_12')).toBe(0);
  });
});
