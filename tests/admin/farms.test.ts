import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FarmNode, GatewayTokenResult, HouseRow } from '../../src/contract/admin';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { call, signInAll } from './client';

type Page<T> = { rows: T[]; total: number };

function find(nodes: FarmNode[], name: string): FarmNode | undefined {
  for (const n of nodes) {
    if (n.name === name) return n;
    const inner = find(n.children, name);
    if (inner) return inner;
  }
  return undefined;
}

describe.each(testDatabaseTargets())('farms, houses, gateways and flocks on $name', (target) => {
  let t: TestApp;
  let tokens: Awaited<ReturnType<typeof signInAll>>;
  let tree: FarmNode[];

  beforeAll(async () => {
    t = await createTestApp(target);
    tokens = await signInAll(t);
    tree = (await call<FarmNode[]>(t, tokens.admin, 'GET', '/farm/tree')).data;
  });
  afterAll(async () => {
    await t?.close();
  });

  const ingest = (networkId: string, token: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/ingest/${networkId}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { ts: Date.now(), metrics: { temperature: 24 } },
    });

  it('shows the tree group → company → farm, a company manager only its company', async () => {
    const group = find(tree, 'Golden Plains Group')!;
    expect(group.level).toBe('group');
    expect(group.children.map((c) => c.level)).toEqual(['company', 'company']);
    expect(find(tree, 'Weifang Broiler Farm')).toMatchObject({
      provinceAdcode: '370000',
      houseCount: 8,
    });
    const own = (await call<FarmNode[]>(t, tokens.company, 'GET', '/farm/tree')).data;
    expect(own.map((n) => n.name)).toEqual(['North China Broilers Co.']);
    expect(find(own, 'Qingyuan Layer Farm')).toBeUndefined();
    for (const token of [tokens.area, tokens.farm, tokens.shack])
      expect((await call(t, token, 'GET', '/farm/tree')).status).toBe(403);
  });

  it('lets a company manager create and edit farms below its company only', async () => {
    const north = find(tree, 'North China Broilers Co.')!;
    const south = find(tree, 'South China Layers Co.')!;
    const farm = {
      level: 'farm',
      name: 'Linyi Farm',
      provinceAdcode: '370000',
      provinceName: '山东省',
      longitude: 118.35,
      latitude: 35.05,
    };
    const created = await call<{ id: number }>(t, tokens.company, 'POST', '/farm/create', {
      ...farm,
      parentId: north.id,
    });
    expect(created.status).toBe(200);
    expect(
      (await call(t, tokens.company, 'POST', '/farm/create', { ...farm, parentId: south.id }))
        .status,
    ).toBe(404);
    expect(
      (
        await call(t, tokens.company, 'PUT', '/farm/update', {
          ...farm,
          id: south.id,
          level: 'company',
        })
      ).status,
    ).toBe(404);
    // Its own company node is not its to rename or delete.
    expect(
      (
        await call(t, tokens.company, 'PUT', '/farm/update', {
          id: north.id,
          level: 'company',
          name: 'Mine',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(t, tokens.company, 'POST', '/farm/create', {
          level: 'group',
          name: 'G',
          orgId: 1,
        })
      ).status,
    ).toBe(403);
    const wrongLevel = await call(
      t,
      tokens.company,
      'POST',
      '/farm/create',
      { ...farm, level: 'company', parentId: north.id },
      'zh',
    );
    expect(wrongLevel.status).toBe(400);
    expect(wrongLevel.msg).toBe('集团没有上级，公司属于集团，场区属于公司。');
    const badPosition = await call(t, tokens.company, 'PUT', '/farm/update', {
      ...farm,
      id: created.data.id,
      longitude: 200,
    });
    expect(badPosition.status).toBe(400);
    expect(badPosition.msg).toBe('Longitude is −180…180 and latitude −90…90.');
    const moved = await call(t, tokens.company, 'PUT', '/farm/update', {
      ...farm,
      id: created.data.id,
      longitude: 118.4,
    });
    expect(moved.status).toBe(200);
  });

  it('refuses deleting a node with children (409), deletes an empty one', async () => {
    const north = find(tree, 'North China Broilers Co.')!;
    const res = await call(t, tokens.admin, 'DELETE', '/farm/delete', { id: north.id });
    expect(res.status).toBe(409);
    expect(res.msg).toMatch(/still has \d+ child nodes/);
    const created = await call<{ id: number }>(t, tokens.company, 'POST', '/farm/create', {
      level: 'farm',
      name: 'Empty',
      parentId: north.id,
    });
    expect(
      (await call(t, tokens.company, 'DELETE', '/farm/delete', { id: created.data.id })).status,
    ).toBe(200);
  });

  it('creates a house with a gateway whose token is shown once and rotates it', async () => {
    const weifang = find(tree, 'Weifang Broiler Farm')!;
    const house = await call<{ id: number }>(t, tokens.company, 'POST', '/house/create', {
      farmId: weifang.id,
      name: 'House 9',
      sort: 9,
    });
    expect(house.status).toBe(200);
    const gw = {
      houseId: house.data.id,
      networkId: 'GWTEST01',
      typeKey: 25,
      version: '2.8.4',
      simCard: '898600',
    };
    expect(
      (await call(t, tokens.company, 'POST', '/gateway/save', { ...gw, typeKey: 99 })).status,
    ).toBe(400);
    const created = await call<GatewayTokenResult>(t, tokens.company, 'POST', '/gateway/save', gw);
    expect(created.status).toBe(200);
    const first = created.data.token;
    expect(first.length).toBeGreaterThanOrEqual(43);
    expect((await ingest('GWTEST01', first)).statusCode).toBe(200);

    const listed = await call<Page<HouseRow>>(
      t,
      tokens.company,
      'GET',
      `/house/listByFarm?farmId=${weifang.id}`,
    );
    const row = listed.data.rows.find((h) => h.id === house.data.id)!;
    expect(row.gateway).toMatchObject({ networkId: 'GWTEST01', typeKey: 25 });
    expect(JSON.stringify(listed.data)).not.toContain(first);

    const taken = await call(t, tokens.admin, 'POST', '/gateway/save', {
      ...gw,
      houseId: listed.data.rows[0]!.id,
      id: undefined,
    });
    expect(taken.status).toBe(409);

    const rotated = await call<GatewayTokenResult>(
      t,
      tokens.company,
      'PUT',
      '/gateway/rotateToken',
      { id: created.data.id },
    );
    expect(rotated.data.token).not.toBe(first);
    expect((await ingest('GWTEST01', first)).statusCode).toBe(401);
    expect((await ingest('GWTEST01', rotated.data.token)).statusCode).toBe(200);

    // The new house is on the overview at once.
    const overview = await t.app.inject({
      url: '/api/overview/listOverview/',
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(overview.body).toContain('House 9');
  });

  it('closes a flock and starts the next, one open flock per house', async () => {
    const weifang = find(tree, 'Weifang Broiler Farm')!;
    const houses = (
      await call<Page<HouseRow>>(t, tokens.admin, 'GET', `/house/listByFarm?farmId=${weifang.id}`)
    ).data.rows;
    const house = houses[0]!;
    expect(house.flock).not.toBeNull();
    const next = {
      houseId: house.id,
      placedOn: '2030-01-02',
      headCount: 21000,
      breedId: house.flock!.breedId,
    };
    expect((await call(t, tokens.admin, 'POST', '/flock/start', next)).status).toBe(409);
    const early = await call(t, tokens.admin, 'PUT', '/flock/close', {
      houseId: house.id,
      closedOn: '1999-01-01',
    });
    expect(early.status).toBe(400);
    expect(
      (
        await call(t, tokens.admin, 'PUT', '/flock/close', {
          houseId: house.id,
          closedOn: '2030-01-01',
        })
      ).status,
    ).toBe(200);
    expect(
      (await call(t, tokens.admin, 'POST', '/flock/start', { ...next, headCount: 0 })).status,
    ).toBe(400);
    expect((await call(t, tokens.admin, 'POST', '/flock/start', next)).status).toBe(200);
    const after = (
      await call<Page<HouseRow>>(t, tokens.admin, 'GET', `/house/listByFarm?farmId=${weifang.id}`)
    ).data.rows;
    expect(after[0]!.flock).toMatchObject({ placedOn: '2030-01-02', headCount: 21000 });
  });

  it('keeps a company manager out of houses and gateways of another company', async () => {
    const qingyuan = find(tree, 'Qingyuan Layer Farm')!;
    const houses = (
      await call<Page<HouseRow>>(t, tokens.admin, 'GET', `/house/listByFarm?farmId=${qingyuan.id}`)
    ).data.rows;
    const house = houses[0]!;
    expect(
      (await call(t, tokens.company, 'GET', `/house/listByFarm?farmId=${qingyuan.id}`)).status,
    ).toBe(404);
    expect(
      (await call(t, tokens.company, 'PUT', '/gateway/rotateToken', { id: house.gateway!.id }))
        .status,
    ).toBe(404);
    expect(
      (await call(t, tokens.company, 'DELETE', '/gateway/delete', { id: house.gateway!.id }))
        .status,
    ).toBe(404);
    expect(
      (
        await call(t, tokens.company, 'PUT', '/house/update', {
          id: house.id,
          farmId: qingyuan.id,
          name: 'x',
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(t, tokens.company, 'PUT', '/flock/close', {
          houseId: house.id,
          closedOn: '2030-01-01',
        })
      ).status,
    ).toBe(404);
    expect(
      (await call(t, tokens.farm, 'POST', '/house/create', { farmId: qingyuan.id, name: 'x' }))
        .status,
    ).toBe(403);
    const withGateway = await call(t, tokens.admin, 'DELETE', '/house/delete', { id: house.id });
    expect(withGateway.status).toBe(409);
  });
});
