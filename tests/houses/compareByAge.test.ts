import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Comparison } from '../../src/contract/houses';
import { valueAt } from '../../server/houses/alignByAge';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

describe.each(testDatabaseTargets())('comparison aligned by flock age ($name)', (target) => {
  let t: TestApp;
  let admin: string;
  /** Two houses of one broiler flock each: one placed yesterday, one ten days ago. */
  let young: number;
  let old: number;
  let youngPlaced: number;
  let oldPlaced: number;
  const to = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  const from = to - 7 * DAY_MS;

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = await t.signIn('admin');
    const [broiler] = await t.database.query<{ id: number }>(
      `select id from breeds where code = 'BROILER-STD'`,
    );
    const houses = await t.database.query<{ id: number }>(
      'select id from houses order by id limit 2',
    );
    [young, old] = houses.map((h) => h.id) as [number, number];
    const tz = t.config.timeZone;
    for (const [houseId, daysAgo] of [
      [young, 1],
      [old, 10],
    ] as const)
      await t.database.query(
        `update flocks set breed_id = $1, age_at_placement = 1,
           placed_on = (now() at time zone $2)::date - $3::int
         where house_id = $4 and closed_on is null`,
        [broiler!.id, tz, daysAgo, houseId],
      );
    const [placed] = await t.database.query<{ young: string; old: string }>(
      `select (extract(epoch from (((now() at time zone $1)::date - 1)::timestamp at time zone $1)) * 1000)::bigint as young,
              (extract(epoch from (((now() at time zone $1)::date - 10)::timestamp at time zone $1)) * 1000)::bigint as old`,
      [tz],
    );
    youngPlaced = Number(placed!.young);
    oldPlaced = Number(placed!.old);
    // 72 hourly buckets per house: the young flock's first day and more lie before its placement.
    for (const houseId of [young, old])
      await t.database.query(
        `insert into telemetry_hourly (house_id, bucket, readings, temperature_sum, temperature_n, temperature_min, temperature_max)
         select $1, $2::timestamptz - g * interval '1 hour', 1, 25 + g / 100.0, 1, 25 + g / 100.0, 25 + g / 100.0
         from generate_series(1, 72) g`,
        [houseId, new Date(to)],
      );
  });
  afterAll(() => t?.close());

  const get = (url: string, token = admin) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, locale: 'en' },
    });
  const url = (ids: number[], metric = 'temperature', extra = '&align=age') =>
    `/api/houses/compare?houseIds=${ids.join(',')}&metric=${metric}&from=${from}&to=${to}&granularity=hour${extra}`;

  it("puts each house's points at its flock's day of age and leaves out the hours before placement", async () => {
    const res = await get(url([young, old]));
    expect(res.statusCode).toBe(200);
    const data = bodyOf<Comparison>(res).data;
    expect(data.align).toBe('age');
    const [y, o] = data.houses;
    // Young flock: only the hours since yesterday's local midnight, starting at day 1.
    expect(y!.times.every((time) => time >= youngPlaced)).toBe(true);
    expect(y!.times).toHaveLength((to - HOUR_MS - youngPlaced) / HOUR_MS + 1);
    expect(y!.ages![0]).toBe(1);
    expect(y!.ages).toHaveLength(y!.values.length);
    // Old flock: all 72 hours, each at 1 + days since placement (06:00 is a quarter day).
    expect(o!.times).toHaveLength(72);
    o!.times.forEach((time, i) =>
      expect(o!.ages![i]).toBeCloseTo(1 + (time - oldPlaced) / DAY_MS, 4),
    );
    // Same local hour, same fraction of a day: the two flocks line up on one axis.
    const fraction = (a: number) => (a % 1).toFixed(3);
    expect(y!.ages!.map(fraction)).toEqual(o!.ages!.slice(-y!.ages!.length).map(fraction));
  });

  it("draws the breed's standard over the ages shown, interpolated between configured days", async () => {
    const data = bodyOf<Comparison>(await get(url([young, old]))).data;
    expect(data.standards).toHaveLength(1);
    const standard = data.standards[0]!;
    expect(standard.breedName).toBe('Broiler (standard)');
    const maxAge = Math.max(...data.houses.flatMap((h) => h.ages!));
    expect(standard.ages[0]).toBe(1);
    expect(standard.ages.at(-1)).toBe(Math.ceil(maxAge));
    // The broiler guide: 33 ℃ at day 0, 29 ℃ at day 7.
    expect(standard.values[standard.ages.indexOf(7)]).toBe(29);
    expect(standard.values[0]).toBeCloseTo(33 - 4 / 7, 2);
    expect(valueAt([[0, 10] as const, [10, 20] as const], 15)).toBe(20);
  });

  it('has no standard for a metric the breed does not configure, and none without alignment', async () => {
    const nh3 = bodyOf<Comparison>(await get(url([young], 'nh3'))).data;
    expect(nh3.standards).toEqual([]);
    const plain = bodyOf<Comparison>(await get(url([young, old], 'temperature', ''))).data;
    expect(plain.align).toBe('time');
    expect(plain.houses[0]!.times).toHaveLength(72);
    expect(plain.houses[0]!.ages).toBeUndefined();
    expect(plain.standards).toEqual([]);
  });

  it('exports the aligned chart: one row per day of age, the standard as a column', async () => {
    const data = bodyOf<Comparison>(await get(url([young, old]))).data;
    const res = await get(
      url([young, old]).replace('/compare?', '/compare/export?') + '&format=csv',
    );
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]!.split(',')[0]).toBe('Day of age');
    expect(lines[0]!.split(',').at(-1)).toBe('Breed standard: Broiler (standard)');
    const rows = lines.slice(1).map((l) => l.split(','));
    const xs = new Set([...data.houses.flatMap((h) => h.ages!), ...data.standards[0]!.ages]);
    expect(rows.map((r) => Number(r[0]))).toEqual([...xs].sort((a, b) => a - b));
    const oldColumn = new Map(rows.map((r) => [Number(r[0]), r[2]]));
    data.houses[1]!.ages!.forEach((age, i) =>
      expect(Number(oldColumn.get(age))).toBe(data.houses[1]!.values[i]),
    );
  });

  it('a shack manager cannot align a house outside its scope', async () => {
    const token = await t.signIn('shack');
    const list = bodyOf<{ rows: Array<{ houseId: number }> }>(
      await get('/api/overview/listOverview/', token),
    ).data.rows;
    const mine = new Set(list.map((r) => r.houseId));
    const outside = [young, old].find((id) => !mine.has(id)) ?? (await outsideOf(mine));
    expect((await get(url([outside]), token)).statusCode).toBe(404);
    expect((await get(url([[...mine][0]!]), token)).statusCode).toBe(200);
  });

  async function outsideOf(mine: Set<number>): Promise<number> {
    const rows = await t.database.query<{ id: number }>('select id from houses');
    return rows.map((r) => r.id).find((id) => !mine.has(id))!;
  }
});
