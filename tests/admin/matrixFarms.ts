import type { Fixtures, Role } from './matrixFixtures';
import {
  byId,
  expectAbsent,
  FARM_ROLES,
  name,
  next,
  per,
  today,
  type Endpoint,
  type Outside,
  type Req,
} from './matrixShared';

/** The /system/farm and /system/poultry rows of the matrix: administrators and company managers. */

/** A farm each role manages and one it does not, for the /system/farm calls. */
const HOME = { admin: 'tieling', company: 'tieling' } as const;
const home = (f: Fixtures, role: Role) => f.node[HOME[role as keyof typeof HOME]];
const away = (build: (f: Fixtures) => Req | Promise<Req>, why = 'in the other company') => ({
  company: [{ why, build }],
});

export const FARM_ENDPOINTS: Endpoint[] = [
  // ---------------------------------------------------------------- farms, houses, gateways, flocks
  {
    method: 'GET',
    path: '/farm/tree',
    roles: FARM_ROLES,
    inside: per(() => ({ url: '/farm/tree' }), FARM_ROLES),
    check: { company: (_d, body) => expectAbsent(body, 'Qingyuan Layer Farm') },
  },
  {
    method: 'POST',
    path: '/farm/create',
    roles: FARM_ROLES,
    inside: per(
      (f) => ({
        url: '/farm/create',
        body: { level: 'farm', name: name('Farm '), parentId: f.node.north },
      }),
      FARM_ROLES,
    ),
    outside: {
      company: [
        {
          why: 'below the other company',
          build: (f) => ({
            url: '/farm/create',
            body: { level: 'farm', name: 'X', parentId: f.node.south },
          }),
        },
        {
          why: 'a new group (administrators only)',
          build: (f) => ({
            url: '/farm/create',
            body: { level: 'group', name: 'X', orgId: f.orgId },
          }),
        },
      ],
    },
  },
  {
    method: 'PUT',
    path: '/farm/update',
    roles: FARM_ROLES,
    inside: per(
      (f, role) => ({
        url: '/farm/update',
        body: {
          id: home(f, role),
          level: 'farm',
          name: name('Tieling Broiler Farm '),
          provinceAdcode: '210000',
          provinceName: '辽宁省',
        },
      }),
      FARM_ROLES,
    ),
    outside: {
      company: [
        {
          why: 'a farm of the other company',
          build: (f) => ({
            url: '/farm/update',
            body: { id: f.node.qingyuan, level: 'farm', name: 'X' },
          }),
        },
        {
          why: 'its own company node',
          build: (f) => ({
            url: '/farm/update',
            body: { id: f.node.north, level: 'company', name: 'X' },
          }),
        },
      ],
    },
  },
  {
    method: 'DELETE',
    path: '/farm/delete',
    roles: FARM_ROLES,
    inside: per(
      async (f) => ({ url: '/farm/delete', ...byId(await f.make.farm(f.node.north)) }),
      FARM_ROLES,
    ),
    outside: away(async (f) => ({ url: '/farm/delete', ...byId(await f.make.farm(f.node.south)) })),
  },
  {
    method: 'GET',
    path: '/house/listByFarm',
    roles: FARM_ROLES,
    inside: per((f, role) => ({ url: `/house/listByFarm?farmId=${home(f, role)}` }), FARM_ROLES),
    outside: away((f) => ({ url: `/house/listByFarm?farmId=${f.node.qingyuan}` })),
  },
  {
    method: 'POST',
    path: '/house/create',
    roles: FARM_ROLES,
    inside: per(
      (f, role) => ({
        url: '/house/create',
        body: { farmId: home(f, role), name: name('House ') },
      }),
      FARM_ROLES,
    ),
    outside: away((f) => ({ url: '/house/create', body: { farmId: f.node.qingyuan, name: 'X' } })),
  },
  {
    method: 'PUT',
    path: '/house/update',
    roles: FARM_ROLES,
    inside: per(
      (f) => ({
        url: '/house/update',
        body: { id: f.house.tl1, farmId: f.node.tieling, name: name('House 1.'), sort: 1 },
      }),
      FARM_ROLES,
    ),
    outside: {
      company: [
        {
          why: 'a house of the other company',
          build: (f) => ({
            url: '/house/update',
            body: { id: f.house.qy1, farmId: f.node.qingyuan, name: 'X' },
          }),
        },
        {
          why: 'moving its house into the other company',
          build: (f) => ({
            url: '/house/update',
            body: { id: f.house.tl1, farmId: f.node.qingyuan, name: 'House 1' },
          }),
        },
      ],
    },
  },
  {
    method: 'DELETE',
    path: '/house/delete',
    roles: FARM_ROLES,
    inside: per(
      async (f) => ({ url: '/house/delete', ...byId(await f.make.house(f.node.tieling)) }),
      FARM_ROLES,
    ),
    outside: away(async (f) => ({
      url: '/house/delete',
      ...byId(await f.make.house(f.node.qingyuan)),
    })),
  },
  {
    method: 'POST',
    path: '/gateway/save',
    roles: FARM_ROLES,
    inside: per(
      async (f) => ({
        url: '/gateway/save',
        body: { houseId: await f.make.house(f.node.tieling), networkId: name('GWX'), typeKey: 25 },
      }),
      FARM_ROLES,
    ),
    outside: {
      company: [
        {
          why: 'a house of the other company',
          build: async (f) => ({
            url: '/gateway/save',
            body: {
              houseId: await f.make.house(f.node.qingyuan),
              networkId: name('GWX'),
              typeKey: 25,
            },
          }),
        },
        {
          why: 'the gateway of a house of the other company',
          build: (f) => ({
            url: '/gateway/save',
            body: { id: f.gateway.qy1, houseId: f.house.qy1, networkId: 'GWHIJACK', typeKey: 25 },
          }),
        },
      ],
    },
  },
  {
    method: 'PUT',
    path: '/gateway/rotateToken',
    roles: FARM_ROLES,
    inside: per((f) => ({ url: '/gateway/rotateToken', ...byId(f.gateway.tl1) }), FARM_ROLES),
    outside: away((f) => ({ url: '/gateway/rotateToken', ...byId(f.gateway.qy1) })),
  },
  {
    method: 'PUT',
    path: '/gateway/enrolCode',
    roles: FARM_ROLES,
    inside: per((f) => ({ url: '/gateway/enrolCode', ...byId(f.gateway.tl1) }), FARM_ROLES),
    outside: away((f) => ({ url: '/gateway/enrolCode', ...byId(f.gateway.qy1) })),
  },
  {
    method: 'DELETE',
    path: '/gateway/delete',
    roles: FARM_ROLES,
    inside: per(
      async (f) => ({
        url: '/gateway/delete',
        ...byId(await f.make.gateway(await f.make.house(f.node.tieling))),
      }),
      FARM_ROLES,
    ),
    outside: away((f) => ({ url: '/gateway/delete', ...byId(f.gateway.qy1) })),
  },
  {
    method: 'POST',
    path: '/flock/start',
    roles: FARM_ROLES,
    inside: per(
      async (f) => ({
        url: '/flock/start',
        body: { houseId: await f.make.house(f.node.tieling), placedOn: today(), headCount: 500 },
      }),
      FARM_ROLES,
    ),
    outside: away(async (f) => ({
      url: '/flock/start',
      body: { houseId: await f.make.house(f.node.qingyuan), placedOn: today(), headCount: 500 },
    })),
  },
  {
    method: 'PUT',
    path: '/flock/close',
    roles: FARM_ROLES,
    inside: per(async (f) => {
      const houseId = await f.make.house(f.node.tieling);
      await f.make.flock(houseId);
      return { url: '/flock/close', body: { houseId, closedOn: today() } };
    }, FARM_ROLES),
    outside: away((f) => ({
      url: '/flock/close',
      body: { houseId: f.house.qy1, closedOn: today() },
    })),
  },

  // ---------------------------------------------------------------- breeds
  {
    method: 'GET',
    path: '/breed/list',
    roles: FARM_ROLES,
    inside: per(() => ({ url: '/breed/list?size=200' }), FARM_ROLES),
    check: {
      company: (d, _b, f) => {
        const { rows } = d as { rows: { id: number }[] };
        if (rows.some((r) => r.id === f.breed.other))
          throw new Error("lists another organisation's breed");
      },
    },
  },
  {
    method: 'GET',
    path: '/breed/get',
    roles: FARM_ROLES,
    inside: per((f) => ({ url: `/breed/get?id=${f.breed.own}` }), FARM_ROLES),
    outside: away(
      (f) => ({ url: `/breed/get?id=${f.breed.other}` }),
      "another organisation's breed",
    ),
  },
  {
    method: 'POST',
    path: '/breed/create',
    roles: FARM_ROLES,
    inside: per(
      () => ({ url: '/breed/create', body: { name: name('Breed '), code: name('BR') } }),
      FARM_ROLES,
    ),
  },
  ...(['update', 'delete', 'saveTargets', 'saveImmune'] as const).map((action): Endpoint => {
    const method = action === 'delete' ? 'DELETE' : 'PUT';
    const req = (id: number): Req => ({
      url: `/breed/${action}`,
      body:
        action === 'update'
          ? { id, name: name('Breed '), code: 'BR' }
          : action === 'delete'
            ? { id }
            : action === 'saveTargets'
              ? { breedId: id, rows: [{ ageDay: 1, temperature: next() }] }
              : { breedId: id, rows: [{ ageDay: 7, content: name('ND vaccine ') }] },
    });
    const refused: Outside[] = [
      { why: 'a common (read-only) breed', build: (f) => req(f.breed.common) },
    ];
    return {
      method,
      path: `/breed/${action}`,
      roles: FARM_ROLES,
      inside: per(
        async (f) => req(action === 'delete' ? await f.make.breed(f.orgId) : f.breed.own),
        FARM_ROLES,
      ),
      outside: {
        admin: refused,
        company: [
          ...refused,
          { why: "another organisation's breed", build: (f) => req(f.breed.other) },
        ],
      },
    };
  }),
  {
    method: 'POST',
    path: '/breed/copy',
    roles: FARM_ROLES,
    inside: per((f) => ({ url: '/breed/copy', ...byId(f.breed.common) }), FARM_ROLES),
    outside: away(
      (f) => ({ url: '/breed/copy', ...byId(f.breed.other) }),
      "another organisation's breed",
    ),
  },
];
