import { z } from 'zod';
import { ALARM_CAUSE_NAMES, ALARM_CAUSES } from './alarms';
import { controllerAlarmWords, subjectName } from './alarmWords';
import { settingsInWords } from './settingWords';
import { isRoleKey, ROLE_KEYS, ROLE_NAMES } from './roles';

/**
 * The operation log stores what happened as keys and parameters, never as sentences, so one
 * entry reads in any language: the console's table and the server's exports both render it
 * here (the server must not load the browser's i18n to do so).
 */

type Lang = 'en' | 'zh';
type Texts = Record<Lang, string>;

/** The console function a change was made in, by its stable key. */
const FUNCTION_TEXTS = {
  'alarm.acknowledge': { en: 'Acknowledge alarm', zh: '确认报警' },
  'alarm.clear': { en: 'Alarm cleared', zh: '报警已清除' },
  'alarm.clearByHand': { en: 'Clear alarm by hand', zh: '手动清除报警' },
  'alarm.raise': { en: 'Alarm raised', zh: '报警产生' },
  'alarm.recur': { en: 'Alarm recurred', zh: '报警再次发生' },
  'alarm.limits': { en: 'Save alarm limits', zh: '保存报警限值' },
  'alarmInput.create': { en: 'Add alarm input', zh: '新增报警输入' },
  'alarmInput.update': { en: 'Edit alarm input', zh: '编辑报警输入' },
  'alarmInput.delete': { en: 'Delete alarm input', zh: '删除报警输入' },
  'alarmPhone.create': { en: 'Add alarm phone', zh: '新增报警电话' },
  'alarmPhone.update': { en: 'Edit alarm phone', zh: '编辑报警电话' },
  'alarmPhone.delete': { en: 'Delete alarm phone', zh: '删除报警电话' },
  'camera.create': { en: 'Add camera', zh: '新增摄像头' },
  'camera.update': { en: 'Edit camera', zh: '编辑摄像头' },
  'camera.delete': { en: 'Delete camera', zh: '删除摄像头' },
  'concentrator.create': { en: 'Add concentrator', zh: '新增集中器' },
  'concentrator.update': { en: 'Edit concentrator', zh: '编辑集中器' },
  'concentrator.delete': { en: 'Delete concentrator', zh: '删除集中器' },
  'terminal.create': { en: 'Add terminal device', zh: '新增终端设备' },
  'terminal.update': { en: 'Edit terminal device', zh: '编辑终端设备' },
  'terminal.delete': { en: 'Delete terminal device', zh: '删除终端设备' },
  'maintenance.create': { en: 'Add maintenance plan', zh: '新增维护计划' },
  'maintenance.update': { en: 'Edit maintenance plan', zh: '编辑维护计划' },
  'maintenance.delete': { en: 'Delete maintenance plan', zh: '删除维护计划' },
  'maintenance.complete': { en: 'Complete maintenance', zh: '完成维护' },
  'breed.copy': { en: 'Copy breed', zh: '复制品种' },
  'breed.create': { en: 'Add breed', zh: '新增品种' },
  'breed.update': { en: 'Edit breed', zh: '编辑品种' },
  'breed.delete': { en: 'Delete breed', zh: '删除品种' },
  'breed.saveImmune': { en: 'Save immune reminders', zh: '保存免疫提醒' },
  'breed.saveTargets': { en: 'Save breed targets', zh: '保存品种标准' },
  'envcontrol.send': { en: 'Send configuration', zh: '发送配置' },
  'farm.create': { en: 'Add farm', zh: '新增养殖场' },
  'farm.update': { en: 'Edit farm', zh: '编辑养殖场' },
  'farm.delete': { en: 'Delete farm', zh: '删除养殖场' },
  'flock.start': { en: 'Start flock', zh: '开始新批次' },
  'flock.close': { en: 'Close flock', zh: '结束批次' },
  'gateway.save': { en: 'Save gateway', zh: '保存网关' },
  'gateway.delete': { en: 'Delete gateway', zh: '删除网关' },
  'gateway.rotateToken': { en: 'Rotate device token', zh: '更换设备令牌' },
  'gateway.enrolCode': { en: 'Enrolment code', zh: '注册码' },
  'gateway.enrol': { en: 'Gateway enrolment', zh: '网关注册' },
  'house.create': { en: 'Add house', zh: '新增栏舍' },
  'house.update': { en: 'Edit house', zh: '编辑栏舍' },
  'house.delete': { en: 'Delete house', zh: '删除栏舍' },
  login: { en: 'Sign in', zh: '登录' },
  'org.create': { en: 'Add organisation', zh: '新增组织' },
  'production.day': { en: 'Enter daily data', zh: '录入日报数据' },
  'production.tariff': { en: 'Save electricity tariff', zh: '保存分时电价' },
  'production.task': { en: 'Daily task', zh: '日常任务' },
  'production.warnings.breed': { en: "Save a breed's early warnings", zh: '保存品种预警限值' },
  'production.warnings.house': { en: "Save a house's early warnings", zh: '保存栏舍预警限值' },
  'org.update': { en: 'Edit organisation', zh: '编辑组织' },
  'org.delete': { en: 'Delete organisation', zh: '删除组织' },
  'org.uploadLogo': { en: 'Upload logo', zh: '上传标志' },
  'user.save': { en: 'Save user', zh: '保存用户' },
  'user.delete': { en: 'Delete user', zh: '删除用户' },
  'user.modifyPwd': { en: 'Change password', zh: '修改密码' },
  'user.resetPwd': { en: 'Reset password', zh: '重置密码' },
  'user.saveUserShacks': { en: 'Assign houses', zh: '分配栏舍' },
  'wall.kioskCreate': { en: 'Create wall link', zh: '创建大屏链接' },
  'wall.kioskRevoke': { en: 'Revoke wall link', zh: '撤销大屏链接' },
  'wall.kiosk.layout': { en: 'Wall link panels and tour', zh: '大屏链接面板与轮播' },
  'notify.silence.create': { en: 'Silence alarm notifications', zh: '静默报警通知' },
  'notify.silence.end': { en: 'End silence', zh: '结束静默' },
  'notify.escalation.save': { en: 'Save escalation level', zh: '保存升级级别' },
  'notify.prefs.save': { en: 'Save notification preferences', zh: '保存通知偏好' },
  'notify.drill.start': { en: 'Start alarm drill', zh: '发起报警演练' },
  'notify.drill.schedule': { en: 'Schedule weekly alarm drill', zh: '设置每周报警演练' },
  'upgrade.uploadFile': { en: 'Upload upgrade file', zh: '上传升级文件' },
  'upgrade.deleteFile': { en: 'Delete upgrade file', zh: '删除升级文件' },
  'upgrade.send': { en: 'Upgrade gateway', zh: '网关升级' },
  'envcontrol.deviceLog': { en: 'Load device log', zh: '加载设备日志' },
} as const satisfies Record<string, Texts>;

export type FunctionKey = keyof typeof FUNCTION_TEXTS;
export const FUNCTION_KEYS = Object.keys(FUNCTION_TEXTS) as [FunctionKey, ...FunctionKey[]];
export const functionKeySchema = z.enum(FUNCTION_KEYS);

/** Operations whose text is fixed: they take no parameters. */
const FIXED_OPERATION_TEXTS = {
  signIn: { en: 'Sign in', zh: '登录' },
  changePassword: { en: 'Change password', zh: '修改密码' },
  createUser: { en: 'Add user', zh: '新增用户' },
  updateUser: { en: 'Edit user', zh: '编辑用户' },
  deleteUser: { en: 'Delete user', zh: '删除用户' },
  resetPassword: { en: 'Reset password', zh: '重置密码' },
  assignHouses: { en: 'Assign houses', zh: '分配栏舍' },
  createOrganisation: { en: 'Add organisation', zh: '新增组织' },
  updateOrganisation: { en: 'Edit organisation', zh: '编辑组织' },
  deleteOrganisation: { en: 'Delete organisation', zh: '删除组织' },
  uploadLogo: { en: 'Upload logo', zh: '上传标志' },
  createGroup: { en: 'Add group', zh: '新增集团' },
  updateGroup: { en: 'Edit group', zh: '编辑集团' },
  deleteGroup: { en: 'Delete group', zh: '删除集团' },
  createCompany: { en: 'Add company', zh: '新增公司' },
  updateCompany: { en: 'Edit company', zh: '编辑公司' },
  deleteCompany: { en: 'Delete company', zh: '删除公司' },
  createFarm: { en: 'Add farm', zh: '新增场区' },
  updateFarm: { en: 'Edit farm', zh: '编辑场区' },
  deleteFarm: { en: 'Delete farm', zh: '删除场区' },
  createHouse: { en: 'Add house', zh: '新增栏舍' },
  updateHouse: { en: 'Edit house', zh: '编辑栏舍' },
  deleteHouse: { en: 'Delete house', zh: '删除栏舍' },
  createGateway: { en: 'Add gateway', zh: '新增网关' },
  updateGateway: { en: 'Edit gateway', zh: '编辑网关' },
  deleteGateway: { en: 'Delete gateway', zh: '删除网关' },
  rotateDeviceToken: { en: 'Rotate device token', zh: '更换设备令牌' },
  createEnrolCode: { en: 'Create enrolment code', zh: '生成注册码' },
  enrolGateway: { en: 'Enrol gateway (new device token)', zh: '网关注册（新设备令牌）' },
  startFlock: { en: 'Start flock', zh: '开始新批次' },
  closeFlock: { en: 'Close flock', zh: '结束批次' },
  createBreed: { en: 'Add breed', zh: '新增品种' },
  updateBreed: { en: 'Edit breed', zh: '编辑品种' },
  deleteBreed: { en: 'Delete breed', zh: '删除品种' },
  copyBreed: { en: 'Copy breed', zh: '复制品种' },
  saveTargets: { en: 'Save per-age targets', zh: '保存日龄标准' },
  saveImmune: { en: 'Save immune reminders', zh: '保存免疫提醒' },
  createKioskLink: { en: 'Create wall link', zh: '创建大屏链接' },
  revokeKioskLink: { en: 'Revoke wall link', zh: '撤销大屏链接' },
  editKioskLayout: { en: 'Edit wall link panels and tour', zh: '编辑大屏链接面板与轮播' },
  uploadUpgradeFile: { en: 'Upload upgrade file', zh: '上传升级文件' },
  deleteUpgradeFile: { en: 'Delete upgrade file', zh: '删除升级文件' },
  loadDeviceLog: { en: 'Load device log', zh: '加载设备日志' },
} as const satisfies Record<string, Texts>;

export type FixedOperationKey = keyof typeof FIXED_OPERATION_TEXTS;
const FIXED_KEYS = Object.keys(FIXED_OPERATION_TEXTS) as [
  FixedOperationKey,
  ...FixedOperationKey[],
];

/** Operations that carry parameters, and the words around them in each language. */
const PARAM_OPERATION_TEXTS = {
  alarm: { en: 'Alarm', zh: '报警' },
  alarmInput: { en: 'Alarm input', zh: '报警输入' },
  alarmPhone: { en: 'Alarm phone', zh: '报警电话' },
  alarmLimits: { en: 'Alarm limits', zh: '报警限值' },
  text: { en: 'Text', zh: '文本' },
  dailyRecord: { en: 'Daily record', zh: '日报记录' },
  flockTask: { en: 'Flock task', zh: '批次任务' },
  warningLimits: { en: 'Early-warning limits', zh: '预警限值' },
  configCommand: { en: 'Configuration command', zh: '配置命令' },
  upgradeCommand: { en: 'Upgrade command', zh: '升级命令' },
} as const satisfies Record<string, Texts>;

export const OPERATION_KEYS = [...FIXED_KEYS, ...Object.keys(PARAM_OPERATION_TEXTS)] as [
  OperationKey,
  ...OperationKey[],
];
export type OperationKey = FixedOperationKey | keyof typeof PARAM_OPERATION_TEXTS;
export const operationKeySchema = z.enum(OPERATION_KEYS);

/** Fixed operations that also say which role the user was given. */
const USER_KEYS = ['createUser', 'updateUser'] as const;
const PLAIN_FIXED_KEYS = FIXED_KEYS.filter(
  (k) => !(USER_KEYS as readonly string[]).includes(k),
) as [FixedOperationKey, ...FixedOperationKey[]];

const idParam = z.number().int();
/** Each operation with the parameters it is recorded with. */
export const operationSchema = z.discriminatedUnion('key', [
  z.object({ key: z.enum(PLAIN_FIXED_KEYS), params: z.object({}).strict() }),
  z.object({ key: z.enum(USER_KEYS), params: z.object({ role: z.enum(ROLE_KEYS) }).strict() }),
  z.object({
    key: z.literal('alarm'),
    params: z.object({ cause: z.string(), metric: z.string().optional(), id: idParam }),
  }),
  z.object({ key: z.literal('alarmInput'), params: z.object({ code: z.string(), id: idParam }) }),
  z.object({ key: z.literal('alarmPhone'), params: z.object({ phone: z.string(), id: idParam }) }),
  // `before`: the settings as they were, where known, so the log can say "35 ℃ → 33 ℃".
  z.object({
    key: z.literal('alarmLimits'),
    params: z.object({ value: z.string(), before: z.string().optional() }),
  }),
  z.object({ key: z.literal('text'), params: z.object({ text: z.string() }) }),
  z.object({
    key: z.literal('warningLimits'),
    params: z.object({ value: z.string(), before: z.string().optional() }),
  }),
  z.object({ key: z.literal('dailyRecord'), params: z.object({ day: z.string(), id: idParam }) }),
  z.object({
    key: z.literal('flockTask'),
    params: z.object({ content: z.string(), state: z.string(), id: idParam }),
  }),
  z.object({
    key: z.literal('configCommand'),
    params: z.object({ command: z.string(), values: z.string(), before: z.string().optional() }),
  }),
  z.object({
    key: z.literal('upgradeCommand'),
    params: z.object({ command: z.string(), version: z.string() }),
  }),
]);
export type Operation = z.infer<typeof operationSchema>;

/** Every key's texts, for tests that check each has both languages. */
export const OPERATION_TEXTS: Record<OperationKey, Texts> = {
  ...FIXED_OPERATION_TEXTS,
  ...PARAM_OPERATION_TEXTS,
};
export const FUNCTION_LABELS: Record<FunctionKey, Texts> = FUNCTION_TEXTS;

const langOf = (locale: string): Lang => (locale.startsWith('zh') ? 'zh' : 'en');

/** A logged function in a language; a key this build does not know as recorded. */
export function functionLabel(key: string, locale: string): string {
  return Object.hasOwn(FUNCTION_TEXTS, key)
    ? FUNCTION_TEXTS[key as FunctionKey][langOf(locale)]
    : key;
}

/** The function keys whose label (in `locale`) or key contains `text`, case-insensitively. */
export function functionKeysMatching(text: string, locale: string): FunctionKey[] {
  const needle = text.trim().toLowerCase();
  return FUNCTION_KEYS.filter(
    (k) =>
      k.toLowerCase().includes(needle) ||
      FUNCTION_TEXTS[k][langOf(locale)].toLowerCase().includes(needle),
  );
}

const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? `${v}` : '');
const beforeOf = (params: Record<string, unknown>) =>
  typeof params.before === 'string' ? params.before : undefined;

/**
 * A recorded operation in a language. Parameters are read leniently (rows come from the
 * database, written by older builds too): a missing one renders empty rather than failing.
 */
export function renderOperation(
  key: string,
  params: Record<string, unknown>,
  locale: string,
): string {
  const lang = langOf(locale);
  const id = str(params.id);
  switch (key) {
    case 'alarm': {
      const cause = str(params.cause);
      const name = (ALARM_CAUSES as readonly string[]).includes(cause)
        ? ALARM_CAUSE_NAMES[lang][cause as keyof (typeof ALARM_CAUSE_NAMES)['en']]
        : cause;
      const subject = str(params.metric);
      const what =
        cause === 'controllerAlarm'
          ? controllerAlarmWords(subject, lang)
          : subjectName(subject, lang);
      return `${name}${subject ? ` · ${what}` : ''} #${id}`;
    }
    case 'alarmInput':
      return `DI ${str(params.code)} #${id}`;
    case 'alarmPhone':
      return `${str(params.phone)} #${id}`;
    case 'alarmLimits':
    case 'warningLimits':
      return settingsInWords(key, str(params.value), beforeOf(params), lang);
    case 'text':
      return str(params.text);
    case 'dailyRecord':
      return `${str(params.day)} #${id}`;
    case 'flockTask': {
      const done = str(params.state) === 'done';
      const state = lang === 'zh' ? (done ? '已完成' : '已跳过') : done ? 'done' : 'skipped';
      return `${str(params.content)} · ${state} #${id}`;
    }
    case 'configCommand':
      return `${settingsInWords(key, str(params.values), beforeOf(params), lang)} #${str(params.command).slice(0, 8)}`;
    case 'upgradeCommand':
      return `${lang === 'zh' ? '升级到' : 'to'} ${str(params.version)} #${str(params.command).slice(0, 8)}`;
    case 'createUser':
    case 'updateUser': {
      // Rows of older builds carry no role (their remark held its key).
      const role = str(params.role);
      const name = isRoleKey(role) ? ` · ${ROLE_NAMES[lang][role]}` : '';
      return `${FIXED_OPERATION_TEXTS[key][lang]}${name}`;
    }
    default:
      return Object.hasOwn(FIXED_OPERATION_TEXTS, key)
        ? FIXED_OPERATION_TEXTS[key as FixedOperationKey][lang]
        : key;
  }
}
