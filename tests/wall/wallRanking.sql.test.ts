import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WALL_CURVE_HOURS,
  WALL_CURVE_STEP_MS,
  wallFarmCurvesSchema,
  wallRankingSchema,
} from '../../src/contract/wallRanking';
import { farmCurves } from '../../server/wall/wallCurves';
import { HouseRulesCache } from '../../server/alarms/houseRules';
import { scopeOf } from '../../server/auth/scope';
import { findSession } from '../../server/auth/sessions';
import { readWallRanking } from '../../server/wall/wallRanking';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

const TZ = 'Asia/Shanghai';

interface House {
  id: number;
  farm_id: number;
}

describe.each(testDatabaseTargets())('the wall’s farm ranking on $name', (target) => {
  let t: TestApp;
  let farmToken: string;
  /** A house the farm user sees, one of another farm, and an offline one of a third. */
  let mine: House;
  let other: House;
  let offline: House;

  const state = (house: House, online: boolean, metrics: Record<string, number>) =>
    t.database.query(
      `insert into house_state (house_id, online, metrics) values ($1, $2, $3::jsonb)
       on conflict (house_id) do update set online = excluded.online, metrics = excluded.metrics`,
      [house.id, online, JSON.stringify(metrics)],
    );
  const limits = (house: House, value: Record<string, number>) =>
    t.database.query(
      `insert into alarm_limits (house_id, limits) values ($1, $2::jsonb)
       on conflict (house_id) do update set limits = excluded.limits`,
      [house.id, JSON.stringify(value)],
    );
  const rankingOf = async (username: string | null) => {
    const rules = new HouseRulesCache(t.database, TZ, () => new Date());
    if (username === null) return readWallRanking(t.database, rules, { all: true });
    const session = await findSession(t.database.db, await t.signIn(username));
    return readWallRanking(t.database, rules, await scopeOf(t.database.db, session!.user));
  };

  beforeAll(async () => {
    t = await createTestApp(target);
    farmToken = await t.signIn('farm');
    const session = await findSession(t.database.db, farmToken);
    const scope = await scopeOf(t.database.db, session!.user);
    if (scope.all) throw new Error('the farm user sees everything');
    const houses = await t.database.query<House>(`select id, farm_id from houses order by id`);
    mine = houses.find((h) => scope.houseIds.has(h.id))!;
    other = houses.find((h) => !scope.farmIds.has(h.farm_id))!;
    offline = houses.find((h) => h.farm_id !== mine.farm_id && h.farm_id !== other.farm_id)!;
    // Nothing else on: every house offline, so only the houses below count.
    await t.database.query(`update house_state set online = false`);
    await limits(mine, { nh3Max: 20 });
    await limits(other, { co2Max: 3000 });
    await limits(offline, { nh3Max: 20 });
    await state(mine, true, { nh3: 15 });
    await state(other, true, { co2: 1500 });
    await state(offline, false, { nh3: 29 });
  }, 120_000);
  afterAll(() => t?.close());

  it('ranks farms by how far their worst house is on the way to its alarm limit', async () => {
    const { farms } = await rankingOf(null);
    expect(farms.map((f) => f.farmId)).toEqual([mine.farm_id, other.farm_id]);
    expect(farms[0]).toMatchObject({
      houseId: mine.id,
      metric: 'nh3',
      value: 15,
      target: null,
      limit: 20,
      share: 0.75,
    });
    expect(farms[1]).toMatchObject({ houseId: other.id, metric: 'co2', limit: 3000, share: 0.5 });
    // An offline house's last readings rank nothing, however far off.
    expect(farms.some((f) => f.houseId === offline.id)).toBe(false);
  });

  it('moves with the readings: a house back on target leaves the ranking', async () => {
    await state(other, true, { co2: 0 });
    expect((await rankingOf(null)).farms.map((f) => f.farmId)).toEqual([mine.farm_id]);
    await state(other, true, { co2: 2700 });
    expect((await rankingOf(null)).farms.map((f) => f.farmId)).toEqual([
      other.farm_id,
      mine.farm_id,
    ]);
  });

  it('ranks only the farms of the viewer’s scope', async () => {
    const { farms } = await rankingOf('farm');
    expect(farms.map((f) => f.farmId)).toEqual([mine.farm_id]);
  });

  it('answers a signed-in user over HTTP, and refuses the anonymous', async () => {
    const get = (token?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/wall/ranking',
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    const res = await get(farmToken);
    expect(res.statusCode).toBe(200);
    const answer = wallRankingSchema.parse(bodyOf(res).data);
    expect(answer.farms.map((f) => f.farmId)).toEqual([mine.farm_id]);
    expect((await get()).statusCode).toBe(401);
  });
  it('draws a drilled farm’s last hours: a mean per 10 minutes, gaps kept, the target now', async () => {
    const step = WALL_CURVE_STEP_MS;
    const now = Date.now();
    const base = Math.floor(now / step) * step - 3 * step;
    await t.database.query(
      `insert into telemetry (gateway_id, house_id, ts, temperature)
       select (select min(id) from gateways), $1, t, v from unnest($2::timestamptz[], $3::real[]) u(t, v)`,
      [
        mine.id,
        [base + 60_000, base + 120_000, base + step + 60_000].map((at) => new Date(at)),
        [20, 22, 25],
      ],
    );
    const rules = new HouseRulesCache(t.database, TZ, () => new Date());
    const curves = await farmCurves(t.database, rules, { all: true }, mine.farm_id, TZ, now);
    const curve = curves.houses.find((h) => h.houseId === mine.id)!;
    expect(curve.temperature).toHaveLength((WALL_CURVE_HOURS * 3_600_000) / step);
    const at = (base - curves.from) / step;
    expect(curve.temperature.slice(at - 1, at + 3)).toEqual([null, 21, 25, null]);
    expect(curve.temperature.filter((v) => v !== null)).toHaveLength(2);
    const target = (await rules.get([mine.id])).get(mine.id)!.targetTemperature;
    expect(curve.target).toBe(target);
  });

  it('answers a farm’s curves in scope only', async () => {
    const get = (farmId: number | string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/wall/farm/${farmId}/curves`,
        headers: { authorization: `Bearer ${farmToken}` },
      });
    const own = await get(mine.farm_id);
    expect(own.statusCode).toBe(200);
    expect(wallFarmCurvesSchema.parse(bodyOf(own).data).houses.map((h) => h.houseId)).toContain(
      mine.id,
    );
    expect((await get(other.farm_id)).statusCode).toBe(404);
    // A farm id that is no id is refused as bad input, not a failure of the server.
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/wall/farm/abc/curves',
      headers: { authorization: `Bearer ${farmToken}` },
    });
    expect(bad.statusCode).toBe(400);
  });
});
