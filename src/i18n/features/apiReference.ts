import { type TextTree } from '../textTree';

/**
 * The API reference page (System Manage → API): what an integrator's developer reads.
 * English defines the keys; Chinese must match.
 */
export const apiReferenceEn = {
  intro:
    'Every call this server answers, made from the server itself. Sign in with POST /api/login and send the token as "Authorization: Bearer <token>"; every answer is an envelope {success, code, msg, data}.',
  search: 'Find a call',
  searchPlaceholder: 'path, word or method',
  download: 'Download openapi.json',
  loading: 'Reading the API description…',
  failed: 'The API description could not be read',
  count: '{{shown}} of {{total}} calls',
  none: 'No call matches',
  open: 'Open to anyone',
  operating: 'Operating action',
  operatingHint: "Also needs the user's operation permission",
  parameters: 'Parameters',
  body: 'Body (JSON)',
  answer: 'Answer data',
  answerNull: 'No data (null)',
  file: 'Answers a file: {{types}}',
  columns: {
    name: 'Field',
    type: 'Type',
    required: 'Required',
    limits: 'Values',
    description: 'Meaning',
  },
  yes: 'yes',
  no: 'no',
};

export const apiReferenceZh: TextTree<typeof apiReferenceEn> = {
  intro:
    '本服务器响应的全部接口，由服务器自身生成。用 POST /api/login 登录，并以 “Authorization: Bearer <令牌>” 发送令牌；每个应答都是 {success, code, msg, data} 信封。',
  search: '查找接口',
  searchPlaceholder: '路径、关键字或方法',
  download: '下载 openapi.json',
  loading: '正在读取接口说明…',
  failed: '无法读取接口说明',
  count: '共 {{total}} 个接口，显示 {{shown}} 个',
  none: '没有匹配的接口',
  open: '无需登录',
  operating: '操作类动作',
  operatingHint: '还需要用户的操作权限',
  parameters: '参数',
  body: '请求体（JSON）',
  answer: '应答数据',
  answerNull: '无数据（null）',
  file: '应答为文件：{{types}}',
  columns: {
    name: '字段',
    type: '类型',
    required: '必填',
    limits: '取值',
    description: '含义',
  },
  yes: '是',
  no: '否',
};
