import type { Locale } from '../../src/contract/envelope';
import { fieldName } from './fieldNames';
import { ADMIN_MESSAGES } from './messages/admin';
import { ALARMS_MESSAGES } from './messages/alarms';
import { ENVCONTROL_MESSAGES } from './messages/envcontrol';
import { DEVICES_MESSAGES } from './messages/devices';
import { HOUSES_MESSAGES } from './messages/houses';
import { OPS_MESSAGES } from './messages/ops';
import { PRODUCTION_MESSAGES } from './messages/production';
import { NOTIFY_MESSAGES } from './messages/notify';
import { WALL_MESSAGES } from './messages/wall';
import { UPGRADE_MESSAGES } from './messages/upgrade';
import { EDGE_MESSAGES } from './messages/edge';

/**
 * What the server says to people, in both languages. The keys are also the `message` of zod
 * issues raised by the shared schemas (`password.complexity`, `login.passwordTooShort` ...).
 */
const CORE_MESSAGES = {
  ok: { en: 'OK', zh: '成功' },
  'http.badRequest': { en: 'The request is not valid.', zh: '请求无效。' },
  'http.malformedJson': {
    en: 'The request body is not valid JSON.',
    zh: '请求内容不是有效的 JSON。',
  },
  'http.tooLarge': { en: 'The request is too large.', zh: '请求内容过大。' },
  'http.invalidField': {
    en: 'Check “{field}”: the value is not valid.',
    zh: '请检查“{field}”：填写的值无效。',
  },
  'http.notFound': { en: 'There is nothing at this address.', zh: '请求的地址不存在。' },
  'http.conflict': {
    en: 'This clashes with something already stored: reload and try again.',
    zh: '与已保存的数据冲突，请刷新后重试。',
  },
  'http.unsupportedMediaType': {
    en: 'Send the request body as JSON.',
    zh: '请以 JSON 格式发送请求内容。',
  },
  'http.crossSite': {
    en: 'Requests from another site are refused.',
    zh: '拒绝来自其他站点的请求。',
  },
  'http.busy': {
    en: 'The server is busy. Please try again in a few seconds.',
    zh: '服务器繁忙，请几秒后重试。',
  },
  'http.storageUnavailable': {
    en: 'The server cannot store data right now. Nothing was saved; please try again shortly.',
    zh: '服务器暂时无法保存数据，本次未保存，请稍后重试。',
  },
  'http.internal': {
    en: 'Something went wrong on the server. Please try again.',
    zh: '服务器出错，请重试。',
  },
  'http.tooManyRequests': {
    en: 'Too many requests. Please wait and try again.',
    zh: '请求过于频繁，请稍后再试。',
  },
  'auth.required': { en: 'Please sign in.', zh: '请先登录。' },
  'auth.expired': {
    en: 'Your session has ended. Please sign in again.',
    zh: '登录已失效，请重新登录。',
  },
  'auth.forbidden': { en: 'You are not allowed to do this.', zh: '您没有执行此操作的权限。' },
  'auth.noOperate': {
    en: 'Your account may view but not operate. Ask an administrator for the operation permission.',
    zh: '您的账号只能查看，不能操作。请联系管理员开通操作权限。',
  },
  'login.failed': { en: 'Wrong user name or password.', zh: '用户名或密码错误。' },
  'login.captchaWrong': {
    en: 'The verification code is wrong or has expired.',
    zh: '验证码错误或已过期。',
  },
  'login.throttled': {
    en: 'Too many failed sign-ins. Try again in {minutes} minutes.',
    zh: '登录失败次数过多，请 {minutes} 分钟后再试。',
  },
  'login.usernameRequired': { en: 'Enter your user name.', zh: '请输入用户名。' },
  'login.passwordTooShort': {
    en: 'The password has at least 5 characters.',
    zh: '密码至少 5 个字符。',
  },
  'password.required': { en: 'Enter the new password.', zh: '请输入新密码。' },
  'password.oldRequired': { en: 'Enter the old password.', zh: '请输入旧密码。' },
  'password.oldWrong': { en: 'The old password is wrong.', zh: '旧密码不正确。' },
  'password.complexity': {
    en: 'The password needs at least {min} characters with a lowercase letter, an uppercase letter and a digit.',
    zh: '密码至少 {min} 位，且须包含小写字母、大写字母和数字。',
  },
  'password.changed': { en: 'Password changed.', zh: '密码修改成功。' },
  'ingest.badToken': {
    en: 'Unknown gateway or wrong device token.',
    zh: '网关不存在或设备令牌错误。',
  },
  'ingest.rejected': {
    en: 'Reading refused ({reason}): {detail}',
    zh: '数据被拒绝（{reason}）：{detail}',
  },
  'ingest.stored': { en: 'Reading stored.', zh: '数据已保存。' },
  'ingest.duplicate': { en: 'Reading already stored.', zh: '数据已存在。' },
  'trend.unknownMetric': { en: 'Unknown metric: {metric}.', zh: '未知指标：{metric}。' },
  'trend.tooManyPoints': {
    en: 'That would be {points} points per house (at most {max}): choose a coarser granularity or a shorter window.',
    zh: '每个栏舍将有 {points} 个数据点（最多 {max}）：请选择更粗的粒度或更短的时间段。',
  },
  'trend.metricsRequired': { en: 'Choose at least one metric.', zh: '请至少选择一个指标。' },
  'trend.badRange': { en: 'The start must be before the end.', zh: '开始时间必须早于结束时间。' },
  'logout.done': { en: 'Signed out.', zh: '已退出登录。' },
} as const satisfies Record<string, Record<Locale, string>>;

/** Each feature keeps its messages in messages/<feature>.ts. */
const MESSAGES = {
  ...CORE_MESSAGES,
  ...ADMIN_MESSAGES,
  ...ALARMS_MESSAGES,
  ...NOTIFY_MESSAGES,
  ...DEVICES_MESSAGES,
  ...HOUSES_MESSAGES,
  ...PRODUCTION_MESSAGES,
  ...WALL_MESSAGES,
  ...OPS_MESSAGES,
  ...ENVCONTROL_MESSAGES,
  ...UPGRADE_MESSAGES,
  ...EDGE_MESSAGES,
};

export type MessageKey = keyof typeof MESSAGES;

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(MESSAGES, key);
}

export function translate(
  key: MessageKey,
  locale: Locale,
  params: Record<string, string | number> = {},
): string {
  return MESSAGES[key][locale].replace(/\{(\w+)\}/g, (_, name: string) =>
    // A `field` is a field's key (`noticeTypes`): said by its name in the reader's language.
    name === 'field' && typeof params.field === 'string'
      ? fieldName(params.field, locale)
      : String(params[name] ?? `{${name}}`),
  );
}
