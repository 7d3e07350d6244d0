import type { Locale } from '../../../src/contract/envelope';

/** Server messages of the devices feature, both languages; keys are prefixed `devices.`. */
export const DEVICES_MESSAGES = {
  'devices.saved': { en: 'Saved.', zh: '保存成功。' },
  'devices.deleted': { en: 'Deleted.', zh: '删除成功。' },
  'devices.completed': { en: 'Maintenance recorded.', zh: '维护已记录。' },
  'devices.notFound': { en: 'There is no such device or plan.', zh: '设备或计划不存在。' },
  'devices.noStream': {
    en: 'This camera has no stream address, and no media gateway is set.',
    zh: '该摄像头没有视频流地址，也未配置媒体网关。',
  },
  'devices.streamUnreachable': {
    en: "The camera's media gateway does not answer.",
    zh: '摄像头的媒体网关无响应。',
  },
  'devices.streamNotFound': {
    en: "The media gateway has no such stream: check the camera's stream path (and that the camera is sending).",
    zh: '媒体网关上没有该视频流：请检查摄像头的视频流路径（以及摄像头是否在推流）。',
  },
  'devices.streamAuthRefused': {
    en: 'The media gateway refused to give this stream (it asks for a login or does not allow Roost): check its access settings.',
    zh: '媒体网关拒绝提供该视频流（需要登录或不允许 Roost 访问）：请检查其访问设置。',
  },
  'devices.streamForbidden': {
    en: "This installation does not allow fetching the camera's address (see ROOST_MEDIA_ALLOW).",
    zh: '本系统不允许访问该摄像头的地址（见 ROOST_MEDIA_ALLOW）。',
  },
  'devices.badStreamFile': { en: 'There is no such stream file.', zh: '视频流文件名无效。' },
  'devices.badStreamUrl': {
    en: 'A stream address starts with http:// or https://.',
    zh: '视频流地址须以 http:// 或 https:// 开头。',
  },
  'devices.codeTaken': {
    en: 'This house already has one with this code.',
    zh: '该栏舍已存在此编码。',
  },
  'devices.badCode': {
    en: 'A parameter code is lower-case letters, digits and _, starting with a letter.',
    zh: '参数编码须以小写字母开头，只含小写字母、数字和下划线。',
  },
  'devices.badRange': { en: 'The maximum must be above the minimum.', zh: '最大值须大于最小值。' },
  'devices.badPort': {
    en: 'A control port is the key the controller reports, such as fan_3.',
    zh: '控制端口须为控制器上报的键，例如 fan_3。',
  },
  'devices.duplicateCode': {
    en: 'Two extra parameters have the same code.',
    zh: '两个附加参数的编码相同。',
  },
  'devices.codeIsCatalogue': {
    en: 'The code {code} is already a standard metric or controller port.',
    zh: '编码 {code} 已是标准指标或控制端口。',
  },
  'devices.extraTaken': {
    en: 'Another device of this house already has the parameter {code}.',
    zh: '该栏舍的其他设备已有参数 {code}。',
  },
  'devices.noConcentrator': {
    en: 'Choose a concentrator of the same house.',
    zh: '请选择同一栏舍的集中器。',
  },
  'devices.intervalRequired': { en: 'Enter the interval.', zh: '请输入间隔。' },
  'devices.deviceRequired': {
    en: 'Choose a device of this house.',
    zh: '请选择该栏舍的设备。',
  },
  'devices.dateRequired': { en: 'Enter the planned date.', zh: '请输入计划日期。' },
  'devices.nameExisted': { en: 'Name existed', zh: '名称已存在' },
  'devices.cameraCodeInUse': {
    en: "This camera code is already in use; codes name the camera's folder on the media gateway",
    zh: '该摄像头编码已被使用；编码即摄像头在媒体网关上的目录名',
  },
  'devices.streamOnGateway': {
    en: "A camera's own stream address may not be on the media gateway (ROOST_MEDIA_URL): leave it empty, the gateway is reached by the camera's code.",
    zh: '摄像头自己的视频流地址不能位于媒体网关（ROOST_MEDIA_URL）上：请留空，媒体网关通过摄像头编码访问。',
  },
} as const satisfies Record<string, Record<Locale, string>>;
