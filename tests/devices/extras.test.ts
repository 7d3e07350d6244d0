import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtraTrend, Terminal } from '../../src/contract/devices';
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
});
