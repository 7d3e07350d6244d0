import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtraTrend, Terminal } from '../../src/contract/devices';
import { rollUp } from '../../server/ingest/rollup';
import type { Comparison } from '../../src/contract/houses';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { caller, houseNamed, terminal } from './helpers';

describe.each(testDatabaseTargets())('extra parameters through ingest on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  }, 180_000);
  afterAll(() => t?.close());

  it('accepts readings of a device’s extra parameters, stores and rolls them up, refuses and counts out-of-range ones', async () => {
    const farm = caller(t, await t.signIn('farm'));
    const { houseId, networkId } = await houseNamed(t, 'Weifang Broiler Farm', 'House 1');
    // Before the device exists its parameter is unknown to the house.
    const early = await t.ingest.submitTelemetry(networkId, {
      ts: Date.now() - 60_000,
      metrics: { dust: 3 },
    });
    expect(early).toMatchObject({ status: 'rejected', reason: 'unknownMetric' });

    const created = await farm<Terminal>('POST', '/terminal/create', terminal(houseId));
    expect(created.status).toBe(200);
    const now = Date.now();
    const ok1 = await t.ingest.submitTelemetry(networkId, {
      ts: now - 2000,
      metrics: { temperature: 24, dust: 12.5, scale_1: 230 },
    });
    expect(ok1.status).toBe('stored');
    await t.ingest.submitTelemetry(networkId, { ts: now - 1000, metrics: { dust: 14.5 } });
    // A resend is stored once and adds nothing to the hour.
    await t.ingest.submitTelemetry(networkId, { ts: now - 1000, metrics: { dust: 14.5 } });
    const before = t.ingest.counters.rejected.outOfRange;
    const bad = await t.ingest.submitTelemetry(networkId, { ts: now, metrics: { dust: 80 } });
    expect(bad).toMatchObject({ status: 'rejected', reason: 'outOfRange' });
    expect(t.ingest.counters.rejected.outOfRange).toBe(before + 1);
    // Another house does not know this house's parameters.
    const other = await houseNamed(t, 'Weifang Broiler Farm', 'House 2');
    const elsewhere = await t.ingest.submitTelemetry(other.networkId, {
      ts: now,
      metrics: { dust: 5 },
    });
    expect(elsewhere).toMatchObject({ status: 'rejected', reason: 'unknownMetric' });

    const [hour] = await t.database.query<{ n: number; sum: number; max: number }>(
      `select sum(n)::int as n, sum(sum)::float8 as sum, max(max)::float8 as max from telemetry_extra_hourly where house_id = $1 and code = 'dust'`,
      [houseId],
    );
    expect(hour).toEqual({ n: 2, sum: 27, max: 14.5 });
    const [state] = await t.database.query<{ metrics: Record<string, number> | string }>(
      'select metrics from house_state where house_id = $1',
      [houseId],
    );
    const metrics =
      typeof state!.metrics === 'string' ? JSON.parse(state!.metrics) : state!.metrics;
    expect(metrics).toMatchObject({ dust: 14.5, scale_1: 230, temperature: 24 });

    const trend = await farm<ExtraTrend>(
      'GET',
      `/device/extraTrend?houseId=${houseId}&from=${now - 3_600_000}&to=${now + 1000}`,
    );
    const dust = trend.data.series.find((s) => s.code === 'dust');
    expect(dust).toMatchObject({ name: 'Dust', unit: 'mg/m³', deviceName: 'Dust sensor' });
    expect(dust!.points.map((p) => p.v)).toEqual([12.5, 14.5]);
  });

  it('an extra parameter is rolled up by day and offered in House Compared and its export like a catalogue metric', async () => {
    const farm = caller(t, await t.signIn('farm'));
    const a = await houseNamed(t, 'Weifang Broiler Farm', 'House 2');
    const b = await houseNamed(t, 'Weifang Broiler Farm', 'House 3');
    for (const h of [a, b])
      expect((await farm('POST', '/terminal/create', terminal(h.houseId))).status).toBe(200);
    // Two hours of yesterday (local day), dust at 10 and 20 in house a, 4 in house b.
    const tz = t.config.timeZone;
    const day = new Date(Date.now() - 86_400_000);
    const hourA = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 4);
    for (const [h, ts, dust] of [
      [a, hourA + 60_000, 10],
      [a, hourA + 3_600_000 + 60_000, 20],
      [b, hourA + 120_000, 4],
    ] as const) {
      const r = await t.ingest.submitTelemetry(h.networkId, { ts, metrics: { dust } });
      expect(r.status).toBe('stored');
    }
    await t.ingest.drain();
    await rollUp(t.database, tz);
    const [daily] = await t.database.query<{ n: number; sum: number }>(
      `select n, sum::float8 as sum from telemetry_extra_daily where house_id = $1 and code = 'dust'`,
      [a.houseId],
    );
    expect(daily).toEqual({ n: 2, sum: 30 });

    const window = `from=${hourA - 86_400_000}&to=${hourA + 86_400_000}`;
    const ids = `houseIds=${a.houseId},${b.houseId}&metric=dust`;
    const hourly = await farm<Comparison>(
      'GET',
      `/houses/compare?${ids}&${window}&granularity=hour`,
    );
    expect(hourly.status).toBe(200);
    expect(hourly.data.houses.map((h) => h.values)).toEqual([[10, 20], [4]]);
    const byDay = await farm<Comparison>('GET', `/houses/compare?${ids}&${window}&granularity=day`);
    expect(byDay.data.houses.map((h) => h.values)).toEqual([[15], [4]]);

    const token = await t.signIn('farm');
    const csv = await t.app.inject({
      url: `/api/houses/compare/export?${ids}&${window}&granularity=hour&format=csv`,
      headers: { authorization: token, locale: 'en' },
    });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines[0]).toContain('House 2');
    expect(lines.slice(1).map((l) => l.split(',').slice(1).join(','))).toEqual(['10,4', '20,']);

    // A code no device of these houses has is still refused.
    const unknown = await farm(
      'GET',
      `/houses/compare?houseIds=${a.houseId}&metric=nope&${window}&granularity=hour`,
    );
    expect(unknown.status).toBe(400);

    // The monitor's trend export of one house carries its extra parameters beside the
    // catalogue's, each with average, lowest and highest, one row per hour any of them has.
    const trendUrl = (rest: string, locale = 'en') =>
      t.app.inject({
        url: `/api/houses/trend/export?houseId=${a.houseId}&${window}&granularity=hour&${rest}`,
        headers: { authorization: token, locale },
      });
    const withExtras = await trendUrl('metrics=temperature&extras=all&format=csv');
    expect(withExtras.statusCode).toBe(200);
    const rows = withExtras.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/)
      .map((l) => l.split(','));
    const header = rows[0]!;
    const dustAvg = header.indexOf('Dust (mg/m³) avg');
    expect(header).toEqual(
      expect.arrayContaining([
        'Time (Asia/Shanghai UTC+08:00)',
        'Indoor temperature (℃) avg',
        'Dust (mg/m³) max',
        'Scale (kg) min',
      ]),
    );
    expect(dustAvg).toBeGreaterThan(0);
    expect(rows.slice(1).map((r) => r[dustAvg])).toEqual(['10', '20']);
    // Named explicitly, in Chinese, as a workbook.
    const zh = await trendUrl('metrics=dust&format=xlsx', 'zh');
    expect(zh.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(zh.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      '时间 (Asia/Shanghai UTC+08:00)',
      'Dust (mg/m³) 平均',
      'Dust (mg/m³) 最低',
      'Dust (mg/m³) 最高',
    ]);
    expect([sheet.getCell('B2').value, sheet.getCell('B3').value]).toEqual([10, 20]);
    // Another house's parameter, or none at all, is refused with a message.
    const stranger = await t.app.inject({
      url: `/api/houses/trend/export?houseId=${a.houseId}&metrics=nope&${window}&granularity=hour&format=csv`,
      headers: { authorization: token, locale: 'en' },
    });
    expect(stranger.statusCode).toBe(400);
    expect(JSON.parse(stranger.body).msg).toMatch(/nope/);
  });
});
