import type { Fixtures } from './matrixFixtures';
import {
  ALL,
  FARM_ROLES,
  next,
  outsideHouse as outside,
  per,
  today,
  type Endpoint,
} from './matrixShared';

/** The newest flock of a house (every demo house has one). */
const flockOf = async (f: Fixtures, houseId: number) =>
  Number(
    (
      await f.make.query<{ id: number }>(
        'select id from flocks where house_id = $1 order by placed_on desc, id desc limit 1',
        [houseId],
      )
    )[0]!.id,
  );

const record = (houseId: number) => ({
  houseId,
  day: today(),
  // Each accepted call changes the day's record.
  deathsAm: next(),
  deathsPm: 0,
  cullsAm: 0,
  cullsPm: 0,
  // House 1's demo flock is a day old (20,000 birds): 100 kg is its breed's 5 g a bird, so the
  // save raises no feed warning (an alarm would be a second operation-log row).
  feedKg: 100,
});

/** Daily Business: everyone reads in scope; entering needs canOperate (every demo user has it). */
export const PRODUCTION_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/production/day',
    roles: ALL,
    inside: per((f) => ({ url: `/production/day?farmId=${f.node.weifang}&day=${today()}` }), ALL),
    outside: {
      company: [
        {
          why: 'a farm of the other company',
          build: (f) => ({ url: `/production/day?farmId=${f.node.qingyuan}&day=${today()}` }),
        },
      ],
      area: [
        {
          why: 'a farm it does not manage',
          build: (f) => ({ url: `/production/day?farmId=${f.node.tieling}&day=${today()}` }),
        },
      ],
      shack: [
        {
          why: 'a farm it was given no house of',
          build: (f) => ({ url: `/production/day?farmId=${f.node.gaocheng}&day=${today()}` }),
        },
      ],
      farm: [
        {
          why: 'another farm',
          build: (f) => ({ url: `/production/day?farmId=${f.node.gaocheng}&day=${today()}` }),
        },
      ],
    },
  },
  {
    method: 'POST',
    path: '/production/day',
    roles: ALL,
    inside: per((f) => ({ url: '/production/day', body: { records: [record(f.house.wf1)] } }), ALL),
    outside: outside((houseId) => ({
      url: '/production/day',
      body: { records: [record(houseId)] },
    })),
  },
  {
    method: 'GET',
    path: '/production/month',
    roles: ALL,
    inside: per(
      (f) => ({ url: `/production/month?houseId=${f.house.wf1}&month=${today().slice(0, 7)}` }),
      ALL,
    ),
    outside: outside((houseId) => ({
      url: `/production/month?houseId=${houseId}&month=${today().slice(0, 7)}`,
    })),
  },
  {
    method: 'GET',
    path: '/production/flocks',
    roles: ALL,
    inside: per((f) => ({ url: `/production/flocks?houseId=${f.house.wf1}` }), ALL),
    outside: outside((houseId) => ({ url: `/production/flocks?houseId=${houseId}` })),
  },
  {
    method: 'GET',
    path: '/production/kpi',
    roles: ALL,
    inside: per((f) => ({ url: `/production/kpi?houseId=${f.house.wf1}` }), ALL),
    outside: outside((houseId) => ({ url: `/production/kpi?houseId=${houseId}` })),
  },
  {
    method: 'GET',
    path: '/production/power',
    roles: ALL,
    inside: per((f) => ({ url: `/production/power?houseId=${f.house.wf1}&day=${today()}` }), ALL),
    outside: outside((houseId) => ({ url: `/production/power?houseId=${houseId}&day=${today()}` })),
  },
  {
    method: 'PUT',
    path: '/production/tariff',
    roles: ['admin', 'company'],
    inside: per(
      (f) => ({
        url: '/production/tariff',
        body: {
          orgId: f.orgId,
          hours: Array.from({ length: 24 }, (_, h) =>
            h < 7 ? 'valley' : h < 18 ? 'flat' : 'peak',
          ),
          // A new price each call, so each accepted call changes the tariff.
          prices: { peak: 1 + next() / 1000, flat: 0.7, valley: 0.3 },
        },
      }),
      ['admin', 'company'],
    ),
    outside: {
      company: [
        {
          why: 'the other organisation',
          build: (f) => ({
            url: '/production/tariff',
            body: {
              orgId: f.otherOrgId,
              hours: Array.from({ length: 24 }, () => 'flat'),
              prices: { peak: 1, flat: 1, valley: 1 },
            },
          }),
        },
      ],
    },
  },
  {
    method: 'GET',
    path: '/production/compare',
    roles: ALL,
    inside: per(
      async (f) => ({
        url: `/production/compare?flockId=${await flockOf(f, f.house.wf1)}&with=farm`,
      }),
      ALL,
    ),
    outside: outside(async (houseId, f) => ({
      url: `/production/compare?flockId=${await flockOf(f, houseId)}`,
    })),
  },
  {
    method: 'GET',
    path: '/production/kpi/export',
    roles: ALL,
    inside: per(
      async (f) => ({
        url: `/production/kpi/export?flockId=${await flockOf(f, f.house.wf1)}&format=xlsx`,
      }),
      ALL,
    ),
    outside: outside(async (houseId, f) => ({
      url: `/production/kpi/export?flockId=${await flockOf(f, houseId)}&format=csv`,
    })),
  },
  {
    method: 'GET',
    path: '/production/power/export',
    roles: ALL,
    inside: per(
      (f) => ({ url: `/production/power/export?houseId=${f.house.wf1}&day=${today()}` }),
      ALL,
    ),
    outside: outside((houseId) => ({
      url: `/production/power/export?houseId=${houseId}&day=${today()}&format=csv`,
    })),
  },
  {
    method: 'GET',
    path: '/production/power/month',
    roles: ALL,
    inside: per(
      (f) => ({
        url: `/production/power/month?houseId=${f.house.wf1}&month=${today().slice(0, 7)}`,
      }),
      ALL,
    ),
    outside: outside((houseId) => ({
      url: `/production/power/month?houseId=${houseId}&month=${today().slice(0, 7)}`,
    })),
  },
  {
    method: 'GET',
    path: '/production/tariff',
    roles: ['admin', 'company'],
    inside: per((f) => ({ url: `/production/tariff?orgId=${f.orgId}` }), ['admin', 'company']),
    outside: {
      company: [
        {
          why: 'the other organisation',
          build: (f) => ({ url: `/production/tariff?orgId=${f.otherOrgId}` }),
        },
      ],
    },
  },
  {
    method: 'GET',
    path: '/production/warnings/house',
    roles: ALL,
    inside: per((f) => ({ url: `/production/warnings/house?houseId=${f.house.wf1}` }), ALL),
    outside: outside((houseId) => ({ url: `/production/warnings/house?houseId=${houseId}` })),
  },
  {
    method: 'PUT',
    path: '/production/warnings/house',
    roles: ALL,
    inside: per(
      (f) => ({
        url: '/production/warnings/house',
        // A new limit each call, so each accepted call changes the override.
        body: { houseId: f.house.wf1, limits: { waterDropPct: 30 + (next() % 50) } },
      }),
      ALL,
    ),
    outside: outside((houseId) => ({
      url: '/production/warnings/house',
      body: { houseId, limits: { waterDrop: false } },
    })),
  },
  {
    method: 'GET',
    path: '/production/warnings/breed',
    roles: FARM_ROLES,
    inside: per((f) => ({ url: `/production/warnings/breed?breedId=${f.breed.own}` }), FARM_ROLES),
    outside: {
      company: [
        {
          why: "another organisation's breed",
          build: (f) => ({ url: `/production/warnings/breed?breedId=${f.breed.other}` }),
        },
      ],
    },
  },
  {
    method: 'PUT',
    path: '/production/warnings/breed',
    roles: FARM_ROLES,
    inside: per(
      (f) => ({
        url: '/production/warnings/breed',
        body: { breedId: f.breed.own, limits: { feedOffPct: 5 + (next() % 50) } },
      }),
      FARM_ROLES,
    ),
    outside: {
      admin: [
        {
          why: 'a common (read-only) breed',
          build: (f) => ({
            url: '/production/warnings/breed',
            body: { breedId: f.breed.common, limits: { feedOffPct: 20 } },
          }),
        },
      ],
      company: [
        {
          why: "another organisation's breed",
          build: (f) => ({
            url: '/production/warnings/breed',
            body: { breedId: f.breed.other, limits: { feedOffPct: 20 } },
          }),
        },
      ],
    },
  },
];
