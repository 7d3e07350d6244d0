import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors';
import { AdminListStore } from '../../src/stores/AdminListStore';
import { AlarmSettingsStore } from '../../src/stores/AlarmSettingsStore';
import { KioskLinksStore } from '../../src/stores/KioskLinksStore';
import type { RouteRule } from '../../src/stores/PermissionStore';
import { TEXTS, type TestStores } from './fakeApi';
import { fetchTo, storesOn } from './realServer';

const envelope = (data: unknown) => ({ success: true, code: 200, msg: 'OK', data });

const ORG = {
  id: 1,
  name: 'Org',
  code: 'O1',
  principal: '',
  officeTel: '',
  mobile: '',
  fax: '',
  email: '',
  remark: '',
  mapType: '1',
  hasLogo: false,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const FARM = {
  id: 1,
  orgId: 1,
  parentId: null,
  level: 'group',
  name: 'Group',
  type: '',
  provinceAdcode: null,
  provinceName: null,
  longitude: null,
  latitude: null,
  address: '',
  houseCount: 0,
};

/**
 * A server that keeps the envelope but drifts inside `data`: one field of the wrong type or
 * missing. Every store must refuse such an answer with the client's "bad answer" error (and
 * its toast) and keep what it showed before, rather than hand the page a wrong shape.
 */
function driftingServer(): FastifyInstance {
  const app = Fastify({ logger: false });
  const answers: Record<string, unknown> = {
    // A child node whose id is a string, deep in the tree.
    'GET /api/farm/tree': [{ ...FARM, children: [{ ...FARM, id: '2', children: [] }] }],
    'GET /api/org/listAll': [{ id: 1 }],
    'GET /api/org/list': { rows: [{ ...ORG, hasLogo: 'yes' }], total: 1 },
    'GET /api/user/assignable': { roles: ['emperor'], companies: [], farms: [], houses: [] },
    'GET /api/house/listByFarm': { rows: [{ id: 1, farmId: 1, name: 'H', sort: 1 }], total: 1 },
    'GET /api/breed/get': { id: 1, targets: [], immune: [] },
    'GET /api/log/list': { rows: 'none', total: 0 },
    'POST /api/gateway/save': { id: 1 },
    'PUT /api/user/resetPwd': { password: 123456 },
    'DELETE /api/org/delete': { deleted: true },
    'GET /api/alarmPhone/list': { rows: [{ id: 1, farmId: 1, phone: 13800000000 }], total: 1 },
    'GET /api/alarmInput/list': { rows: [], total: 0 },
    'DELETE /api/alarmPhone/delete': { remaining: -1 },
    'GET /api/wall/kiosk/list': [{ id: 1, name: 'Wall', allFarms: 'yes' }],
    'POST /api/wall/kiosk/create': { token: 'abc' },
  };
  for (const [route, data] of Object.entries(answers)) {
    const [method, url] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE', string];
    app.route({ method, url, handler: async () => envelope(data) });
  }
  return app;
}

describe('answers that drift from the contract are refused, not rendered', () => {
  let app: FastifyInstance;
  let s: TestStores<RouteRule>;

  beforeAll(async () => {
    app = driftingServer();
    s = storesOn(await fetchTo(app));
  });
  afterAll(async () => {
    await app.close();
  });

  /** The call fails with the client's bad-answer error, toasted once. */
  async function refused(call: () => Promise<unknown>): Promise<void> {
    const before = s.errors.length;
    const failure = await call().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ kind: 'badAnswer', message: TEXTS.badAnswer });
    expect(s.errors.slice(before)).toEqual([TEXTS.badAnswer]);
  }

  it('SystemStore keeps its lists when a reference list drifts', async () => {
    const { system } = s.stores;
    await refused(() => system.loadFarmTree());
    expect(system.farmTree).toEqual([]);
    expect(system.farmTreeLoaded).toBe(false);
    await refused(() => system.loadOrgs());
    expect(system.orgs).toEqual([]);
    await refused(() => system.loadAssignable());
    expect(system.assignable.roles).toEqual([]);
    await refused(() => system.loadHouses(1));
    expect(system.housesOf(1)).toEqual([]);
  });

  it('SystemStore refuses drifted answers to changes', async () => {
    const { system } = s.stores;
    await refused(() => system.saveGateway({ houseId: 1, networkId: 'gw1', typeKey: 11 }));
    await refused(() => system.resetPassword(1));
    await refused(() => system.deleteOrg(1));
  });

  it('a paged list refuses rows its schema does not accept, and a frame that is not a page', async () => {
    const orgs = s.stores.system.orgList({ keyword: '' });
    await refused(() => orgs.load(1));
    expect(orgs.rows).toEqual([]);
    expect(orgs.loaded).toBe(false);
    const unchecked = new AdminListStore(s.stores.api, '/log/list', { keyword: '' });
    await refused(() => unchecked.load(1));
    expect(unchecked.loaded).toBe(false);
  });

  it('the breed detail store keeps no half breed', async () => {
    const detail = s.stores.system.breedDetail();
    await refused(() => detail.open(1));
    expect(detail.detail).toBeNull();
  });

  it('the alarm settings store shows no phone of the wrong shape', async () => {
    const settings = new AlarmSettingsStore(s.stores.api);
    await refused(() => settings.reload());
    expect(settings.phones).toBeNull();
    expect(settings.inputs).toBeNull();
    await refused(() => settings.remove('alarmPhone', 1));
  });

  it('the kiosk-link store shows no link of the wrong shape and no token without its link', async () => {
    const kiosks = new KioskLinksStore(s.stores.api);
    await refused(() => kiosks.load());
    expect(kiosks.links).toBeNull();
    await refused(() => kiosks.create({ name: 'Wall', allFarms: true }));
  });
});
