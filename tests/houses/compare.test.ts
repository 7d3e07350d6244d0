import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, bodyOf, type TestApp } from '../helpers/testApp';
import { testDatabaseTargets } from '../helpers/databases';
import { type Comparison } from '../../src/contract/houses';
import { safeText } from '../../server/houses/exportTable';

const HOUR_MS = 3_600_000;

describe.each(testDatabaseTargets())('house comparison and exports ($name)', (target) => {
  let t: TestApp;
  let admin: string;
  let houseIds: number[];
  const to = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  const from = to - 7 * 24 * HOUR_MS;

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = await t.signIn('admin');
    const rows = await t.database.query<{ id: number }>(
      'select id from houses order by id limit 8',
    );
    houseIds = rows.map((r) => r.id);
    // Three hourly buckets per house, straight into the rollup the comparison reads.
    for (const [i, id] of houseIds.entries())
      for (let h = 1; h <= 3; h++)
        await t.database.query(
          `insert into telemetry_hourly (house_id, bucket, readings, temperature_sum, temperature_n, temperature_min, temperature_max)
           values ($1, $2, 2, $3, 2, $4, $4)`,
          [id, new Date(to - h * HOUR_MS), 2 * (20 + i + h / 10), 20 + i + h / 10],
        );
  });
  afterAll(() => t?.close());

  const get = (url: string, token: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, locale: 'en' },
    });
  const compareUrl = (ids: number[], extra = '') =>
    `/api/houses/compare?houseIds=${ids.join(',')}&metric=temperature&from=${from}&to=${to}&granularity=hour${extra}`;

  it('compares six houses from the hourly rollups', async () => {
    const res = await get(compareUrl(houseIds.slice(0, 6)), admin);
    expect(res.statusCode).toBe(200);
    const data = bodyOf<Comparison>(res).data;
    expect(data.houses).toHaveLength(6);
    expect(data.houses[0]!.times).toHaveLength(3);
    expect(data.houses[1]!.values[2]).toBeCloseTo(21.1);
  });

  it('refuses a seventh house and none', async () => {
    const seven = await get(compareUrl(houseIds.slice(0, 7)), admin);
    expect(seven.statusCode).toBe(400);
    expect(bodyOf(seven).msg).toBe('At most 6 houses can be compared.');
    const none = await get(compareUrl([]), admin);
    expect(none.statusCode).toBe(400);
  });

  it('refuses a window of too many points', async () => {
    const res = await get(
      `/api/houses/compare?houseIds=${houseIds[0]}&metric=temperature&from=${to - 90 * 24 * HOUR_MS}&to=${to}&granularity=minute`,
      admin,
    );
    expect(res.statusCode).toBe(422);
  });

  it('exports the chart points as CSV rows, and XLSX', async () => {
    const ids = houseIds.slice(0, 2);
    const chart = bodyOf<Comparison>(await get(compareUrl(ids), admin)).data;
    const res = await get(
      compareUrl(ids, '').replace('/compare?', '/compare/export?') + '&format=csv',
      admin,
    );
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(1 + chart.houses[0]!.times.length);
    const values = lines.slice(1).map((l) => l.split(',').slice(1).map(Number));
    expect(values.map((v) => v[0])).toEqual(chart.houses[0]!.values);
    expect(values.map((v) => v[1])).toEqual(chart.houses[1]!.values);
    const xlsx = await get(
      compareUrl(ids).replace('/compare?', '/compare/export?') + '&format=xlsx',
      admin,
    );
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it("says 'No data has been found' for an empty export", async () => {
    const res = await get(
      `/api/houses/trend/export?houseId=${houseIds[0]}&metrics=co2&from=${from - 30 * 24 * HOUR_MS}&to=${from}&granularity=day&format=csv`,
      admin,
    );
    expect(res.statusCode).toBe(404);
    expect(bodyOf(res).msg).toBe('No data has been found');
  });

  it.each(['shack', 'farm'])(
    'a %s manager compares and exports only houses of its scope',
    async (user) => {
      const token = await t.signIn(user);
      const list = bodyOf<{ rows: Array<{ houseId: number }> }>(
        await get('/api/overview/listOverview/', token),
      ).data.rows;
      const mine = new Set(list.map((r) => r.houseId));
      const outside = (await t.database.query<{ id: number }>('select id from houses'))
        .map((r) => r.id)
        .find((id) => !mine.has(id))!;
      const inside = [...mine][0]!;
      expect((await get(compareUrl([inside]), token)).statusCode).toBe(200);
      expect((await get(compareUrl([inside, outside]), token)).statusCode).toBe(404);
      expect(
        (
          await get(
            compareUrl([outside]).replace('/compare?', '/compare/export?') + '&format=csv',
            token,
          )
        ).statusCode,
      ).toBe(404);
      expect(
        (
          await get(
            `/api/houses/trend/export?houseId=${outside}&metrics=temperature&from=${from}&to=${to}&granularity=hour&format=csv`,
            token,
          )
        ).statusCode,
      ).toBe(404);
    },
  );

  it('neutralises formula cells', () => {
    expect(safeText('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(safeText('@x')).toBe("'@x");
    expect(safeText('House 1')).toBe('House 1');
  });
});
