import type { Locale } from '../../../src/contract/envelope';

/** Server messages of this feature, both languages; keys are prefixed `admin.`. */
export const ADMIN_MESSAGES = {
  'admin.saved': { en: 'Saved.', zh: '保存成功。' },
  'admin.deleted': { en: 'Deleted.', zh: '删除成功。' },
  'admin.resetDone': { en: 'Password reset.', zh: '重置成功。' },
  'admin.nameRequired': { en: 'Enter a name.', zh: '请输入名称。' },
  'admin.codeRequired': { en: 'Enter a code.', zh: '请输入编码。' },
  'admin.emailInvalid': { en: 'The email address is not valid.', zh: '邮箱格式不正确。' },
  'admin.usernameRequired': { en: 'Enter a login name.', zh: '请输入登录名。' },
  'admin.usernameInvalid': {
    en: 'A login name uses letters, digits and . _ @ - only.',
    zh: '登录名只能包含字母、数字和 . _ @ -。',
  },
  'admin.usernameTaken': { en: 'This login name is taken.', zh: '该登录名已存在。' },
  'admin.roleInvalid': { en: 'Choose a valid role.', zh: '请选择有效的角色。' },
  'admin.roleNotBelow': {
    en: 'You can only manage users with a role below your own.',
    zh: '只能管理角色低于自己的用户。',
  },
  'admin.outOfScope': {
    en: 'This is outside the part of the organisation you manage.',
    zh: '超出了您的管理范围。',
  },
  'admin.notFound': {
    en: 'It does not exist, or you cannot see it.',
    zh: '记录不存在或无权查看。',
  },
  'admin.passwordRequired': {
    en: 'Enter a password for the new user.',
    zh: '请为新用户输入密码。',
  },
  'admin.assignmentRequired': {
    en: 'Choose what this user looks after (a company, farms or houses).',
    zh: '请为该用户分配管理范围（公司、场区或栏舍）。',
  },
  'admin.cannotDeleteSelf': { en: 'You cannot delete yourself.', zh: '不能删除自己。' },
  'admin.codeTaken': { en: 'This code is taken.', zh: '该编码已存在。' },
  'admin.orgHasChildren': {
    en: 'This organisation still has {farms} farm nodes and {users} users: delete or move them first.',
    zh: '该组织下仍有 {farms} 个场区节点和 {users} 个用户，请先删除或移走。',
  },
  'admin.farmHasChildren': {
    en: 'This node still has {nodes} child nodes and {houses} houses: delete them first.',
    zh: '该节点下仍有 {nodes} 个子节点和 {houses} 个栏舍，请先删除。',
  },
  'admin.houseHasGateway': {
    en: 'This house still has a gateway or an open flock: remove them first.',
    zh: '该栏舍仍有网关或未结束的批次，请先移除。',
  },
  'admin.levelInvalid': { en: 'Choose group, company or farm.', zh: '请选择集团、公司或场区。' },
  'admin.parentInvalid': {
    en: 'A group has no parent, a company sits under a group, a farm under a company.',
    zh: '集团没有上级，公司属于集团，场区属于公司。',
  },
  'admin.provinceInvalid': { en: 'The province code is not valid.', zh: '省份编码无效。' },
  'admin.coordinates': {
    en: 'Longitude is −180…180 and latitude −90…90.',
    zh: '经度范围 −180…180，纬度范围 −90…90。',
  },
  'admin.networkIdInvalid': {
    en: 'A network id has 3–32 letters, digits, _ or -.',
    zh: '网络 ID 为 3–32 位字母、数字、_ 或 -。',
  },
  'admin.networkIdTaken': { en: 'This network id is taken.', zh: '该网络 ID 已存在。' },
  'admin.tooManyTaken': {
    en: 'Too many names already taken were tried. Try again in an hour.',
    zh: '尝试了过多已被占用的名称，请一小时后再试。',
  },
  'admin.gatewayTypeInvalid': { en: 'Choose a gateway type.', zh: '请选择网关类型。' },
  'admin.houseHasOtherGateway': {
    en: 'This house already has a gateway.',
    zh: '该栏舍已有网关。',
  },
  'admin.dateInvalid': { en: 'The date is not valid (YYYY-MM-DD).', zh: '日期格式不正确。' },
  'admin.headCountInvalid': { en: 'The head count is at least 1.', zh: '数量至少为 1。' },
  'admin.flockOpen': {
    en: 'This house has an open flock: close it before starting the next.',
    zh: '该栏舍有未结束的批次，请先结束再开始新批次。',
  },
  'admin.noOpenFlock': { en: 'This house has no open flock.', zh: '该栏舍没有进行中的批次。' },
  'admin.closeBeforePlacement': {
    en: 'A flock cannot close before its placement date.',
    zh: '结束日期不能早于入栏日期。',
  },
  'admin.commonReadOnly': {
    en: 'Common breeds are read-only: copy it to change it.',
    zh: '通用品种为只读，请复制后修改。',
  },
  'admin.breedInUse': {
    en: 'This breed is used by {flocks} flocks.',
    zh: '该品种正被 {flocks} 个批次使用。',
  },
  'admin.ageRepeated': { en: 'Each age appears once.', zh: '每个日龄只能出现一次。' },
  'admin.contentRequired': { en: 'Enter the content.', zh: '请输入内容。' },
  'admin.logoMissing': { en: 'Choose a PNG file.', zh: '请选择 PNG 文件。' },
  'admin.logoNotPng': { en: 'The logo must be a PNG image.', zh: 'Logo 只能是 PNG 图片。' },
  'admin.logoTooLarge': { en: 'The logo is larger than 2 MB.', zh: 'Logo 不能超过 2MB。' },
  'admin.exportConfirm': {
    en: '{rows} rows: more than {warn}. Confirm to export them all.',
    zh: '共 {rows} 行，超过 {warn} 行。确认后再全部导出。',
  },
  'admin.exportTooLarge': {
    en: 'More than {max} rows: narrow the filters.',
    zh: '超过 {max} 行，请缩小筛选范围。',
  },
  'admin.logCol.at': { en: 'Date', zh: '日期' },
  'admin.logCol.operator': { en: 'Operator', zh: '操作人' },
  'admin.logCol.function': { en: 'Function', zh: '功能' },
  'admin.logCol.house': { en: 'House', zh: '栏舍' },
  'admin.logCol.operation': { en: 'Operation', zh: '操作' },
  'admin.logCol.remark': { en: 'Remark', zh: '备注' },
  'admin.logCol.source': { en: 'Source', zh: '来源' },
  'admin.logCol.networkId': { en: 'Network ID', zh: '网络 ID' },
  'admin.source.computer': { en: 'Computer', zh: '电脑' },
  'admin.source.mobile': { en: 'Mobile', zh: '手机' },
  'admin.source.other': { en: 'Other', zh: '其他' },
} as const satisfies Record<string, Record<Locale, string>>;
