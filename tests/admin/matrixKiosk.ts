/**
 * Kiosk links in the role × endpoint matrix: administrators list, create, revoke and edit them;
 * a link's own token, and nothing else, reads what the link shows (kiosk/self).
 */
import { kioskCreatedSchema, kioskListSchema, kioskSelfSchema } from '../../src/contract/wallKiosk';
import { hashToken } from '../../server/auth/tokens';
import type { Fixtures } from './matrixFixtures';
import { ADMIN, byId, expectAbsent, name, type Endpoint } from './matrixShared';

/** A fresh live (or revoked) link of every farm, straight in its table: to edit or revoke. */
const linkOf = async (f: Fixtures, revoked: boolean) => {
  const [link] = await f.make.query<{ id: number }>(
    `insert into wall_kiosk_links (name, token_hash, all_farms, created_by_name, revoked_at)
     values ($1, $1, true, 'matrix', ${revoked ? 'now()' : 'null'}) returning id`,
    [name('matrix.kiosk')],
  );
  return link!.id;
};

/** The edit of a link's panels and tour. */
const editOf = async (f: Fixtures, revoked: boolean) => ({
  url: '/wall/kiosk/layout',
  body: {
    id: await linkOf(f, revoked),
    layout: { left: ['night'], right: ['alarms'] },
    tour: { seconds: 30, stops: ['overview', 'night'] },
  },
});

/** No link has this id (ids are serials far below it). */
const NO_LINK = 2_000_000_000;

export const KIOSK_ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    path: '/wall/kiosk/layout',
    roles: ADMIN,
    inside: { admin: (f) => editOf(f, false) },
    outside: { admin: [{ why: 'a revoked link', build: (f) => editOf(f, true) }] },
  },
  {
    method: 'GET',
    path: '/wall/kiosk/list',
    roles: ADMIN,
    inside: { admin: () => ({ url: '/wall/kiosk/list' }) },
    // The list names the live link, never a token (nor its hash), nor a revoked link.
    check: {
      admin: (data, body, f) => {
        const ids = kioskListSchema.parse(data).map((l) => l.id);
        if (!ids.includes(f.kiosk.liveId)) throw new Error('the live link is not listed');
        if (ids.includes(f.kiosk.revokedId)) throw new Error('a revoked link is listed');
        expectAbsent(body, f.kiosk.live);
        expectAbsent(body, hashToken(f.kiosk.live));
      },
    },
  },
  {
    method: 'POST',
    path: '/wall/kiosk/create',
    roles: ADMIN,
    // A farm id that is not a farm answers 400 (wall.kioskFarmUnknown), checked by
    // tests/wall/kiosk.test.ts: a refusal of input, not of scope, so no outside row here.
    inside: {
      admin: (f) => ({
        url: '/wall/kiosk/create',
        body: { name: name('Matrix wall '), allFarms: false, farmIds: [f.node.gaocheng] },
      }),
    },
    check: {
      admin: (data, _body, f) => {
        const { link, token } = kioskCreatedSchema.parse(data);
        if (!token.startsWith('rk_')) throw new Error(`not a kiosk token: ${token}`);
        const farms = link.farms.map((x) => x.farmId);
        if (farms.join() !== String(f.node.gaocheng)) throw new Error(`scope ${farms.join()}`);
      },
    },
  },
  {
    method: 'POST',
    path: '/wall/kiosk/revoke',
    roles: ADMIN,
    inside: {
      admin: async (f) => ({ url: '/wall/kiosk/revoke', ...byId(await linkOf(f, false)) }),
    },
    outside: {
      admin: [
        {
          why: 'a link already revoked',
          build: (f) => ({ url: '/wall/kiosk/revoke', ...byId(f.kiosk.revokedId) }),
        },
        { why: 'no such link', build: () => ({ url: '/wall/kiosk/revoke', ...byId(NO_LINK) }) },
      ],
    },
  },
  {
    // A kiosk token's own link, and only a kiosk token's: every signed-in user is refused
    // (wall.kioskOnly) the very request the kiosk makes.
    method: 'GET',
    path: '/wall/kiosk/self',
    roles: [],
    inside: {},
    kiosk: {
      inside: () => ({ url: '/wall/kiosk/self' }),
      check: (data, _body, f) => {
        const self = kioskSelfSchema.parse(data);
        if (self.name !== f.kiosk.name) throw new Error(`shows the link ${self.name}`);
      },
    },
  },
];
