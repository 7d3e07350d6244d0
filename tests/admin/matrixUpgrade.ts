import { randomBytes } from 'node:crypto';
import { GATEWAY_TYPES } from '../../src/contract/gatewayTypes';
import type { Fixtures, Role } from './matrixFixtures';
import { ADMIN, ALL, next, outsideHouse, per, type Endpoint } from './matrixShared';

/** The demo gives remote configuration (and so upgrades) to the administrator and the company manager. */
const SENDERS: readonly Role[] = ['admin', 'company'];

/** A stored upgrade file of a version no demo gateway runs, for every type of gateway there is. */
async function storedFile(f: Fixtures): Promise<string> {
  const sha256 = randomBytes(32).toString('hex');
  await f.make.query(
    `insert into upgrade_files (sha256, version, file_name, size, type_keys)
     values ($1, $2, 'matrix-fw', 1, $3::int[])`,
    [sha256, `9.0.${next()}`, Object.keys(GATEWAY_TYPES).map(Number)],
  );
  return sha256;
}
const send = async (houseId: number, f: Fixtures) => ({
  url: '/upgrade/send',
  body: { houseIds: [houseId], sha256: await storedFile(f) },
});

/**
 * Gateway upgrade files: administrators upload and list them; every role may see what can be
 * sent; remote configurers send them to gateways of their scope. (The download is public:
 * a gateway's own device token and a single-use link, tests/upgrade/commands.test.ts.)
 */
export const UPGRADE_ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    path: '/upgrade/uploadFile',
    roles: ADMIN,
    inside: {
      admin: () => ({
        url: '/upgrade/uploadFile?version=1.0.0&typeKeys=25',
        upload: true,
        fileName: 'matrix_fw',
      }),
    },
  },
  {
    method: 'GET',
    path: '/upgrade/files',
    roles: ADMIN,
    inside: { admin: () => ({ url: '/upgrade/files' }) },
  },
  {
    method: 'POST',
    path: '/upgrade/deleteFile',
    roles: ADMIN,
    inside: {
      admin: async (f) => ({ url: '/upgrade/deleteFile', body: { sha256: await storedFile(f) } }),
    },
  },
  {
    method: 'GET',
    path: '/upgrade/choices',
    roles: ALL,
    inside: per(() => ({ url: '/upgrade/choices' }), ALL),
  },
  {
    method: 'POST',
    path: '/upgrade/send',
    roles: SENDERS,
    inside: per((f) => send(f.house.wf1, f), SENDERS),
    outside: outsideHouse(send, SENDERS),
  },
];
