import type { Locale } from '../../../src/contract/envelope';

/** Server messages of gateway enrolment (Roost Edge), both languages; keys are prefixed `edge.`. */
export const EDGE_MESSAGES = {
  'edge.enrolCodeMade': {
    en: 'Enrolment code made. It works once, for 15 minutes.',
    zh: '注册码已生成，仅可使用一次，15 分钟内有效。',
  },
  'edge.enrolUnknown': {
    en: 'This enrolment code is not known. Check it, or make a new one in the console.',
    zh: '注册码无效。请核对，或在控制台重新生成。',
  },
  'edge.enrolUsed': {
    en: 'This enrolment code has been used already. Make a new one in the console.',
    zh: '注册码已被使用。请在控制台重新生成。',
  },
  'edge.enrolExpired': {
    en: 'This enrolment code has expired (codes work for 15 minutes). Make a new one in the console.',
    zh: '注册码已过期（有效期 15 分钟）。请在控制台重新生成。',
  },
  'edge.enrolThrottled': {
    en: 'Too many wrong enrolment codes. Try again in {minutes} minutes.',
    zh: '注册码错误次数过多，请 {minutes} 分钟后再试。',
  },
  'edge.enrolled': { en: 'Gateway enrolled.', zh: '网关已注册。' },
} as const satisfies Record<string, Record<Locale, string>>;
