import { type TextTree } from '../textTree';

/**
 * The alarm overview wall screen (screenDatav/home). English defines the keys; Chinese must match (its type refuses a missing or unknown
 * key, and tests/i18n lists any difference). Used as `t('wall.…')`.
 */
export const wallEn = {
  title: 'Roost alarm overview',
  counters: {
    total: 'Houses',
    online: 'Online',
    offline: 'Offline',
    alarm: 'In alarm',
    alarmRate: 'Alarm rate',
    alive: 'Alive birds',
    aliveUnit: '×10K',
  },
  state: { alarm: 'Alarm', offline: 'Offline', normal: 'Normal' },
  today: { title: "Today's alarms by cause", empty: 'No alarm raised today' },
  ticker: {
    title: 'Live alarms',
    empty: 'Nothing raised or cleared since the screen opened',
    raised: 'raised',
    cleared: 'cleared',
  },
  fresh: {
    live: 'Live',
    age: 'Data {{age}} old',
    seconds: '{{count}} s',
    minutes: '{{count}} min',
    never: 'Waiting for data',
  },
  stale: 'Data is more than a minute old: reconnecting…',
  map: { loading: 'Loading the map…', world: 'World', china: 'China' },
  drill: {
    whole: 'Whole map',
    farms: '{{count}} farms',
    houses: '{{count}} houses',
    noFarms: 'No farm in this area',
    open: 'Open the house monitor',
    temperature: 'Temp.',
    humidity: 'RH',
  },
  sound: {
    title: 'Alarm sound',
    on: 'Sound on for {{severity}} alarms',
    off: 'Sound off for {{severity}} alarms',
  },
  fullscreen: 'Full screen',
} as const;

export const wallZh: TextTree<typeof wallEn> = {
  title: 'Roost 报警总览',
  counters: {
    total: '栋舍总数',
    online: '在线',
    offline: '离线',
    alarm: '报警',
    alarmRate: '报警率',
    alive: '存栏',
    aliveUnit: '万只',
  },
  state: { alarm: '报警', offline: '离线', normal: '正常' },
  today: { title: '今日报警(按原因)', empty: '今日暂无报警' },
  ticker: {
    title: '实时报警',
    empty: '大屏打开以来暂无报警产生或解除',
    raised: '产生',
    cleared: '解除',
  },
  fresh: {
    live: '实时',
    age: '数据更新于 {{age}} 前',
    seconds: '{{count}} 秒',
    minutes: '{{count}} 分钟',
    never: '等待数据',
  },
  stale: '数据已超过一分钟未更新:正在重新连接…',
  map: { loading: '地图加载中…', world: '世界', china: '中国' },
  drill: {
    whole: '全图',
    farms: '{{count}} 个养殖场',
    houses: '{{count}} 栋舍',
    noFarms: '该区域暂无养殖场',
    open: '打开栋舍监控',
    temperature: '温度',
    humidity: '湿度',
  },
  sound: {
    title: '报警声音',
    on: '{{severity}}报警:声音已开',
    off: '{{severity}}报警:声音已关',
  },
  fullscreen: '全屏',
};
