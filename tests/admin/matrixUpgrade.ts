import { ADMIN, type Endpoint } from './matrixShared';

/** Gateway upgrade files: administrators only; every other role answers 403. */
export const UPGRADE_ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    path: '/upgrade/uploadFile',
    roles: ADMIN,
    inside: { admin: () => ({ url: '/upgrade/uploadFile?version=1.0.0', upload: true }) },
  },
  {
    method: 'GET',
    path: '/upgrade/files',
    roles: ADMIN,
    inside: { admin: () => ({ url: '/upgrade/files' }) },
  },
];
