import type { Locale } from '../../../src/contract/envelope';

/** Server messages of the operations endpoints (metrics, backup); keys are prefixed `ops.`. */
export const OPS_MESSAGES = {
  'ops.tokenRequired': {
    en: 'Send the operations token as Authorization: Bearer <token>.',
    zh: '请以 Authorization: Bearer <令牌> 发送运维令牌。',
  },
  'ops.backupRunning': {
    en: 'A backup is being taken: try again when it is done.',
    zh: '正在备份：请在完成后再试。',
  },
} as const satisfies Record<string, Record<Locale, string>>;
