import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wallOpenAlarmsSchema } from '../../src/contract/wallAlarms';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

describe.each(testDatabaseTargets())('the wall’s open alarms on $name', (target) => {
  let t: TestApp;
  const get = async (username: string) => {
    const token = await t.signIn(username);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/wall/alarms',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    return wallOpenAlarmsSchema.parse(bodyOf(res).data);
  };
  /** An alarm raised `minutesAgo`, open or cleared. */
  const raise = async (
    house: { id: number; farm_id: number },
    cause: string,
    severity: string,
    minutesAgo: number,
    cleared = false,
  ) => {
    await t.database.query(
      `insert into alarms (house_id, farm_id, cause, subject, severity, state, value, limit_value,
         raised_at, cleared_at, cleared_by)
       values ($1, $2, $3, $4, $5, $6, 31.5, 30, now() - make_interval(mins => $7::int),
         case when $6 = 'cleared' then now() - make_interval(mins => $7::int - 1) end,
         case when $6 = 'cleared' then 'condition' end)`,
      [
        house.id,
        house.farm_id,
        cause,
        `s${minutesAgo}`,
        severity,
        cleared ? 'cleared' : 'active',
        minutesAgo,
      ],
    );
  };

  beforeAll(async () => {
    t = await createTestApp(target);
    await t.database.query(`delete from alarms`);
  });
  afterAll(() => t?.close());

  it('says which alarm was cleared last when none is open', async () => {
    const [house] = await t.database.query<{ id: number; farm_id: number }>(
      `select id, farm_id from houses order by id limit 1`,
    );
    expect(await get('admin')).toEqual({ alarms: [], total: 0, lastCleared: null });
    await raise(house!, 'temperatureHigh', 'major', 90, true);
    await raise(house!, 'humidityHigh', 'minor', 30, true);
    const empty = await get('admin');
    expect(empty.alarms).toEqual([]);
    expect(empty.lastCleared?.cause).toBe('humidityHigh');
    expect(empty.lastCleared?.houseName).toBeTruthy();
  });

  it('lists every open alarm of the scope worst first, with the total', async () => {
    const houses = await t.database.query<{ id: number; farm_id: number }>(
      `select id, farm_id from houses order by id`,
    );
    const severities = ['minor', 'critical', 'major'];
    for (let i = 0; i < 20; i += 1)
      await raise(houses[i % houses.length]!, 'co2High', severities[i % 3]!, 10 + i, i < 5);
    const open = await get('admin');
    expect(open.total).toBe(15);
    expect(open.alarms).toHaveLength(15);
    const order = open.alarms.map((a) => `${a.severity}:${a.raisedAt}`);
    const ranks = open.alarms.map((a) => ['critical', 'major', 'minor'].indexOf(a.severity));
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    // Within a severity, the one open longest first.
    for (let i = 1; i < open.alarms.length; i += 1)
      if (ranks[i] === ranks[i - 1])
        expect(Date.parse(open.alarms[i]!.raisedAt)).toBeGreaterThanOrEqual(
          Date.parse(open.alarms[i - 1]!.raisedAt),
        );
    expect(new Set(order).size).toBe(15);
    expect(open.alarms[0]).toMatchObject({ severity: 'critical', value: 31.5, limit: 30 });
    expect(open.lastCleared).toBeNull();

    // A farm user sees the alarms of their farms only.
    const scoped = await get('farm');
    expect(scoped.total).toBeLessThan(15);
    const [{ farm_id: farmOfUser } = { farm_id: -1 }] = await t.database.query<{ farm_id: number }>(
      `select distinct h.farm_id from houses h where h.id = any($1::int[])`,
      [scoped.alarms.map((a) => a.houseId)],
    );
    expect(scoped.alarms.every((a) => a.farmId === farmOfUser)).toBe(true);
  });

  it('answers a kiosk link with the open alarms of its chosen farms only', async () => {
    const [farm] = await t.database.query<{ id: number }>(
      `select farm_id as id from alarms where state <> 'cleared' group by farm_id order by farm_id limit 1`,
    );
    const admin = await t.signIn('admin');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/wall/kiosk/create',
      headers: { authorization: `Bearer ${admin}` },
      payload: { name: 'Control room', allFarms: false, farmIds: [farm!.id] },
    });
    expect(created.statusCode).toBe(200);
    const { token } = bodyOf<{ token: string }>(created).data;
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/wall/alarms',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    const open = wallOpenAlarmsSchema.parse(bodyOf(res).data);
    expect(open.alarms.length).toBeGreaterThan(0);
    expect(open.alarms.every((a) => a.farmId === farm!.id)).toBe(true);
    expect(open.total).toBe(open.alarms.length);
  });

  it('refuses a request that is neither signed in nor a kiosk link', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/wall/alarms' });
    expect(anonymous.statusCode).toBe(401);
  });
});
