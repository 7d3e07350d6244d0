import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlockCompare } from '../../src/contract/productionCompare';
import { addDays } from '../../server/production/kpi';
import { localDay } from '../../server/production/records';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

describe.each(testDatabaseTargets())('Flock comparison by day of age on $name', (target) => {
  let t: TestApp;
  let today: string;
  const houses: Record<string, number> = {};
  beforeAll(async () => {
    t = await createTestApp(target);
    today = localDay(new Date(), t.config.timeZone);
    const rows = await t.database.query<{ id: number; name: string }>(
      `select h.id, h.name from houses h join farms f on f.id = h.farm_id
       where f.name = 'Weifang Broiler Farm' order by h.id`,
    );
    for (const r of rows) houses[r.name] = r.id;
  }, 180_000);
  afterAll(() => t?.close());

  const get = async <T>(token: string, url: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api${url}`,
      headers: { authorization: `Bearer ${token}`, locale: 'en' },
    });
    return { status: res.statusCode, data: bodyOf<T>(res).data };
  };
  let oldFlock = 0;
  const flock = async (houseId: number, placedOn: string, closedOn: string | null) => {
    const [row] = await t.database.query<{ id: number }>(
      `insert into flocks (house_id, breed_id, placed_on, closed_on, age_at_placement, head_count)
       values ($1, (select id from breeds where code = 'BROILER-STD'), $2, $3, 1, 10000) returning id`,
      [houseId, placedOn, closedOn],
    );
    return row!.id;
  };
  const record = (flockId: number, day: string, bodyWeightG: number | null, deaths = 10) =>
    t.database.query(
      `insert into daily_records (flock_id, day, deaths_am, deaths_pm, culls_am, culls_pm, feed_kg, body_weight_g)
       values ($1, $2, $3, 0, 0, 0, 300, $4)`,
      [flockId, day, deaths, bodyWeightG],
    );

  it("aligns a flock with the house's previous flock by day of age, a missing day as missing", async () => {
    const h = houses['House 1']!;
    await t.database.query(`update flocks set closed_on = $2 where house_id = $1`, [
      h,
      addDays(today, -11),
    ]);
    // The previous flock, 70 days ago: day 1 and day 3 entered, day 2 missing.
    const before = addDays(today, -70);
    const old = await flock(h, before, addDays(today, -30));
    oldFlock = old;
    await record(old, before, 40);
    await record(old, addDays(before, 2), 80, 30);
    // The current flock, placed 2 days ago (day 3 of age today), every day entered.
    const placed = addDays(today, -2);
    const now = await flock(h, placed, null);
    await record(now, placed, 42);
    await record(now, addDays(placed, 1), 60);
    await record(now, today, 90);

    const farm = await t.signIn('farm');
    const { status, data } = await get<FlockCompare>(
      farm,
      `/production/compare?flockId=${now}&with=house`,
    );
    expect(status).toBe(200);
    expect(data.lines.map((l) => l.flock.id).slice(0, 2)).toEqual([now, old]);
    const [mine, previous] = data.lines;
    expect(mine!.ages.slice(0, 3)).toEqual([1, 2, 3]);
    expect(mine!.values.bodyWeightG.slice(0, 3)).toEqual([42, 60, 90]);
    expect(previous!.ages.slice(0, 3)).toEqual([1, 2, 3]);
    expect(previous!.values.bodyWeightG.slice(0, 3)).toEqual([40, null, 80]);
    // Day 2 of the old flock is missing, not a day without deaths: its mortality is null too.
    expect(previous!.values.mortalityPct[1]).toBeNull();
    expect(previous!.values.mortalityPct[2]).toBeCloseTo(0.4, 6);
    // The breed standard is drawn along the chosen flock's ages.
    expect(data.standard.ages.slice(0, 3)).toEqual([1, 2, 3]);
    expect(data.standard.values.bodyWeightG!.every((v) => v === null || v > 0)).toBe(true);
  });

  it("compares with the farm's other houses inside the caller's scope only", async () => {
    const h1 = houses['House 1']!;
    const [current] = await t.database.query<{ id: number }>(
      `select id from flocks where house_id = $1 and closed_on is null`,
      [h1],
    );
    const farm = await t.signIn('farm');
    const all = await get<FlockCompare>(
      farm,
      `/production/compare?flockId=${current!.id}&with=farm`,
    );
    expect(all.status).toBe(200);
    const others = all.data.lines.slice(1).map((l) => l.flock.houseName);
    expect(others.length).toBeGreaterThan(0);
    expect(others).not.toContain('House 1');
    expect(new Set(all.data.lines.map((l) => l.flock.farmName))).toEqual(
      new Set(['Weifang Broiler Farm']),
    );
    // The house manager was given Houses 1–3: House 4 and on never show.
    const shack = await t.signIn('shack');
    const mine = await get<FlockCompare>(
      shack,
      `/production/compare?flockId=${current!.id}&with=farm`,
    );
    expect(
      mine.data.lines
        .slice(1)
        .map((l) => l.flock.houseName)
        .sort(),
    ).toEqual(['House 2', 'House 3']);
    // A flock outside the scope answers like one that does not exist.
    const [far] = await t.database.query<{ id: number }>(
      `select f.id from flocks f where f.house_id = $1`,
      [houses['House 4']],
    );
    expect((await get(shack, `/production/compare?flockId=${far!.id}`)).status).toBe(404);
  });

  it("exports a flock's KPIs as XLSX: figures in cells, a missing day marked, headers in the reader's language", async () => {
    const farm = await t.signIn('farm');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/production/kpi/export?flockId=${oldFlock}&format=xlsx`,
      headers: { authorization: `Bearer ${farm}`, locale: 'zh' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 4)).toEqual(['日期', '日龄', '存栏数', '死淘率（%）']);
    const col = (name: string) => header.indexOf(name) + 1;
    // Day 1: 10 of 10,000 dead; day 2 missing; day 3: 30 more, 40 in all (0.4 %).
    const day1 = sheet.getRow(2);
    expect(day1.getCell(2).value).toBe(1);
    expect(day1.getCell(col('存栏数')).value).toBe(9990);
    expect(day1.getCell(col('体重（g）')).value).toBe(40);
    const day2 = sheet.getRow(3);
    expect(day2.getCell(col('录入')).value).toBe('缺失');
    expect(day2.getCell(col('存栏数')).value).toBeNull();
    expect(day2.getCell(col('死淘率（%）')).value).toBeNull();
    // The breed standard is there on a missing day too: it is the reference, not a measurement.
    expect(Number(day2.getCell(col('品种标准：体重（g）')).value)).toBeGreaterThan(0);
    const day3 = sheet.getRow(4);
    expect(day3.getCell(col('死淘率（%）')).value).toBe(0.4);
    expect(day3.getCell(col('存栏数')).value).toBe(9960);

    // Outside the scope: like a flock that does not exist.
    const [far] = await t.database.query<{ id: number }>(
      `select f.id from flocks f where f.house_id = $1`,
      [houses['House 4']],
    );
    const shack = await t.signIn('shack');
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/production/kpi/export?flockId=${far!.id}&format=xlsx`,
      headers: { authorization: `Bearer ${shack}` },
    });
    expect(refused.statusCode).toBe(404);
  });
});
