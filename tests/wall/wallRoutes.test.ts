import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wallFarmHousesSchema, wallMapSchema, wallProvinceSchema } from '../../src/contract/wall';
import { DEMO_FARMS } from '../../server/demo/demoFarms';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

describe.each(testDatabaseTargets())('wall routes on $name', (target) => {
  let t: TestApp;
  const get = async (url: string, username: string) => {
    const token = await t.signIn(username);
    return t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  };

  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t?.close());

  it('gives an administrator every farm with its position, house count and worst state', async () => {
    const res = await get('/api/wall/map', 'admin');
    expect(res.statusCode).toBe(200);
    const map = wallMapSchema.parse(bodyOf(res).data);
    expect(map.mapType).toBe('1');
    expect(map.farms).toHaveLength(DEMO_FARMS.length);
    for (const farm of map.farms) {
      expect(farm.provinceAdcode).toMatch(/^\d{6}$/);
      expect(farm.longitude).not.toBeNull();
      expect(farm.houseCount).toBeGreaterThan(0);
    }
    expect(map.farms.reduce((sum, f) => sum + f.houseCount, 0)).toBe(42);
  });

  it('follows the organisation map type', async () => {
    await t.database.query(`update organizations set map_type = '2'`);
    const map = wallMapSchema.parse(bodyOf(await get('/api/wall/map', 'admin')).data);
    await t.database.query(`update organizations set map_type = '1'`);
    expect(map.mapType).toBe('2');
  });

  it('turns a farm to alarm when one of its houses has an open alarm', async () => {
    const [house] = await t.database.query<{ id: number; farm_id: number }>(
      `select h.id, h.farm_id from houses h order by h.id limit 1`,
    );
    await t.database.query(
      `insert into house_state (house_id, online, alarm_count) values ($1, true, 1)
       on conflict (house_id) do update set online = true, alarm_count = 1`,
      [house!.id],
    );
    const map = wallMapSchema.parse(bodyOf(await get('/api/wall/map', 'admin')).data);
    const farm = map.farms.find((f) => f.farmId === house!.farm_id)!;
    expect(farm.worstState).toBe('alarm');
    expect(farm.alarmCount).toBeGreaterThanOrEqual(1);
    const detail = wallFarmHousesSchema.parse(
      bodyOf(await get(`/api/wall/farm/${farm.farmId}`, 'admin')).data,
    );
    expect(detail.houses.find((h) => h.houseId === house!.id)?.state).toBe('alarm');
  });

  it('scopes the map, a province and a farm to the user', async () => {
    const all = wallMapSchema.parse(bodyOf(await get('/api/wall/map', 'admin')).data);
    const scoped = wallMapSchema.parse(bodyOf(await get('/api/wall/map', 'farm')).data);
    expect(scoped.farms.length).toBeGreaterThan(0);
    expect(scoped.farms.length).toBeLessThan(all.farms.length);
    const hidden = all.farms.find((f) => !scoped.farms.some((s) => s.farmId === f.farmId))!;
    expect((await get(`/api/wall/farm/${hidden.farmId}`, 'farm')).statusCode).toBe(404);
    const province = wallProvinceSchema.parse(
      bodyOf(await get(`/api/wall/province/${hidden.provinceAdcode}`, 'farm')).data,
    );
    expect(province.farms).toEqual([]);
    const own = wallProvinceSchema.parse(
      bodyOf(await get(`/api/wall/province/${hidden.provinceAdcode}`, 'admin')).data,
    );
    expect(own.farms.map((f) => f.farmId)).toContain(hidden.farmId);
    expect((await get('/api/wall/province/abc', 'admin')).statusCode).toBe(400);
  });

  it('asks for a session or a kiosk link before it reads the address, and is described so', async () => {
    // Someone without a token learns nothing from the address: refused as not signed in, not as
    // a bad province, as before the routes declared their parameters.
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/wall/province/abc' });
    expect(anonymous.statusCode).toBe(401);
    // A revoked or unknown kiosk link likewise.
    const ended = await t.app.inject({
      method: 'GET',
      url: '/api/wall/farm/0',
      headers: { authorization: 'Bearer rk_0000000000000000000000000000000000000000' },
    });
    expect(ended.statusCode).toBe(401);

    const token = await t.signIn('admin');
    const api = await t.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { authorization: `Bearer ${token}` },
    });
    const paths = api.json().paths;
    // Open to a kiosk token (no bearer session asked), with the farm's id as a path parameter.
    expect(paths['/api/wall/farm/{farmId}'].get.security).toEqual([]);
    expect(paths['/api/wall/farm/{farmId}'].get.parameters).toEqual([
      expect.objectContaining({ name: 'farmId', in: 'path', required: true }),
    ]);
    expect(paths['/api/wall/houses'].get.responses['200']).toBeDefined();
    // Managing the links is for administrators only.
    expect(paths['/api/wall/kiosk/create'].post['x-roles']).toEqual(['administrator']);
  });
});
