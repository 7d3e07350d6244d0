import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countOf, HOUR_MS, wallNightSchema, type WallNight } from '../../src/contract/wallNight';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

describe.each(testDatabaseTargets())('the wall’s night story on $name', (target) => {
  let t: TestApp;
  let house: { id: number; farm_id: number };
  const read = async (token: string, query = '', locale = 'en') =>
    t.app.inject({
      method: 'GET',
      url: `/api/wall/night${query}`,
      headers: { authorization: `Bearer ${token}`, locale },
    });
  const night = async (username: string, query = ''): Promise<WallNight> => {
    const res = await read(await t.signIn(username), query);
    expect(res.statusCode, res.body).toBe(200);
    return wallNightSchema.parse(bodyOf(res).data);
  };
  /** An alarm raised at `raised` (ms), cleared at `cleared` when given. */
  const alarm = async (
    at: { id: number; farm_id: number },
    severity: string,
    raised: number,
    cleared?: number,
  ) => {
    await t.database.query(
      `insert into alarms (house_id, farm_id, cause, subject, severity, state, raised_at,
         cleared_at, cleared_by)
       values ($1, $2, 'temperatureHigh', $3, $4, $5, to_timestamp($6::float8 / 1000),
         to_timestamp($7::float8 / 1000), $8)`,
      [
        at.id,
        at.farm_id,
        `night${raised}-${Math.random()}`,
        severity,
        cleared === undefined ? 'active' : 'cleared',
        raised,
        cleared ?? null,
        cleared === undefined ? null : 'condition',
      ],
    );
  };
  /** Which slot of today's (or, a day earlier, yesterday's) hours holds the instant `at`. */
  const slotOf = (n: WallNight, at: number) =>
    Math.floor((at - (Date.parse(n.hourStart) - 23 * HOUR_MS)) / HOUR_MS);

  beforeAll(async () => {
    t = await createTestApp(target);
    await t.database.query(`delete from alarms`);
    const [first] = await t.database.query<{ id: number; farm_id: number }>(
      `select id, farm_id from houses order by id limit 1`,
    );
    house = first!;
  });
  afterAll(() => t?.close());

  it('counts raised and cleared alarms in their hour, beside the same hour a day earlier', async () => {
    const empty = await night('admin');
    expect(empty.today.every((h) => countOf(h.raised) + countOf(h.cleared) === 0)).toBe(true);
    expect(empty.totals).toEqual({
      today: { raised: 0, cleared: 0 },
      yesterday: { raised: 0, cleared: 0 },
    });
    const hour = Date.parse(empty.hourStart);
    const now = hour + 60_000;
    await alarm(house, 'critical', now); // this hour
    await alarm(house, 'major', hour - 3 * HOUR_MS + 300_000); // three hours ago, still open
    await alarm(house, 'minor', hour - 72 * HOUR_MS, hour - 2 * HOUR_MS + 600_000); // cleared
    await alarm(house, 'critical', hour - 24 * HOUR_MS + 300_000); // this hour, yesterday
    await alarm(house, 'major', hour - 30 * HOUR_MS + 300_000); // earlier yesterday
    await alarm(house, 'major', hour - 50 * HOUR_MS); // before both windows

    const n = await night('admin');
    const slot = (at: number) => slotOf(n, at);
    expect(n.today[slot(now)]!.raised).toEqual({ critical: 1, major: 0, minor: 0 });
    expect(n.today[slot(hour - 3 * HOUR_MS + 300_000)]!.raised.major).toBe(1);
    expect(n.today[slot(hour - 2 * HOUR_MS + 600_000)]!.cleared).toEqual({
      critical: 0,
      major: 0,
      minor: 1,
    });
    expect(n.yesterday[slot(hour + 300_000)]!.raised.critical).toBe(1);
    expect(n.yesterday[slot(hour - 6 * HOUR_MS + 300_000)]!.raised.major).toBe(1);
    const all = (hours: WallNight['today']) =>
      hours.reduce((sum, h) => sum + countOf(h.raised) + countOf(h.cleared), 0);
    expect(all(n.today)).toBe(3);
    expect(all(n.yesterday)).toBe(2);

    // The day's counts start at the viewer's midnight.
    const midnight = Date.parse(n.midnight);
    const since = (from: number, times: number[]) => times.filter((at) => at >= from).length;
    expect(n.totals.today).toEqual({
      raised: since(midnight, [now, hour - 3 * HOUR_MS + 300_000]),
      cleared: since(midnight, [hour - 2 * HOUR_MS + 600_000]),
    });
    expect(n.totals.yesterday.raised).toBe(
      since(midnight - 24 * HOUR_MS, [
        hour - 24 * HOUR_MS + 300_000,
        hour - 30 * HOUR_MS + 300_000,
      ]),
    );
  });

  it('begins hours and days in the viewer’s time zone, the deployment’s by default', async () => {
    const shanghai = await night('admin');
    expect(shanghai.timeZone).toBe('Asia/Shanghai');
    // 00:00 in Shanghai is 16:00 UTC.
    expect(new Date(shanghai.midnight).getUTCHours()).toBe(16);
    const kolkata = await night('admin', '?timeZone=Asia/Kolkata');
    expect(kolkata.timeZone).toBe('Asia/Kolkata');
    // India is 5:30 ahead of UTC: its hours begin at half past.
    expect(new Date(kolkata.hourStart).getUTCMinutes()).toBe(30);
    expect(
      new Date(kolkata.midnight).getUTCHours() * 60 + new Date(kolkata.midnight).getUTCMinutes(),
    ).toBe(18 * 60 + 30);
  });

  it('refuses an unknown time zone in the viewer’s language', async () => {
    const token = await t.signIn('admin');
    const en = await read(token, '?timeZone=Mars/Olympus');
    expect(en.statusCode).toBe(400);
    expect(bodyOf(en).msg).toContain('time zone is unknown');
    const zh = await read(token, '?timeZone=Mars/Olympus', 'zh');
    expect(bodyOf(zh).msg).toContain('未知的时区');
  });

  it('counts only the alarms of the user’s or the kiosk link’s farms', async () => {
    const [other] = await t.database.query<{ id: number; farm_id: number }>(
      `select id, farm_id from houses where farm_id <> $1 order by id limit 1`,
      [house.farm_id],
    );
    await alarm(other!, 'critical', Date.now());
    const everyone = (n: WallNight) => n.today.reduce((sum, h) => sum + countOf(h.raised), 0);
    const all = everyone(await night('admin'));

    const admin = await t.signIn('admin');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/wall/kiosk/create',
      headers: { authorization: `Bearer ${admin}` },
      payload: { name: 'Night', allFarms: false, farmIds: [other!.farm_id] },
    });
    expect(created.statusCode).toBe(200);
    const { token } = bodyOf<{ token: string }>(created).data;
    const kiosk = wallNightSchema.parse(bodyOf(await read(token)).data);
    expect(everyone(kiosk)).toBe(1);
    expect(all).toBeGreaterThan(1);

    const farm = await night('farm');
    const [{ n: ofFarm } = { n: -1 }] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from alarms a join user_farms uf on uf.farm_id = a.farm_id
         join users u on u.id = uf.user_id
       where u.username = 'farm' and a.raised_at >= $1::timestamptz`,
      [new Date(Date.parse(farm.hourStart) - 23 * HOUR_MS).toISOString()],
    );
    expect(everyone(farm)).toBe(ofFarm);
    expect(everyone(farm)).toBeLessThan(all);
  });

  it('refuses a request that is neither signed in nor a kiosk link', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/wall/night' });
    expect(anonymous.statusCode).toBe(401);
  });
});
