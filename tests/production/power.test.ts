import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PowerAnswer, Tariff } from '../../src/contract/production';
import type { PowerMonth } from '../../src/contract/productionPower';
import { alarmPipeline, demoHouse } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import { readPowerDay } from '../../server/production/power';
import { readPowerMonth } from '../../server/production/powerMonth';

// Valley 23:00–07:00, peak 08:00–11:00 and 18:00–22:00, flat otherwise.
const HOURS: Tariff['hours'] = Array.from({ length: 24 }, (_, h) =>
  h >= 23 || h < 7 ? 'valley' : (h >= 8 && h < 11) || (h >= 18 && h < 22) ? 'peak' : 'flat',
);
const TARIFF: Tariff = {
  hours: HOURS,
  prices: { peak: 1.2, flat: 0.7, valley: 0.3 },
  currency: 'CNY',
};
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
    // Prices and costs name the tariff's currency.
    expect(row(1)).toEqual(['时段', '用电量（kWh）', '峰谷', '电价（CNY/kWh）', '电费（CNY）']);
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
    // Produced: 9,900 × 0.2 kg − 10,000 × 0.1 kg = 980 kg of live weight, gained on the 3rd
    // (the day after the first weighing up to the second): its 99 kWh, not the 2nd's 470.
    expect(month.data.producedKg).toBeCloseTo(980, 6);
    expect(month.data.producedKwh).toBeCloseTo(99, 6);
    expect(month.data.kwhPerKg).toBeCloseTo(99 / 980, 9);

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
    // The currency is the tariff's: kept as saved, and an unknown code is refused.
    expect(
      (await api(company, 'PUT', '/production/tariff', { ...TARIFF, orgId, currency: 'EUR' }))
        .status,
    ).toBe(200);
    const euro = await api<{ tariff: Tariff }>(company, 'GET', `/production/tariff?orgId=${orgId}`);
    expect(euro.data.tariff.currency).toBe('EUR');
    const bad = await api(company, 'PUT', '/production/tariff', {
      ...TARIFF,
      orgId,
      currency: 'XX',
    });
    expect(bad.status).toBe(400);
  });

  /** Hourly rows of `houseId`: `kwh` by the local (Shanghai) day and hour. */
  const meter = async (
    houseId: number,
    readings: Array<[day: string, hour: number, kwh: number]>,
  ) => {
    for (const [day, hour, kwh] of readings)
      await t.database.query(
        `insert into telemetry_hourly (house_id, bucket, readings, power_sum, power_n)
         values ($1, $2, 1, $3, 1)`,
        [
          houseId,
          new Date(
            Date.parse(`${day}T00:00:00Z`) - SHANGHAI_OFFSET_MS + hour * 3_600_000,
          ).toISOString(),
          kwh,
        ],
      );
  };

  it("the month's kWh per kg and per bird divide the flocks' own days, not the month's", async () => {
    const house = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 3');
    // October 2025 (long before the demo's past): a flock's last days (1,000 birds weighed at
    // 2.0 and 2.3 kg), six empty days, a new flock (2,000 weighed at 40 and 100 g).
    const flocks = await t.database.query<{ id: number }>(
      `insert into flocks (house_id, breed_id, placed_on, closed_on, age_at_placement, head_count)
       select $1, breed_id, p, c, 1, n from (select breed_id from flocks where house_id = $1 limit 1) b,
         (values ('2025-09-25'::date, '2025-10-03'::date, 1000), ('2025-10-10', '2025-10-31', 2000)) v(p, c, n)
       returning id`,
      [house.houseId],
    );
    const [old, young] = flocks.map((f) => Number(f.id)).sort((a, b) => a - b);
    for (const [flockId, day, grams] of [
      [old, '2025-10-01', 2000],
      [old, '2025-10-02', null],
      [old, '2025-10-03', 2300],
      [young, '2025-10-10', 40],
      [young, '2025-10-11', null],
      [young, '2025-10-12', 100],
      [young, '2025-10-13', null],
    ] as const)
      await t.database.query(
        `insert into daily_records (flock_id, day, deaths_am, deaths_pm, culls_am, culls_pm, feed_kg, body_weight_g)
         values ($1, $2, 0, 0, 0, 0, 100, $3)`,
        [flockId, day, grams],
      );
    const kwh = [100, 110, 120, 50, 50, 50, 50, 50, 50, 60, 70, 80, 90];
    await meter(
      house.houseId,
      kwh.map((k, i) => [`2025-10-${String(i + 1).padStart(2, '0')}`, 12, k]),
    );
    const farm = await t.signIn('farm');
    const month = await api<PowerMonth>(
      farm,
      'GET',
      `/production/power/month?houseId=${house.houseId}&month=2025-10`,
    );
    expect(month.status).toBe(200);
    expect(month.data.kwh).toBeCloseTo(930, 6);
    // 1,000 × 0.3 kg + 2,000 × 0.06 kg = 420 kg, gained on the 2nd–3rd and the 11th–12th:
    // (110 + 120 + 70 + 80) = 380 kWh ÷ 420 kg = 0.904762 (the month's 930 kWh gave 2.214).
    expect(month.data.producedKg).toBeCloseTo(420, 6);
    expect(month.data.producedKwh).toBeCloseTo(380, 6);
    expect(month.data.kwhPerKg).toBeCloseTo(0.904762, 6);
    // The 7 recorded days' 630 kWh over (3 × 1,000 + 4 × 2,000) ÷ 7 birds = 0.400909.
    expect(month.data.kwhPerBird).toBeCloseTo(0.400909, 6);
    expect(month.data.runningDay).toBeNull();
  });

  it('today: the running hour is named and kept out of peak and average; no data is no figure', async () => {
    const house = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 6');
    // 20 and 30 kWh in the finished hours 07:00 and 08:00; 5 so far at 09:30.
    await meter(house.houseId, [
      ['2025-08-15', 7, 20],
      ['2025-08-15', 8, 30],
      ['2025-08-15', 9, 5],
    ]);
    const now = new Date(Date.parse('2025-08-15T09:30:00Z') - SHANGHAI_OFFSET_MS);
    const zone = 'Asia/Shanghai';
    const day = await readPowerDay(t.database, [house.houseId], '2025-08-15', zone, TARIFF, now);
    expect(day).toMatchObject({ runningHour: 9, kwh: 55, peakKw: 30, averageKw: 25 });
    // The same day read later is finished: 55 kWh over 3 hours.
    const later = await readPowerDay(
      t.database,
      [house.houseId],
      '2025-08-15',
      zone,
      null,
      new Date(),
    );
    expect(later.runningHour).toBeNull();
    expect(later.averageKw).toBeCloseTo(55 / 3, 9);
    const month = await readPowerMonth(
      t.database,
      [house.houseId],
      '2025-08',
      zone,
      TARIFF,
      [],
      now,
    );
    expect(month).toMatchObject({ runningDay: '2025-08-15', kwh: 55, peakKw: 30, averageKw: 25 });
    // A day and a month without any reading: dashes, not 0.0 kW and 0.00 of money.
    const empty = await readPowerDay(t.database, [house.houseId], '2025-08-14', zone, TARIFF, now);
    expect(empty).toMatchObject({ kwh: null, peakKw: null, averageKw: null, cost: null });
    const july = await readPowerMonth(
      t.database,
      [house.houseId],
      '2025-07',
      zone,
      TARIFF,
      [],
      now,
    );
    expect(july).toMatchObject({ kwh: null, peakKw: null, averageKw: null, cost: null });
  });
});
