import type { Locale } from '../../../src/contract/envelope';

/** Server messages of the House Setting feature, both languages; keys are prefixed `envcontrol.`. */
export const ENVCONTROL_MESSAGES = {
  'envcontrol.empty': {
    en: 'The value to send must not be empty: {param}.',
    zh: '发送的值不能为空：{param}。',
  },
  'envcontrol.unknown': {
    en: 'This gateway has no parameter {param}.',
    zh: '该网关没有参数 {param}。',
  },
  'envcontrol.range': {
    en: '{param} must be between {min} and {max}{unit}.',
    zh: '{param} 必须在 {min} 到 {max}{unit} 之间。',
  },
  'envcontrol.step': {
    en: '{param} goes in steps of {step}{unit}.',
    zh: '{param} 的步长为 {step}{unit}。',
  },
  'envcontrol.nothingToSend': {
    en: 'Choose at least one parameter to send.',
    zh: '请至少选择一个要发送的参数。',
  },
  'envcontrol.noGateway': {
    en: 'This house has no gateway.',
    zh: '该栏舍没有网关。',
  },
  'envcontrol.noRemoteConfig': {
    en: 'You may not configure gateways remotely.',
    zh: '您没有远程配置网关的权限。',
  },
  'envcontrol.sent': { en: 'Send success.', zh: '发送成功。' },
} as const satisfies Record<string, Record<Locale, string>>;
