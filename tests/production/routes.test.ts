import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FarmDay, FlockKpis, HouseMonth } from '../../src/contract/production';
import { addDays } from '../../server/production/kpi';
import { localDay } from '../../server/production/records';
import { taskReminders } from '../../server/production/reminders';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

const day = (houseId: number, d: string, values: Record<string, unknown> = {}) => ({
  houseId,
  day: d,
  deathsAm: 3,
  deathsPm: 2,
  cullsAm: 1,
  cullsPm: 0,
  feedKg: 1200,
  ...values,
});

describe.each(testDatabaseTargets())('Daily Business routes on $name', (target) => {
  let t: TestApp;
  let today: string;
  const houses: Record<string, number> = {};
  let farmId = 0;
  beforeAll(async () => {
    t = await createTestApp(target);
    today = localDay(new Date(), t.config.timeZone);
    const rows = await t.database.query<{ id: number; name: string; farm_id: number }>(
      `select h.id, h.name, h.farm_id from houses h join farms f on f.id = h.farm_id
       where f.name = 'Weifang Broiler Farm' order by h.id`,
    );
    for (const r of rows) houses[r.name] = r.id;
    farmId = rows[0]!.farm_id;
  }, 180_000);
  afterAll(() => t?.close());
  /** The API as a signed-in user (the day's save logs one row per house, so not admin's one-row client). */
  const api = async <T = unknown>(
    token: string,
    method: 'GET' | 'POST',
    url: string,
    body?: object,
    locale = 'en',
  ) => {
    const res = await t.app.inject({
      method,
      url: `/api${url}`,
      headers: { authorization: `Bearer ${token}`, locale },
      ...(body === undefined ? {} : { payload: body }),
    });
    const envelope = bodyOf<T>(res);
    return { status: res.statusCode, msg: envelope.msg, data: envelope.data };
  };

  /** Replaces the house's open flock with one placed `daysAgo` days ago at day 1 of age. */
  const placeFlock = async (
    houseId: number,
    daysAgo: number,
    headCount = 10_000,
    breed = 'BROILER-STD',
  ) => {
    await t.database.query(
      `update flocks set closed_on = $2::date where house_id = $1 and closed_on is null`,
      [houseId, addDays(today, -daysAgo - 1)],
    );
    const [row] = await t.database.query<{ id: number }>(
      `insert into flocks (house_id, breed_id, placed_on, age_at_placement, head_count)
       values ($1, (select id from breeds where code = $4), $2, 1, $3) returning id`,
      [houseId, addDays(today, -daysAgo), headCount, breed],
    );
    return row!.id;
  };

  it('the farm grid: a day entered for three houses is read back and written to the operation log', async () => {
    const farm = await t.signIn('farm');
    const [h1, h2, h3] = [houses['House 1']!, houses['House 2']!, houses['House 3']!];
    const saved = await api(farm, 'POST', '/production/day', {
      records: [
        day(h1, today, { waterL: 2400, bodyWeightG: 820 }),
        day(h2, today, { deathsAm: 5 }),
        day(h3, today, { note: 'fan 3 noisy' }),
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.msg).toBe('Daily data saved.');
    const grid = await api<FarmDay>(farm, 'GET', `/production/day?farmId=${farmId}&day=${today}`);
    const byHouse = new Map(grid.data.rows.map((r) => [r.houseId, r]));
    expect(byHouse.get(h1)?.record).toMatchObject({ deathsAm: 3, waterL: 2400, bodyWeightG: 820 });
    expect(byHouse.get(h2)?.record).toMatchObject({ deathsAm: 5, waterL: null });
    expect(byHouse.get(h3)?.record).toMatchObject({ note: 'fan 3 noisy' });
    expect(byHouse.get(houses['House 4']!)?.record).toBeNull();
    const [logged] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from operation_logs where function = 'production.day'`,
    );
    expect(logged!.n).toBeGreaterThanOrEqual(3);
  });

  it("an empty required value is refused in the user's language", async () => {
    const farm = await t.signIn('farm');
    const h1 = houses['House 1']!;
    const empty = { ...day(h1, today), feedKg: null };
    const en = await api(farm, 'POST', '/production/day', { records: [empty] });
    expect(en.status).toBe(400);
    expect(en.msg).toBe('Value to send must not be empty.');
    const { deathsPm: _omitted, ...missing } = day(h1, today);
    const zh = await api(farm, 'POST', '/production/day', { records: [missing] }, 'zh');
    expect(zh.status).toBe(400);
    expect(zh.msg).toBe('发送的值不能为空。');
    const negative = await api(farm, 'POST', '/production/day', {
      records: [day(h1, today, { deathsAm: -1 })],
    });
    expect(negative.status).toBe(400);
    const future = await api(farm, 'POST', '/production/day', {
      records: [day(h1, addDays(today, 1))],
    });
    expect(future.status).toBe(400);
  });

  it('a house manager enters data only for its houses; a user without canOperate only reads', async () => {
    const shack = await t.signIn('shack');
    const grid = await api<FarmDay>(shack, 'GET', `/production/day?farmId=${farmId}&day=${today}`);
    expect(grid.data.rows.map((r) => r.houseName)).toEqual(['House 1', 'House 2', 'House 3']);
    const own = await api(shack, 'POST', '/production/day', {
      records: [day(houses['House 2']!, today)],
    });
    expect(own.status).toBe(200);
    const other = await api(shack, 'POST', '/production/day', {
      records: [day(houses['House 4']!, today)],
    });
    expect(other.status).toBe(404);
    const month = await api(
      shack,
      'GET',
      `/production/month?houseId=${houses['House 4']}&month=${today.slice(0, 7)}`,
    );
    expect(month.status).toBe(404);

    await t.database.query(`update users set can_operate = false where username = 'area'`);
    const area = await t.signIn('area');
    const refused = await api(area, 'POST', '/production/day', {
      records: [day(houses['House 1']!, today)],
    });
    expect(refused.status).toBe(403);
    const read = await api<FarmDay>(area, 'GET', `/production/day?farmId=${farmId}&day=${today}`);
    expect(read.status).toBe(200);
    expect(read.data.rows.length).toBeGreaterThan(3);
  });

  it('the month marks the days still missing; the KPIs show a missing day as missing, not zero', async () => {
    const farm = await t.signIn('farm');
    const houseId = houses['House 5']!;
    const flockId = await placeFlock(houseId, 3, 10_000);
    await api(farm, 'POST', '/production/day', {
      records: [
        day(houseId, addDays(today, -3), { deathsAm: 10, deathsPm: 10, cullsAm: 0, feedKg: 200 }),
        // Two days ago is never entered.
        day(houseId, addDays(today, -1), {
          deathsAm: 5,
          deathsPm: 5,
          cullsAm: 0,
          feedKg: 300,
          bodyWeightG: 100,
        }),
      ],
    });
    const month = await api<HouseMonth>(
      farm,
      'GET',
      `/production/month?houseId=${houseId}&month=${addDays(today, -2).slice(0, 7)}`,
    );
    const twoDaysAgo = month.data.days.find((d) => d.day === addDays(today, -2));
    expect(twoDaysAgo).toMatchObject({ flockId, missing: true, record: null, ageDay: 2 });
    expect(month.data.days.find((d) => d.day === addDays(today, -1))).toMatchObject({
      missing: false,
    });

    const kpi = await api<FlockKpis>(farm, 'GET', `/production/kpi?flockId=${flockId}`);
    expect(kpi.status).toBe(200);
    const [d1, d2, d3] = kpi.data.days;
    expect(d1).toMatchObject({ ageDay: 1, recorded: true, alive: 9980 });
    expect(d2).toMatchObject({ ageDay: 2, recorded: false, alive: null, feedPerBirdG: null });
    // 500 kg of feed for 9,970 birds of 100 g = 997 kg: FCR 0.5015.
    expect(d3).toMatchObject({ ageDay: 3, alive: 9970 });
    expect(d3!.fcr).toBeCloseTo(500 / 997, 6);
    expect(d3!.standard.bodyWeightG).not.toBeNull();
    expect(kpi.data.toDate).toMatchObject({ recordedDays: 2, missingDays: 2, alive: 9970 });
    // Outside the scope, a flock answers like one that does not exist.
    const shack = await t.signIn('shack');
    expect((await api(shack, 'GET', `/production/kpi?flockId=${flockId}`)).status).toBe(404);
  });

  it("a layer flock's feed is per kg of eggs over its laying days, on the page and in its file", async () => {
    const farm = await t.signIn('farm');
    const houseId = houses['House 8']!;
    const flockId = await placeFlock(houseId, 2, 2000, 'LAYER-BROWN');
    const saved = await api(farm, 'POST', '/production/day', {
      records: [
        // Not laying yet, weighed: a hen's weight gave the old "FCR" 200 ÷ (2,000 × 1.8 kg).
        day(houseId, addDays(today, -2), {
          deathsAm: 0,
          deathsPm: 0,
          cullsAm: 0,
          feedKg: 200,
          bodyWeightG: 1800,
        }),
        day(houseId, addDays(today, -1), {
          deathsAm: 0,
          deathsPm: 0,
          cullsAm: 0,
          feedKg: 220,
          eggs: 1800,
          eggKg: 108,
        }),
        day(houseId, today, {
          deathsAm: 0,
          deathsPm: 0,
          cullsAm: 0,
          feedKg: 218,
          eggs: 1782,
          eggKg: 106.92,
          bodyWeightG: 1850,
        }),
      ],
    });
    expect(saved.status).toBe(200);
    const kpi = await api<FlockKpis>(farm, 'GET', `/production/kpi?flockId=${flockId}`);
    expect(kpi.data.flock.layer).toBe(true);
    const [rearing, first, second] = kpi.data.days;
    expect(rearing).toMatchObject({ fcr: null, feedPerEggKg: null });
    // 220 ÷ 108 = 2.037037; 220 ÷ 150 dozen = 1.466667; 218 ÷ 106.92 = 2.038908.
    expect(first!.feedPerEggKg).toBeCloseTo(2.037037, 6);
    expect(first!.feedPerDozenKg).toBeCloseTo(1.466667, 6);
    expect(second!.feedPerEggKg).toBeCloseTo(2.038908, 6);
    expect(second!.fcr).toBeNull();
    // To date: 438 kg ÷ 214.92 kg = 2.037968, not the 5-ish of feed over the hens' weight.
    expect(kpi.data.toDate.feedPerEggKg).toBeCloseTo(2.037968, 6);
    expect(kpi.data.toDate.fcr).toBeNull();
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/production/kpi/export?flockId=${flockId}&format=csv`,
      headers: { authorization: `Bearer ${farm}`, locale: 'en' },
    });
    const header = csv.body.replace(/^\uFEFF/, '').split(/\r?\n/)[0]!;
    expect(header).toContain('Feed per kg of eggs');
    expect(header).not.toContain('FCR');
  });

  it("an immune reminder for day 14 appears on the flock's day 14, not before, until it is done", async () => {
    const houseId = houses['House 6']!;
    // Placed at day 1 of age: day 14 of age is 13 days after placement.
    const flockId = await placeFlock(houseId, 0);
    const [placed] = await t.database.query<{ placed: string }>(
      `select placed_on::text as placed from flocks where id = $1`,
      [flockId],
    );
    const noonOf = (d: string) => new Date(`${d}T04:00:00Z`);
    const read = (d: string) =>
      taskReminders.read({
        database: t.database,
        scope: { all: true },
        now: noonOf(d),
        timeZone: t.config.timeZone,
        houseId,
      });
    const gumboro = (rows: Awaited<ReturnType<typeof read>>) =>
      rows.filter((r) => r.params.ageDay === 14);
    expect(gumboro(await read(addDays(placed!.placed, 12)))).toHaveLength(0);
    const onTheDay = gumboro(await read(addDays(placed!.placed, 13)));
    expect(onTheDay).toHaveLength(1);
    expect(onTheDay[0]).toMatchObject({
      kind: 'task',
      text: 'production.reminder.immune',
      overdue: false,
      params: { content: 'Gumboro (IBD), drinking water', flockId },
    });
    // Not done the next day: still there, overdue.
    expect(gumboro(await read(addDays(placed!.placed, 14)))[0]?.overdue).toBe(true);

    const farm = await t.signIn('farm');
    const done = await api(farm, 'POST', '/production/task', {
      flockId,
      ageDay: 14,
      content: 'Gumboro (IBD), drinking water',
      state: 'done',
      note: 'all houses',
    });
    expect(done.status).toBe(200);
    expect(gumboro(await read(addDays(placed!.placed, 13)))).toHaveLength(0);
    const unknown = await api(farm, 'POST', '/production/task', {
      flockId,
      ageDay: 15,
      content: 'nothing',
      state: 'skipped',
    });
    expect(unknown.status).toBe(404);
  });

  it('a 30 % water drop day over day raises the water alarm once, and a normal day clears it', async () => {
    const farm = await t.signIn('farm');
    const houseId = houses['House 7']!;
    await placeFlock(houseId, 5);
    const open = async () =>
      t.database.query<{ id: number; value: number; text: string }>(
        `select id, value, text from alarms where house_id = $1 and cause = 'waterDrop' and state <> 'cleared'`,
        [houseId],
      );
    const save = (daysAgo: number, waterL: number) =>
      api(farm, 'POST', '/production/day', {
        records: [day(houseId, addDays(today, -daysAgo), { waterL, feedKg: 500 })],
      });
    await save(3, 1000);
    expect(await open()).toHaveLength(0);
    await save(2, 700);
    const raised = await open();
    expect(raised).toHaveLength(1);
    expect(Number(raised[0]!.value)).toBeCloseTo(30, 5);
    expect(raised[0]!.text).toContain('1000 → 700 L');
    // Saving the same day again does not raise a second alarm.
    await save(2, 700);
    expect(await open()).toHaveLength(1);
    await save(1, 760);
    expect(await open()).toHaveLength(0);
    const [all] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from alarms where house_id = $1 and cause = 'waterDrop'`,
      [houseId],
    );
    expect(all!.n).toBe(1);
  });
});
