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
  'envcontrol.gatewayOffline': {
    en: 'The gateway is offline: its log can be loaded when it is back online.',
    zh: '网关离线：网关恢复在线后才能加载设备日志。',
  },
  'envcontrol.logNoAnswer': {
    en: 'The gateway did not send its log in time. Try again.',
    zh: '网关未及时返回设备日志，请重试。',
  },
  'envcontrol.recordCol.at': { en: 'Time', zh: '时间' },
  'envcontrol.recordCol.farm': { en: 'Farm', zh: '养殖场' },
  'envcontrol.recordCol.house': { en: 'House', zh: '栏舍' },
  'envcontrol.recordCol.source': { en: 'Source', zh: '来源' },
  'envcontrol.recordCol.operator': { en: 'By', zh: '操作人' },
  'envcontrol.recordCol.parameter': { en: 'Parameter', zh: '参数' },
  'envcontrol.recordCol.old': { en: 'Old value', zh: '原值' },
  'envcontrol.recordCol.new': { en: 'New value', zh: '新值' },
  'envcontrol.recordCol.unit': { en: 'Unit', zh: '单位' },
  'envcontrol.recordSource.console': { en: 'Console', zh: '平台' },
  'envcontrol.recordSource.local': { en: 'At the controller', zh: '控制器本地' },
  'envcontrol.recordSource.controller': { en: 'Controller', zh: '控制器' },
  'envcontrol.logLoaded': { en: 'Load device log successfully.', zh: '加载设备日志成功。' },
} as const satisfies Record<string, Record<Locale, string>>;
