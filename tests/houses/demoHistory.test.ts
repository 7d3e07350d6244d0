import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../../src/contract/houses';
import type { Trend } from '../../src/contract/overview';
import { BROILER, LAYER } from '../../server/demo/breedStandards';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Generating and writing three months of 42 houses takes a while on a busy machine. */
const START_TIMEOUT_MS = 180_000;

const rangeOf = (rows: Array<{ temperature: number }>) => ({
  min: Math.min(...rows.map((r) => r.temperature)),
  max: Math.max(...rows.map((r) => r.temperature)),
});
const BREED_RANGE = { broiler: rangeOf(BROILER.rows), layer: rangeOf(LAYER.rows) };

describe.each(testDatabaseTargets())('a new demo with its past ($name)', (target) => {
  let t: TestApp;
  let admin: string;
  let houses: Array<{ id: number; breed: 'broiler' | 'layer'; placed_on: string }>;
  let startedAt: number;

  beforeAll(async () => {
    t = await createTestApp(target, { ROOST_DEMO_HISTORY: 'on' });
    startedAt = Date.now();
    admin = await t.signIn('admin');
    houses = await t.database.query(
      `select h.id, f.type as breed, fl.placed_on::text as placed_on from houses h
       join farms f on f.id = h.farm_id
       join flocks fl on fl.house_id = h.id and fl.closed_on is null order by h.id`,
    );
  }, START_TIMEOUT_MS);
  afterAll(() => t?.close());

  const get = async <T>(url: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.statusCode).toBe(200);
    return bodyOf<T>(res).data;
  };

  it('gives every house ≥ 89 days of hourly rollups, daily rollups and the last 48 h raw', async () => {
    expect(houses).toHaveLength(42);
    const rows = await t.database.query<{
      house_id: number;
      first_hour: Date;
      hours: number;
      days: number;
      first_raw: Date;
      last_raw: Date;
    }>(
      `select h.id as house_id,
         (select min(bucket) from telemetry_hourly where house_id = h.id) as first_hour,
         (select count(*)::int from telemetry_hourly where house_id = h.id) as hours,
         (select count(*)::int from telemetry_daily where house_id = h.id) as days,
         (select min(ts) from telemetry where house_id = h.id) as first_raw,
         (select max(ts) from telemetry where house_id = h.id) as last_raw
       from houses h order by h.id`,
    );
    for (const r of rows) {
      expect(startedAt - new Date(r.first_hour).getTime()).toBeGreaterThan(89 * DAY_MS);
      expect(r.hours).toBeGreaterThan(89 * 24);
      expect(r.days).toBeGreaterThanOrEqual(89);
      expect(startedAt - new Date(r.first_raw).getTime()).toBeGreaterThan(47.5 * HOUR_MS);
      expect(startedAt - new Date(r.last_raw).getTime()).toBeLessThan(2 * 60_000);
    }
  });

  it('keeps hourly temperatures within the breed range while a flock is in the house', async () => {
    for (const house of houses) {
      const placed = Date.parse(`${house.placed_on}T00:00:00Z`);
      const [row] = await t.database.query<{ lo: number; hi: number; n: number }>(
        `select min(temperature_sum / temperature_n) as lo, max(temperature_sum / temperature_n) as hi,
           count(*)::int as n
         from telemetry_hourly where house_id = $1 and bucket >= $2 and temperature_n > 0`,
        [house.id, new Date(placed + DAY_MS)],
      );
      if (!row || row.n === 0) continue;
      const range = BREED_RANGE[house.breed];
      // Fan failures push a house several degrees over its target for a while.
      expect(row.lo).toBeGreaterThan(range.min - 5);
      expect(row.hi).toBeLessThan(range.max + 10);
    }
  });

  it('answers the monitor’s 24-hour curve with points across the whole day', async () => {
    const to = Date.now();
    const from = to - DAY_MS;
    for (const house of houses.slice(0, 6)) {
      const trend = await get<Trend>(
        `/api/trend/house?houseId=${house.id}&metrics=temperature&from=${from}&to=${to}&granularity=minute`,
      );
      const values = trend.series.temperature!.avg;
      const times = trend.times.filter((_, i) => values[i] !== null);
      expect(times.length).toBeGreaterThan(1_000);
      expect(times[0]! - from).toBeLessThan(10 * 60_000);
      expect(to - times.at(-1)!).toBeLessThan(10 * 60_000);
      for (let i = 1; i < times.length; i += 1)
        expect(times[i]! - times[i - 1]!).toBeLessThanOrEqual(10 * 60_000);
    }
  });

  it('answers House Compared for six houses over the latest month, >600 hourly points each', async () => {
    const to = Date.now();
    const ids = houses.slice(0, 6).map((h) => h.id);
    const comparison = await get<Comparison>(
      `/api/houses/compare?houseIds=${ids.join(',')}&metric=temperature&from=${to - 30 * DAY_MS}&to=${to}&granularity=hour`,
    );
    expect(comparison.houses).toHaveLength(6);
    for (const house of comparison.houses)
      expect(house.values.filter((v) => v !== null).length).toBeGreaterThan(600);
  });

  it('leaves a few raised-and-cleared alarms per house, and the flocks before the open one', async () => {
    const alarms = await t.database.query<{
      house_id: number;
      state: string;
      raised_at: Date;
      cleared_at: Date;
    }>('select house_id, state, raised_at, cleared_at from alarms');
    expect(new Set(alarms.map((a) => a.house_id)).size).toBeGreaterThan(30);
    for (const a of alarms) {
      expect(a.state).toBe('cleared');
      expect(new Date(a.cleared_at).getTime()).toBeGreaterThanOrEqual(
        new Date(a.raised_at).getTime(),
      );
      expect(startedAt - new Date(a.raised_at).getTime()).toBeLessThan(92 * DAY_MS);
    }
    const [closed] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from flocks where closed_on is not null',
    );
    expect(closed!.n).toBeGreaterThanOrEqual(42);
  });

  it('hands the live simulator models that carry on from the last stored reading', async () => {
    const models = t.boot.demoModels!;
    const gateways = t.boot.demoGateways!;
    expect(models).toHaveLength(gateways.length);
    for (const [i, model] of models.entries()) {
      const [last] = await t.database.query<{ ts: Date; temperature: number | null }>(
        `select t.ts, t.temperature from telemetry t join gateways g on g.id = t.gateway_id
         where g.network_id = $1 order by t.ts desc limit 1`,
        [gateways[i]!.networkId],
      );
      const step = model.next(Date.now());
      // No gap: the next live reading follows within the demo's interval (and this test's wait).
      expect(step.message.ts - new Date(last!.ts).getTime()).toBeLessThan(
        Date.now() - startedAt + 60_000,
      );
      if (last!.temperature !== null && step.message.metrics.temperature! > -100)
        expect(Math.abs(step.message.metrics.temperature! - last!.temperature)).toBeLessThan(1.5);
    }
  });
});
