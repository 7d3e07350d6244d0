import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PowerAnswer, Tariff } from '../../src/contract/production';
import type { PowerMonth } from '../../src/contract/productionPower';
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

  it("exports the day's electricity as XLSX: each hour's kWh, period, price and cost, then the totals", async () => {
    const house = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
    const farm = await t.signIn('farm');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/production/power/export?houseId=${house.houseId}&day=${DAY}&format=xlsx`,
      headers: { authorization: `Bearer ${farm}`, locale: 'zh' },
    });
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const row = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(row(1)).toEqual(['时段', '用电量（kWh）', '峰谷', '电价（每 kWh）', '电费']);
    // Hour 9 (row 11) is a peak hour: 30 kWh at 1.2; hour 3 a valley hour: 10 kWh at 0.3.
    expect(row(11)).toEqual(['09:00–10:00', 30, '峰', 1.2, 36]);
    expect(row(5)).toEqual(['03:00–04:00', 10, '谷', 0.3, 3]);
    expect(row(26)).toEqual(['合计', 470, undefined, undefined, 402]);
    expect(row(27)).toEqual(['峰值功率（kW）', 30]);

    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/production/power/export?farmId=${house.farmId}&day=${DAY}&format=csv`,
      headers: { authorization: `Bearer ${farm}`, locale: 'en' },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Total,470,,,402');
  });

  it('the month: each day billed by the tariff, the peak hour, per bird and per kg produced', async () => {
    const house = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
    // A flock of 10,000 housed on the metered day: weighed at 100 g, then 100 dead and 200 g.
    const [flock] = await t.database.query<{ id: number }>(
      `insert into flocks (house_id, breed_id, placed_on, closed_on, age_at_placement, head_count)
       select $1, breed_id, $2, $3, 1, 10000 from flocks where house_id = $1 limit 1 returning id`,
      [house.houseId, DAY, '2026-11-04'],
    );
    for (const [day, deaths, grams] of [
      [DAY, 0, 100],
      ['2026-11-03', 100, 200],
    ] as const)
      await t.database.query(
        `insert into daily_records (flock_id, day, deaths_am, deaths_pm, culls_am, culls_pm, feed_kg, body_weight_g)
         values ($1, $2, $3, 0, 0, 0, 500, $4)`,
        [flock!.id, day, deaths, grams],
      );
    const farm = await t.signIn('farm');
    const month = await api<PowerMonth>(
      farm,
      'GET',
      `/production/power/month?houseId=${house.houseId}&month=2026-11`,
    );
    expect(month.status).toBe(200);
    expect(month.data.days).toHaveLength(30);
    // 2 November as above (470 kWh, 402); 3 November has the one 99 kWh reading, a valley hour.
    const byDay = new Map(month.data.days.map((d) => [d.day, d]));
    expect(byDay.get(DAY)).toMatchObject({ kwh: 470, peakKw: 30 });
    expect(byDay.get(DAY)!.cost).toBeCloseTo(402, 6);
    expect(byDay.get('2026-11-03')!.kwh).toBe(99);
    expect(byDay.get('2026-11-03')!.cost).toBeCloseTo(29.7, 6);
    expect(byDay.get('2026-11-04')!.kwh).toBeNull();
    expect(month.data.kwh).toBeCloseTo(569, 6);
    expect(month.data.cost).toBeCloseTo(431.7, 6);
    expect(month.data.peakKw).toBe(99);
    // 25 metered hours.
    expect(month.data.averageKw).toBeCloseTo(569 / 25, 6);
    expect(month.data.byPeriod!.valley.kwh).toBeCloseTo(179, 6);
    // Birds: 10,000 on the 2nd, 9,900 on the 3rd → 9,950 on average.
    expect(month.data.kwhPerBird).toBeCloseTo(569 / 9950, 9);
    // Produced: 9,900 × 0.2 kg − 10,000 × 0.1 kg = 980 kg of live weight.
    expect(month.data.producedKg).toBeCloseTo(980, 6);
    expect(month.data.kwhPerKg).toBeCloseTo(569 / 980, 9);

    // A house outside the scope answers like one that does not exist.
    const shack = await t.signIn('shack');
    const other = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 5');
    expect(
      (await api(shack, 'GET', `/production/power/month?houseId=${other.houseId}&month=2026-11`))
        .status,
    ).toBe(404);
  });

  it("the tariff is read back by its organisation's administrators and company managers only", async () => {
    const house = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
    const [org] = await t.database.query<{ org_id: number }>(
      'select org_id from farms where id = $1',
      [house.farmId],
    );
    const orgId = Number(org!.org_id);
    const company = await t.signIn('company');
    const read = await api<{ orgId: number; tariff: Tariff | null }>(
      company,
      'GET',
      `/production/tariff?orgId=${orgId}`,
    );
    expect(read.status).toBe(200);
    expect(read.data.tariff).toEqual(TARIFF);
    const farm = await t.signIn('farm');
    expect((await api(farm, 'GET', `/production/tariff?orgId=${orgId}`)).status).toBe(403);
  });
});
