import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wallProductionSchema } from '../../src/contract/wallProduction';
import { scopeOf } from '../../server/auth/scope';
import { findSession } from '../../server/auth/sessions';
import { addDays } from '../../server/production/kpi';
import { localDay } from '../../server/production/records';
import { readWallProduction } from '../../server/wall/wallProduction';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

const TZ = 'Asia/Shanghai';
/** An hour of the installation's day `day`, as an instant. */
const at = (day: string, hour: number, minute = 0) =>
  new Date(`${day}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00+08:00`);

interface Flock {
  id: number;
  house_id: number;
  org_id: number;
  head_count: number;
  breed_id: number;
  age: number;
}

describe.each(testDatabaseTargets())('the wall’s production and power on $name', (target) => {
  let t: TestApp;
  const today = localDay(new Date(), TZ);
  const yesterday = addDays(today, -1);
  // 10:30 on the installation's clock: hours 0–10 of today are "so far".
  const now = at(today, 10, 30);
  let mine: Flock;
  let other: Flock;
  let farmToken: string;

  const record = (flock: Flock, day: string, deaths: number, culls: number, feedKg: number) =>
    t.database.query(
      `insert into daily_records (flock_id, day, deaths_am, deaths_pm, culls_am, culls_pm, feed_kg)
       values ($1, $2, $3, 0, $4, 0, $5)`,
      [flock.id, day, deaths, culls, feedKg],
    );
  const metered = (houseId: number, day: string, hours: number[], kwh: number, waterL: number) =>
    t.database.query(
      `insert into telemetry_hourly (house_id, bucket, readings, power_sum, power_n, water_sum, water_n)
       select $1, b, 60, $3, 60, $4, 60 from unnest($2::timestamptz[]) b`,
      [houseId, hours.map((h) => at(day, h)), kwh, waterL],
    );
  const figuresOf = async (username: string) => {
    const session = await findSession(t.database.db, await t.signIn(username));
    return readWallProduction(t.database, await scopeOf(t.database.db, session!.user), TZ, now);
  };

  beforeAll(async () => {
    t = await createTestApp(target);
    farmToken = await t.signIn('farm');
    await t.database.query(`delete from daily_records`);
    await t.database.query(`delete from telemetry_hourly`);
    await t.database.query(`delete from tariffs`);
    const session = await findSession(t.database.db, farmToken);
    const scope = await scopeOf(t.database.db, session!.user);
    const flocks = await t.database.query<Flock>(
      `select fl.id, fl.house_id, f.org_id, fl.head_count, fl.breed_id,
         ($1::date - fl.placed_on + fl.age_at_placement)::int as age
       from flocks fl join houses h on h.id = fl.house_id join farms f on f.id = h.farm_id
       where fl.closed_on is null and fl.breed_id is not null and fl.placed_on < $1::date - 3
       order by fl.id`,
      [today],
    );
    if (scope.all) throw new Error('the farm user sees everything');
    mine = flocks.find((f) => scope.houseIds.has(f.house_id))!;
    // A house of another organisation, with a flock of the same breed placed 20 days ago.
    const [org] = await t.database.query<{ id: number }>(
      `insert into organizations (name, code) values ('Other company', 'OTHER') returning id`,
    );
    const [farm] = await t.database.query<{ id: number }>(
      `insert into farms (org_id, parent_id, level, name) values ($1, null, 'farm', 'Other farm') returning id`,
      [org!.id],
    );
    const [house] = await t.database.query<{ id: number }>(
      `insert into houses (farm_id, name, sort) values ($1, 'Other house', 1) returning id`,
      [farm!.id],
    );
    const [flock] = await t.database.query<{ id: number }>(
      `insert into flocks (house_id, breed_id, placed_on, head_count)
       values ($1, $2, $3::date - 20, 10000) returning id`,
      [house!.id, mine.breed_id, today],
    );
    other = {
      id: flock!.id,
      house_id: house!.id,
      org_id: org!.id,
      head_count: 10000,
      breed_id: mine.breed_id,
      age: 21,
    };
  });
  afterAll(() => t?.close());

  it('gives today’s mortality of the houses that entered it, against their breed standard', async () => {
    await record(mine, addDays(today, -3), 100, 0, 300);
    await record(mine, addDays(today, -2), 8, 2, 400);
    await record(mine, yesterday, 6, 4, 500);
    await record(mine, today, 20, 5, 0);
    await record(other, yesterday, 1, 0, 250);
    const f = await figuresOf('admin');
    const alive = mine.head_count - 120;
    expect(f.day).toBe(today);
    expect(f.hour).toBe(10);
    // The other house has not entered today: it is neither a house without deaths nor in the rate.
    expect(f.mortality.today).toMatchObject({ losses: 25, alive, enteredHouses: 1 });
    expect(f.mortality.today.flockHouses).toBeGreaterThan(1);
    expect(f.mortality.today.pct).toBeCloseTo((25 / alive) * 100, 6);
    // The breed's survival curve from one day of age to the next.
    const [before, after] = await t.database.query<{ s: number }>(
      `select survival_rate as s from breed_targets where breed_id = $1 and age_day = any($2::int[])
       order by age_day`,
      [mine.breed_id, [mine.age - 1, mine.age]],
    );
    if (before && after)
      expect(f.mortality.today.standardPct).toBeCloseTo((1 - after.s / before.s) * 100, 6);
    else expect(f.mortality.today.standardPct).not.toBeNull();
    expect(f.mortality.yesterday).toMatchObject({ losses: 11, enteredHouses: 2 });
    // Feed is a whole day's entry: yesterday against the day before.
    expect(f.feedKg).toEqual({ yesterday: 750, dayBefore: 400, houses: 2 });
  });

  it('compares metered water and electricity with yesterday up to the same hour, and costs today by the tariff', async () => {
    const all = Array.from({ length: 24 }, (_, h) => h);
    await metered(mine.house_id, today, all.slice(0, 11), 2, 100);
    await metered(mine.house_id, yesterday, all, 3, 120);
    // Valley before 08:00 at 0.3, flat after at 0.5.
    await t.database.query(
      `insert into tariffs (org_id, hours, prices, currency) values ($1, $2::jsonb, $3::jsonb, 'CNY')`,
      [
        mine.org_id,
        JSON.stringify(all.map((h) => (h < 8 ? 'valley' : 'flat'))),
        JSON.stringify({ peak: 0.8, flat: 0.5, valley: 0.3 }),
      ],
    );
    const farm = await figuresOf('farm');
    expect(farm.energyKwh).toEqual({ today: 22, yesterday: 33 });
    expect(farm.waterL).toEqual({ today: 1100, yesterday: 1320 });
    expect(farm.cost?.currency).toBe('CNY');
    expect(farm.cost?.amount).toBeCloseTo(8 * 2 * 0.3 + 3 * 2 * 0.5, 6);

    // Another organisation used electricity and has no tariff: no single amount can be given.
    await metered(other.house_id, today, [9], 5, 0);
    const admin = await figuresOf('admin');
    expect(admin.energyKwh.today).toBe(27);
    expect(admin.cost).toBeNull();
    // The farm user's figures hold none of the other house's.
    expect((await figuresOf('farm')).energyKwh.today).toBe(22);
  });

  it('answers a signed-in user with the figures of their scope, and refuses the anonymous', async () => {
    const get = (token?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/wall/production',
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    const res = await get(farmToken);
    expect(res.statusCode).toBe(200);
    const answer = wallProductionSchema.parse(bodyOf(res).data);
    expect(answer.mortality.yesterday.enteredHouses).toBe(1);
    expect((await get()).statusCode).toBe(401);
  });
});
