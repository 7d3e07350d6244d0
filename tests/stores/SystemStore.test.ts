import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BREED_TARGET_FIELDS, type BreedTargetRow, type FarmNode } from '../../src/contract/admin';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { fetchTo, storesOn } from './realServer';
import type { RouteRule } from '../../src/stores/PermissionStore';
import type { TestStores } from './fakeApi';

const flatten = (nodes: FarmNode[]): FarmNode[] =>
  nodes.flatMap((n) => [n, ...flatten(n.children)]);
const unique = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The system-management stores on the real app with demo data, signed in as its administrator. */
describe.each(testDatabaseTargets())('system management stores on $name', (target) => {
  let t: TestApp;
  let s: TestStores<RouteRule>;

  beforeAll(async () => {
    t = await createTestApp(target);
    s = storesOn(await fetchTo(t.app), await t.signIn('admin'));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('loads the shared reference lists, each parsed', async () => {
    const { system } = s.stores;
    const tree = await system.loadFarmTree();
    expect(system.farmTree).toEqual(tree);
    expect(system.farmTreeLoaded).toBe(true);
    const farms = flatten(tree).filter((n) => n.level === 'farm');
    expect(farms.length).toBeGreaterThan(0);
    expect(farms.some((f) => f.houseCount > 0)).toBe(true);

    await system.loadOrgs();
    expect(system.orgs.length).toBeGreaterThan(0);
    expect(system.orgs[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });

    await system.loadBreedChoices();
    expect(system.breedChoices.length).toBeGreaterThan(0);

    await system.loadAssignable();
    expect(system.assignable.roles).toContain('farm_manager');
    expect(system.assignable.farms.length).toBe(farms.length);

    const farm = farms.find((f) => f.houseCount > 0)!;
    const houses = await system.loadHouses(farm.id);
    expect(houses).toHaveLength(farm.houseCount);
    expect(system.housesOf(farm.id)).toEqual(houses);
    expect(system.housesOf(-1)).toEqual([]);
    expect(s.errors).toEqual([]);
  });

  it('pages the organisation, user and breed lists with their row schemas', async () => {
    const { system } = s.stores;
    const orgs = system.orgList({ keyword: '' });
    await orgs.load(1);
    expect(orgs.total).toBeGreaterThan(0);
    expect(orgs.rows[0]).toMatchObject({ hasLogo: expect.any(Boolean), mapType: /^[12]$/ });

    const users = system.userList({ keyword: '', roleKey: '' });
    await users.load(1);
    expect(users.rows.map((u) => u.username)).toContain('farm');

    const breeds = system.breedList({ keyword: '' });
    await breeds.load(1);
    expect(breeds.rows.length).toBeGreaterThan(0);
    expect(s.errors).toEqual([]);
  });

  it('changes organisations and users through store actions, each answer parsed', async () => {
    const { system } = s.stores;
    const code = unique('O');
    const org = await system.saveOrg({ name: `Org ${code}`, code });
    expect(org).toMatchObject({ id: expect.any(Number), code, hasLogo: false });
    const renamed = await system.saveOrg({ id: org.id, name: 'Renamed', code });
    expect(renamed.name).toBe('Renamed');
    await expect(system.deleteOrg(org.id)).resolves.toBeNull();

    await system.loadAssignable();
    const username = unique('u.');
    const saved = await system.saveUser({
      username,
      password: 'Roost-test-1234',
      roleKey: 'farm_manager',
      farmIds: [system.assignable.farms[0]!.id],
    });
    expect(saved.id).toEqual(expect.any(Number));
    const reset = await system.resetPassword(saved.id);
    expect(reset.password.length).toBeGreaterThan(8);
    await expect(system.deleteUser(saved.id)).resolves.toBeNull();
    expect(s.errors).toEqual([]);
  });

  it('changes farms, houses, gateways and flocks through store actions', async () => {
    const { system } = s.stores;
    const tree = await system.loadFarmTree();
    const company = flatten(tree).find((n) => n.level === 'company')!;
    const farm = await system.saveFarm({
      level: 'farm',
      name: unique('Farm '),
      parentId: company.id,
    });
    await expect(
      system.saveFarm({ id: farm.id, level: 'farm', name: 'Renamed farm', parentId: company.id }),
    ).resolves.toEqual({ id: farm.id });

    const house = await system.saveHouse({ farmId: farm.id, name: 'House 1', sort: 1 });
    const [row] = await system.loadHouses(farm.id);
    expect(row).toMatchObject({ id: house.id, gateway: null, flock: null });

    const networkId = unique('gw');
    const created = await system.saveGateway({ houseId: house.id, networkId, typeKey: 11 });
    expect(created).toMatchObject({ networkId, token: expect.any(String) });
    const updated = await system.saveGateway({
      id: created.id,
      houseId: house.id,
      networkId,
      typeKey: 11,
      version: '2',
    });
    expect(updated).toEqual({ id: created.id, networkId });
    const rotated = await system.rotateToken(created.id);
    expect(rotated.token).not.toBe('token' in created ? created.token : '');

    await system.loadBreedChoices();
    const flock = await system.startFlock({
      houseId: house.id,
      breedId: system.breedChoices[0]!.id,
      placedOn: '2026-01-02',
      headCount: 1000,
    });
    expect(flock.id).toEqual(expect.any(Number));
    const [withFlock] = await system.loadHouses(farm.id);
    expect(withFlock!.flock).toMatchObject({ id: flock.id, headCount: 1000 });
    await expect(
      system.closeFlock({ houseId: house.id, closedOn: '2026-02-01' }),
    ).resolves.toBeNull();

    // A house with a gateway stays (the server refuses); an empty one and an empty farm go.
    const spare = await system.saveHouse({ farmId: farm.id, name: 'House 2', sort: 2 });
    await expect(system.deleteHouse(spare.id)).resolves.toBeNull();
    const empty = await system.saveFarm({
      level: 'farm',
      name: unique('Empty '),
      parentId: company.id,
    });
    await expect(system.deleteFarm(empty.id)).resolves.toBeNull();
    expect(s.errors).toEqual([]);
  });

  it('changes breeds and opens one with its grid through the breed detail store', async () => {
    const { system } = s.stores;
    const code = unique('B');
    const breed = await system.saveBreed({ name: `Breed ${code}`, code });
    expect(breed).toMatchObject({ code, isCommon: false });
    const copy = await system.copyBreed(breed.id);
    expect(copy.id).not.toBe(breed.id);

    const detail = system.breedDetail();
    const empty = Object.fromEntries(BREED_TARGET_FIELDS.map((f) => [f, null]));
    const grid = [{ ...empty, ageDay: 1, temperature: 33 } as BreedTargetRow];
    await detail.save(breed.id, grid, [{ ageDay: 7, content: 'ND vaccine' }]);
    const opened = await detail.open(breed.id);
    expect(detail.detail).toEqual(opened);
    expect(opened.targets).toEqual([expect.objectContaining({ ageDay: 1, temperature: 33 })]);
    expect(opened.immune).toEqual([{ ageDay: 7, content: 'ND vaccine' }]);
    detail.forget(copy.id);
    expect(detail.detail).toEqual(opened);
    detail.forget(breed.id);
    expect(detail.detail).toBeNull();

    await expect(system.deleteBreed(copy.id)).resolves.toBeNull();
    await expect(system.deleteBreed(breed.id)).resolves.toBeNull();
    expect(s.errors).toEqual([]);
  });

  it('forgets every reference list on sign-out', async () => {
    const { system } = s.stores;
    await system.loadFarmTree();
    s.stores.signOutLocally();
    expect(system.farmTree).toEqual([]);
    expect(system.farmTreeLoaded).toBe(false);
    expect(system.orgs).toEqual([]);
    expect(system.housesByFarm.size).toBe(0);
  });
});
