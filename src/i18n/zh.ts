import { adminZh } from './features/admin';
import { alarmsZh } from './features/alarms';
import { envcontrolZh } from './features/envcontrol';
import { devicesZh } from './features/devices';
import { housesZh } from './features/houses';
import { productionZh } from './features/production';
import { remindersZh } from './features/reminders';
import { notifyZh } from './features/notify';
import { wallZh } from './features/wall';
import { type Translation } from './types';

/** Chinese texts: the same keys as `en.ts` (the type refuses a missing or unknown key). */
export const zh: Translation = {
  app: {
    title: '物联网数据管理平台',
    name: 'Roost',
    skipToContent: '跳到正文',
  },
  route: {
    login: '登录',
    notFound: '页面不存在',
    dashboard: '首页',
    shackStatus: '栋舍状态',
    shackOverview: '栋舍总览',
    shackMonitor: '栋舍监控',
    shackCompared: '栋舍对比',
    envControl: '栋舍设置',
    log: '用户日志',
    system: '系统管理',
    orgManage: '组织管理',
    userManage: '用户管理',
    farmManage: '场区管理',
    poultryManage: '品种管理',
    alarmOverview: '报警总览',
    redirect: '正在刷新',
    screen: '报警大屏',
    alarm: '报警管理',
    alarmList: '报警列表',
    alarmSettings: '报警设置',
    production: '日常业务',
    productionInput: '数据录入',
    productionFlocks: '批次与指标',
    productionPower: '电力管理',
    shackManage: '栋舍管理',
  },
  navbar: {
    toggleSidebar: '显示或隐藏菜单',
    home: '返回首页',
    alarms: '当前报警：{{count}} 条。打开栋舍总览',
    fullscreen: '全屏',
    exitFullscreen: '退出全屏',
    fullscreenUnsupported: '您的浏览器不支持全屏',
    language: '语言',
    switchLanguageSuccess: '切换语言成功',
    userMenu: '账户',
    changePassword: '修改密码',
    logout: '退出登录',
  },
  settings: {
    open: '设置',
    title: '设置',
    size: '尺寸',
    sizes: { small: '小', medium: '中', large: '大' },
    tabsView: '以标签显示已打开的页面',
    fixedHeader: '滚动时固定顶栏',
    sidebarLogo: '在菜单中显示标志',
    remembered: '设置保存在本浏览器中。',
  },
  sidebar: {
    label: '主菜单',
  },
  tabs: {
    label: '已打开的页面',
    refresh: '刷新',
    close: '关闭',
    closeOthers: '关闭其他',
    closeAll: '关闭所有',
    closeTab: '关闭{{title}}',
  },
  login: {
    heading: '登录',
    subtitle: '在一处查看您的栋舍、网关和报警。',
    username: '用户名',
    password: '密码',
    code: '验证码',
    captchaAlt: '验证码图片',
    captchaReplace: '点击图片更换验证码',
    captchaUnavailable: '暂无验证码：点击重试',
    submit: '登录',
    usernameRequired: '请输入用户名。',
    passwordTooShort: '密码至少 {{min}} 个字符。',
    codeRequired: '请输入验证码。',
    failed: '登录失败，请重试',
    verificationFailed: '验证失败，请重新登录',
    roleIncorrect: '获取用户信息：用户角色不正确',
    demoHint: '演示：以 admin、company、area、farm 或 shack 登录，密码为 Roost12345。',
    language: '语言',
  },
  password: {
    title: '修改密码',
    oldPassword: '旧密码',
    newPassword: '新密码',
    confirmPassword: '确认新密码',
    oldRequired: '请输入旧密码。',
    required: '请输入新密码。',
    complexity: '密码至少 {{min}} 位，且须包含小写字母、大写字母和数字。',
    confirmRequired: '请再次输入新密码。',
    notSame: '两次输入的密码不一致。',
    rule: '至少 {{min}} 位，须包含小写字母、大写字母和数字。',
    submit: '修改密码',
    confirmTitle: '确定修改密码？',
    confirmText: '本设备保持登录；您在其他地方的登录将失效，需使用新密码重新登录。',
    confirm: '确定修改',
    success: '密码修改成功。',
  },
  common: {
    cancel: '取消',
    close: '关闭',
    removeTag: '移除',
    increment: '增加',
    decrement: '减少',
    loading: '加载中',
  },
  api: {
    network: '无法连接服务器，请检查网络后重试。',
    timeout: '服务器 10 秒内未响应，请重试。',
    badAnswer: '服务器返回了无法识别的内容。',
  },
  errors: {
    title: '页面无法打开',
    description: '加载时出错，重新加载通常可以解决。',
    reload: '重新加载',
  },
  notFound: {
    title: '页面不存在',
    description: '地址可能有误，或者您的角色无权访问此页面。',
    home: '返回首页',
  },
  empty: {
    comingSoon: '将在后续版本中提供',
    dashboard: {
      title: '农场概况一目了然',
      description: '首页将汇总您管理的所有栋舍：在线、报警、空舍的数量以及最新读数。',
    },
    shackOverview: {
      title: '栋舍总览',
      description:
        '每栋舍一张卡片，显示温度、湿度、运行模式和报警，可按状态筛选：全部、在线、离线、报警、空舍、正常。',
    },
    shackMonitor: {
      title: '栋舍监控',
      description: '单个栋舍的实时读数和趋势，随网关上报实时更新。',
    },
    shackCompared: {
      title: '栋舍对比',
      description: '最多六个栋舍的曲线并排显示，对比环境和生产数据。',
    },
    envControl: {
      title: '栋舍设置',
      description: '各栋舍的环境控制设置：目标值、通风和控制器参数，并记录每一次修改。',
    },
    log: {
      title: '用户日志',
      description: 'Roost 中的每一次操作：日期、操作人、功能、栋舍、来源和网络 ID，支持导出。',
    },
    orgManage: {
      title: '组织',
      description: '组织及其联系方式、标志和地图类型（中国或世界）。',
    },
    userManage: {
      title: '用户',
      description: '本组织的用户、角色、操作权限以及可查看的栋舍。',
    },
    farmManage: {
      title: '场区',
      description: '栋舍所属的集团、公司和场区的层级结构。',
    },
    poultryManage: {
      title: '品种',
      description: '品种及其各日龄目标值（温度、湿度、二氧化碳、光照、饮水、采食）和免疫提醒。',
    },
    screen: {
      title: '报警总览大屏',
      description: '显示所有场区及其当前报警的全屏地图，适合大屏展示。',
    },
  },
  houses: housesZh,
  alarms: alarmsZh,
  devices: devicesZh,
  admin: adminZh,
  wall: wallZh,
  reminders: remindersZh,
  production: productionZh,
  notify: notifyZh,
  envcontrol: envcontrolZh,
};
