import type { Fixtures, Role } from './matrixFixtures';
import { FARM_ENDPOINTS } from './matrixFarms';
import { PRODUCTION_ENDPOINTS } from './matrixProduction';
import { COMPLETENESS_ENDPOINTS, REMINDER_ENDPOINTS } from './matrixReminders';
import { NOTIFY_ENDPOINTS } from './matrixNotify';
import { ENVCONTROL_ENDPOINTS } from './matrixEnvcontrol';
import { UPGRADE_ENDPOINTS } from './matrixUpgrade';
import { WALL_ENDPOINTS } from './matrixWall';
import { WALL_NIGHT_ENDPOINTS } from './matrixWallNight';
import { WALL_RANKING_ENDPOINTS } from './matrixWallRanking';
import { KIOSK_ENDPOINTS } from './matrixKiosk';
import { WALL_READ_ENDPOINTS } from './matrixWallReads';
import {
  DEVICE_ENDPOINTS,
  DEVICE_EXTRA_ENDPOINTS,
  DEVICE_SUMMARY_ENDPOINTS,
  CAMERA_PLAY_ENDPOINTS,
} from './matrixDevices';
import {
  ADMIN,
  ALL,
  byId,
  name,
  newUser,
  per,
  USER_ROLES,
  type Check,
  type Endpoint,
  type Outside,
  type Req,
} from './matrixShared';

// ------------------------------------------------------------ what each manager may touch

/** A user each manager may change: below its role, inside its scope (made fresh per call). */
const ownUser = (f: Fixtures, role: Role) =>
  ({
    admin: () => f.make.user('farm_manager', { farmIds: [f.node.tieling] }),
    company: () => f.make.user('farm_manager', { farmIds: [f.node.tieling] }),
    area: () => f.make.user('farm_manager', { farmIds: [f.node.gaocheng] }),
    farm: () => f.make.user('shack_manager', { shackIds: [f.house.wf4] }),
    shack: () => Promise.resolve(-1),
  })[role]();

/** Users outside each manager's scope, and one above its role. */
const strangers = (build: (f: Fixtures, id: number) => Req): Partial<Record<Role, Outside[]>> => ({
  company: [{ why: 'a user of the other company', build: (f) => build(f, f.user.southFarm) }],
  area: [
    { why: 'a user of a farm it does not manage', build: (f) => build(f, f.user.tielingFarm) },
    { why: 'a user above its role', build: (f) => build(f, f.user.company) },
  ],
  farm: [
    { why: 'a house manager of another farm', build: (f) => build(f, f.user.gaochengShack) },
    { why: 'a user above its role', build: (f) => build(f, f.user.area) },
  ],
});

/** The organisation, user and log rows; the farm and breed rows come from matrixFarms.ts. */
export const ENDPOINTS: Endpoint[] = [
  // ---------------------------------------------------------------- organisations
  {
    method: 'GET',
    path: '/org/list',
    roles: ADMIN,
    inside: { admin: () => ({ url: '/org/list' }) },
  },
  {
    method: 'POST',
    path: '/org/create',
    roles: ADMIN,
    inside: {
      admin: () => ({ url: '/org/create', body: { name: name('Org '), code: name('C') } }),
    },
  },
  {
    method: 'PUT',
    path: '/org/update',
    roles: ADMIN,
    inside: {
      admin: (f) => ({
        url: '/org/update',
        body: { id: f.orgId, name: 'Golden Plains Poultry', code: 'GPP' },
      }),
    },
  },
  {
    method: 'DELETE',
    path: '/org/delete',
    roles: ADMIN,
    inside: { admin: async (f) => ({ url: '/org/delete', ...byId(await f.make.org()) }) },
  },
  {
    method: 'POST',
    path: '/org/uploadLogo',
    roles: ADMIN,
    inside: { admin: (f) => ({ url: `/org/uploadLogo?id=${f.orgId}`, upload: true }) },
  },

  // ---------------------------------------------------------------- users
  {
    method: 'GET',
    path: '/user/list',
    roles: USER_ROLES,
    inside: per(() => ({ url: '/user/list?size=200' }), USER_ROLES),
    check: {
      company: (d, _b, f) => expectNoUser(d, f.user.southFarm, f.user.company),
      area: (d, _b, f) => expectNoUser(d, f.user.tielingFarm, f.user.area),
      farm: (d, _b, f) => expectNoUser(d, f.user.gaochengShack, f.user.area),
    },
  },
  {
    method: 'GET',
    path: '/user/assignable',
    roles: USER_ROLES,
    inside: per(() => ({ url: '/user/assignable' }), USER_ROLES),
    check: {
      farm: (d, _b, f) => {
        const { houses } = d as { houses: { id: number }[] };
        if (houses.some((h) => h.id === f.house.gc1)) throw new Error('offers a house of Gaocheng');
      },
    },
  },
  {
    method: 'POST',
    path: '/user/save',
    roles: USER_ROLES,
    inside: {
      admin: (f) => ({
        url: '/user/save',
        body: newUser('area_manager', { farmIds: [f.node.qingyuan] }),
      }),
      company: (f) => ({
        url: '/user/save',
        body: newUser('farm_manager', { farmIds: [f.node.tieling] }),
      }),
      area: (f) => ({
        url: '/user/save',
        body: newUser('farm_manager', { farmIds: [f.node.gaocheng] }),
      }),
      farm: (f) => ({
        url: '/user/save',
        body: newUser('shack_manager', { shackIds: [f.house.wf4] }),
      }),
    },
    outside: {
      company: [
        {
          why: 'a farm of the other company',
          build: (f) => ({
            url: '/user/save',
            body: newUser('farm_manager', { farmIds: [f.node.qingyuan] }),
          }),
        },
        {
          why: 'its own role',
          build: (f) => ({
            url: '/user/save',
            body: { ...newUser('company_manager', {}), scopeNodeId: f.node.north },
          }),
        },
      ],
      area: [
        {
          why: 'a farm it does not manage',
          build: (f) => ({
            url: '/user/save',
            body: newUser('farm_manager', { farmIds: [f.node.tieling] }),
          }),
        },
        {
          why: 'its own role',
          build: (f) => ({
            url: '/user/save',
            body: newUser('area_manager', { farmIds: [f.node.gaocheng] }),
          }),
        },
      ],
      farm: [
        {
          why: 'a house of another farm',
          build: (f) => ({
            url: '/user/save',
            body: newUser('shack_manager', { shackIds: [f.house.gc1] }),
          }),
        },
        {
          why: 'its own role',
          build: (f) => ({
            url: '/user/save',
            body: newUser('farm_manager', { farmIds: [f.node.weifang] }),
          }),
        },
      ],
    },
  },
  {
    method: 'POST',
    path: '/user/save (update)',
    roles: USER_ROLES,
    inside: per(async (f, role) => {
      const id = await ownUser(f, role);
      const farm = { admin: 'tieling', company: 'tieling', area: 'gaocheng' } as const;
      const body =
        role === 'farm'
          ? newUser('shack_manager', { shackIds: [f.house.wf4] })
          : newUser('farm_manager', { farmIds: [f.node[farm[role as keyof typeof farm]]] });
      return { url: '/user/save', body: { ...body, id, realName: 'Renamed' } };
    }, USER_ROLES),
    outside: strangers((f, id) => ({
      url: '/user/save',
      body: { ...newUser('shack_manager', { shackIds: [f.house.wf4] }), id },
    })),
  },
  {
    method: 'DELETE',
    path: '/user/delete',
    roles: USER_ROLES,
    inside: per(
      async (f, role) => ({ url: '/user/delete', ...byId(await ownUser(f, role)) }),
      USER_ROLES,
    ),
    outside: strangers((_f, id) => ({ url: '/user/delete', ...byId(id) })),
  },
  {
    method: 'PUT',
    path: '/user/resetPwd',
    roles: USER_ROLES,
    inside: per(
      async (f, role) => ({ url: '/user/resetPwd', ...byId(await ownUser(f, role)) }),
      USER_ROLES,
    ),
    outside: strangers((_f, id) => ({ url: '/user/resetPwd', ...byId(id) })),
  },
  {
    method: 'PUT',
    path: '/user/saveUserShacks',
    roles: USER_ROLES,
    inside: per(async (f, role) => {
      const house = {
        admin: f.house.qy1,
        company: f.house.tl1,
        area: f.house.gc1,
        farm: f.house.wf4,
      };
      const h = house[role as keyof typeof house];
      const id = await f.make.user('shack_manager', { shackIds: [h] });
      return {
        url: '/user/saveUserShacks',
        body: { id, roleKey: 'shack_manager', shackIds: [h, f.house.wf1] },
      };
    }, USER_ROLES),
    outside: {
      ...strangers((f, id) => ({
        url: '/user/saveUserShacks',
        body: { id, roleKey: 'shack_manager', shackIds: [f.house.wf4] },
      })),
      company: [
        {
          why: 'a user of the other company',
          build: (f) => ({
            url: '/user/saveUserShacks',
            body: { id: f.user.southFarm, roleKey: 'shack_manager', shackIds: [f.house.wf4] },
          }),
        },
        {
          why: 'a house of the other company',
          build: async (f) => ({
            url: '/user/saveUserShacks',
            body: {
              id: await f.make.user('shack_manager', { shackIds: [f.house.tl1] }),
              roleKey: 'shack_manager',
              shackIds: [f.house.qy1],
            },
          }),
        },
      ],
    },
  },
  {
    method: 'GET',
    path: '/user/searchByShack',
    roles: USER_ROLES,
    inside: per(
      (f, role) => ({
        url: `/user/searchByShack?shackId=${role === 'area' ? f.house.gc1 : f.house.wf1}`,
      }),
      USER_ROLES,
    ),
    outside: {
      company: [
        {
          why: 'a house of the other company',
          build: (f) => ({ url: `/user/searchByShack?shackId=${f.house.qy1}` }),
        },
      ],
      area: [
        {
          why: 'a house of a farm it does not manage',
          build: (f) => ({ url: `/user/searchByShack?shackId=${f.house.tl1}` }),
        },
      ],
      farm: [
        {
          why: 'a house of another farm',
          build: (f) => ({ url: `/user/searchByShack?shackId=${f.house.gc1}` }),
        },
      ],
    },
  },

  // ---------------------------------------------------------------- the API described
  {
    method: 'GET',
    path: '/openapi.json',
    roles: ALL,
    inside: per(() => ({ url: '/openapi.json' }), ALL),
  },

  ...FARM_ENDPOINTS,
  ...REMINDER_ENDPOINTS,
  ...COMPLETENESS_ENDPOINTS,
  ...PRODUCTION_ENDPOINTS,
  ...NOTIFY_ENDPOINTS,
  ...ENVCONTROL_ENDPOINTS,
  ...DEVICE_ENDPOINTS,
  ...DEVICE_SUMMARY_ENDPOINTS,
  ...DEVICE_EXTRA_ENDPOINTS,
  ...UPGRADE_ENDPOINTS,
  ...CAMERA_PLAY_ENDPOINTS,
  ...WALL_ENDPOINTS,
  ...WALL_NIGHT_ENDPOINTS,
  ...WALL_RANKING_ENDPOINTS,
  ...WALL_READ_ENDPOINTS,
  ...KIOSK_ENDPOINTS,

  // ---------------------------------------------------------------- operation log
  {
    method: 'GET',
    path: '/log/list',
    roles: ALL,
    inside: per(() => ({ url: '/log/list?function=matrix.marker' }), ALL),
    check: Object.fromEntries(ALL.map((r) => [r, markersOf(r)])),
  },
  {
    method: 'GET',
    path: '/log/export',
    roles: ALL,
    inside: per(() => ({ url: '/log/export?format=csv&function=matrix.marker' }), ALL),
    check: Object.fromEntries(ALL.map((r) => [r, markersOf(r)])),
  },
];

/** Markers each role's log shows (matrixFixtures writes one about Qingyuan, one about Weifang 4). */
export const MARKERS_SEEN: Record<Role, string[]> = {
  admin: ['Qingyuan marker', 'Weifang 4 marker'],
  company: ['Weifang 4 marker'],
  area: ['Weifang 4 marker'],
  farm: ['Weifang 4 marker'],
  shack: [],
};

/** The log shows a role exactly the markers about houses in its scope. */
function markersOf(role: Role): Check {
  return (_data, body) => {
    for (const marker of MARKERS_SEEN.admin) {
      const shown = body.includes(marker);
      if (shown !== MARKERS_SEEN[role].includes(marker))
        throw new Error(`${shown ? 'shows' : 'hides'} ${marker}`);
    }
  };
}

function expectNoUser(data: unknown, ...ids: number[]): void {
  const { rows } = data as { rows: { id: number }[] };
  const seen = rows.filter((r) => ids.includes(r.id));
  if (seen.length) throw new Error(`lists users ${seen.map((r) => r.id).join(', ')}`);
}
