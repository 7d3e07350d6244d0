/** Kiosk links' panels and tour in the role × endpoint matrix: administrators only. */
import type { Fixtures } from './matrixFixtures';
import { ADMIN, name, type Endpoint } from './matrixShared';

/** A live (or revoked) link of every farm, straight in its table, and the edit of its panels. */
const editOf = async (f: Fixtures, revoked: boolean) => {
  const [link] = await f.make.query<{ id: number }>(
    `insert into wall_kiosk_links (name, token_hash, all_farms, created_by_name, revoked_at)
     values ($1, $1, true, 'matrix', ${revoked ? 'now()' : 'null'}) returning id`,
    [name('matrix.kiosk')],
  );
  return {
    url: '/wall/kiosk/layout',
    body: {
      id: link!.id,
      layout: { left: ['night'], right: ['alarms'] },
      tour: { seconds: 30, stops: ['overview', 'night'] },
    },
  };
};

export const KIOSK_ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    path: '/wall/kiosk/layout',
    roles: ADMIN,
    inside: { admin: (f) => editOf(f, false) },
    outside: { admin: [{ why: 'a revoked link', build: (f) => editOf(f, true) }] },
  },
];
