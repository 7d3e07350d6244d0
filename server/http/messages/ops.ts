import type { Locale } from '../../../src/contract/envelope';

/** Server messages of the operations endpoints (metrics, backup); keys are prefixed `ops.`. */
export const OPS_MESSAGES = {
  'ops.tokenRequired': {
    en: 'Send the operations token as Authorization: Bearer <token>.',
    zh: '请以 Authorization: Bearer <令牌> 发送运维令牌。',
  },
  'ops.backupPostgres': {
    en: 'This server uses PostgreSQL: back it up with pg_dump or continuous archiving (see the README).',
    zh: '本服务器使用 PostgreSQL：请用 pg_dump 或连续归档备份（见 README）。',
  },
  'ops.backupRunning': {
    en: 'A backup is being taken: try again when it is done.',
    zh: '正在备份：请在完成后再试。',
  },
} as const satisfies Record<string, Record<Locale, string>>;
