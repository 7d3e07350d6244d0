import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PowerAnswer, Tariff } from '../../src/contract/production';
import { alarmPipeline, demoHouse } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

// Valley 23:00–07:00, peak 08:00–11:00 and 18:00–22:00, flat otherwise.
const HOURS: Tariff['hours'] = Array.from({ length: 24 }, (_, h) =>
  h >= 23 || h < 7 ? 'valley' : (h >= 8 && h < 11) || (h >= 18 && h < 22) ? 'peak' : 'flat',
);
const TARIFF: Tariff = { hours: HOURS, prices: { peak: 1.2, flat: 0.7, valley: 0.3 } };
const DAY = '2026-11-02';
const SHANGHAI_OFFSET_MS = 8 * 3_600_000;

describe.each(testDatabaseTargets())('power and its cost on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { ROOST_TIMEZONE: 'Asia/Shanghai' });
  }, 180_000);
  afterAll(() => t?.close());

  const api = async <T>(token: string, method: 'GET' | 'PUT', url: string, body?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body }),
    });
    return { status: res.statusCode, ...bodyOf<T>(res) };
  };

  it('a day of known readings and a three-period tariff give the hand-computed kWh and cost', async () => {
    const house = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
    const { ingest } = alarmPipeline(t.database, () => new Date());
    // Two readings an hour, each the energy since the last: 5 + 5 kWh in a valley hour,
    // 10 + 10 in a flat one, 15 + 15 at peak; and one reading the next day, not counted.
    const start = Date.parse(`${DAY}T00:00:00Z`) - SHANGHAI_OFFSET_MS;
    for (let h = 0; h < 24; h++) {
      const each = HOURS[h] === 'valley' ? 5 : HOURS[h] === 'flat' ? 10 : 15;
      for (const minute of [10, 40]) {
        const result = await ingest.submitTelemetry(house.networkId, {
          ts: start + h * 3_600_000 + minute * 60_000,
          metrics: { power: each },
        });
        expect(result.status).toBe('stored');
      }
    }
    await ingest.submitTelemetry(house.networkId, {
      ts: start + 24 * 3_600_000 + 60_000,
      metrics: { power: 99 },
    });
    await ingest.drain();

    const [org] = await t.database.query<{ org_id: number }>(
      'select org_id from farms where id = $1',
      [house.farmId],
    );
    const orgId = Number(org!.org_id);
    const admin = await t.signIn('admin');
    const none = await api<PowerAnswer>(
      admin,
      'GET',
      `/production/power?houseId=${house.houseId}&day=${DAY}`,
    );
    expect(none.data).toMatchObject({ kwh: 470, cost: null });

    const farm = await t.signIn('farm');
    expect((await api(farm, 'PUT', '/production/tariff', { ...TARIFF, orgId })).status).toBe(403);
    expect(
      (await api(admin, 'PUT', '/production/tariff', { ...TARIFF, orgId, hours: HOURS.slice(1) }))
        .status,
    ).toBe(400);
    expect((await api(admin, 'PUT', '/production/tariff', { ...TARIFF, orgId })).status).toBe(200);

    const day = await api<PowerAnswer>(
      farm,
      'GET',
      `/production/power?houseId=${house.houseId}&day=${DAY}`,
    );
    expect(day.status).toBe(200);
    // 8 valley hours × 10 + 9 flat × 20 + 7 peak × 30 = 80 + 180 + 210 = 470 kWh;
    // 80 × 0.3 + 180 × 0.7 + 210 × 1.2 = 24 + 126 + 252 = 402.
    expect(day.data.kwh).toBeCloseTo(470, 6);
    expect(day.data.cost).toBeCloseTo(402, 6);
    expect(day.data.hourly[9]).toBe(30);
    expect(day.data.hourly[3]).toBe(10);
    expect(day.data.peakKw).toBe(30);
    expect(day.data.byPeriod?.valley.cost).toBeCloseTo(24, 6);
    // The farm's day adds its houses: only House 2 was metered.
    const farmDay = await api<PowerAnswer>(
      farm,
      'GET',
      `/production/power?farmId=${house.farmId}&day=${DAY}`,
    );
    expect(farmDay.data.kwh).toBeCloseTo(470, 6);
    // A house outside the scope answers like one that does not exist.
    const shack = await t.signIn('shack');
    const other = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 5');
    expect(
      (await api(shack, 'GET', `/production/power?houseId=${other.houseId}&day=${DAY}`)).status,
    ).toBe(404);
  });
});
