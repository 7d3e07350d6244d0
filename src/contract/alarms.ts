import { z } from 'zod';
import { idSchema, PAGE_MAX } from './ids';

/** What raised an alarm. The console words each cause in the user's language. */
export const ALARM_CAUSES = [
  'temperatureHigh',
  'temperatureLow',
  'humidityHigh',
  'humidityLow',
  'co2High',
  'nh3High',
  'pressureHigh',
  'pressureLow',
  'sensorFault',
  'sensorStuck',
  'gatewayOffline',
  'deviceError',
  'controllerAlarm',
  'diInput',
  'waterDrop',
  'feedOffStandard',
  'weightGainSlow',
  'feedBinLow',
] as const;
export type AlarmCause = (typeof ALARM_CAUSES)[number];

/**
 * Each cause's name, kept here once: the console's texts and the operation log (which the
 * server renders for exports, without the browser's i18n) both read it.
 */
export const ALARM_CAUSE_NAMES = {
  en: {
    temperatureHigh: 'Temperature too high',
    temperatureLow: 'Temperature too low',
    humidityHigh: 'Humidity too high',
    humidityLow: 'Humidity too low',
    co2High: 'CO2 too high',
    nh3High: 'Ammonia too high',
    pressureHigh: 'Static pressure too high',
    pressureLow: 'Static pressure too low',
    sensorFault: 'Sensor fault',
    sensorStuck: 'Sensor stuck',
    gatewayOffline: 'Gateway offline',
    deviceError: 'Device error',
    controllerAlarm: 'Controller alarm',
    diInput: 'Alarm input',
    waterDrop: 'Water down day over day',
    feedOffStandard: 'Feed off the breed standard',
    weightGainSlow: 'Weight gain slowing',
    feedBinLow: 'Feed running out',
  },
  zh: {
    temperatureHigh: '温度过高',
    temperatureLow: '温度过低',
    humidityHigh: '湿度过高',
    humidityLow: '湿度过低',
    co2High: '二氧化碳过高',
    nh3High: '氨气过高',
    pressureHigh: '静压过高',
    pressureLow: '静压过低',
    sensorFault: '传感器故障',
    sensorStuck: '传感器数值不变',
    gatewayOffline: '网关离线',
    deviceError: '设备故障',
    controllerAlarm: '控制器报警',
    diInput: '报警输入',
    waterDrop: '饮水量环比下降',
    feedOffStandard: '采食量偏离品种标准',
    weightGainSlow: '增重放缓',
    feedBinLow: '料塔即将断料',
  },
} as const satisfies Record<'en' | 'zh', Record<AlarmCause, string>>;

export const ALARM_SEVERITIES = ['critical', 'major', 'minor'] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];

/** Lifecycle: active → acknowledged → cleared. */
export const ALARM_STATES = ['active', 'acknowledged', 'cleared'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

/** What an alarm is about: shared by the house's summary and the full alarm. */
const alarmCoreSchema = z.object({
  cause: z.enum(ALARM_CAUSES),
  severity: z.enum(ALARM_SEVERITIES),
  /** The metric or device concerned (`temperature`, `co2`, `fan_3`), when there is one. */
  subject: z.string().nullable(),
  value: z.number().nullable(),
  limit: z.number().nullable(),
  /** Text from the controller (controller alarms, DI inputs); null for Roost's own rules. */
  text: z.string().nullable(),
});

/** The most important open alarm of a house, as its live state carries it. */
export const alarmSummarySchema = alarmCoreSchema.extend({
  /** Someone has acknowledged it (it stays open until its cause ends); absent in older rows. */
  acknowledged: z.boolean().optional(),
});
export type AlarmSummary = z.infer<typeof alarmSummarySchema>;

/** One alarm, on REST and in live events alike. */
export const alarmSchema = alarmCoreSchema.extend({
  id: z.number().int(),
  houseId: z.number().int(),
  houseName: z.string(),
  farmId: z.number().int(),
  farmName: z.string(),
  state: z.enum(ALARM_STATES),
  /** ISO timestamps of each step. */
  raisedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  ackComment: z.string().nullable(),
  clearedAt: z.string().nullable(),
  clearedBy: z.enum(['condition', 'user']).nullable(),
  /** How often the cause came back while this alarm was open (a flapping sensor). */
  occurrences: z.number().int().positive(),
  /** The alarm list only: a silence held its notifications (absent: none did). */
  silenced: z.boolean().optional(),
});
export type Alarm = z.infer<typeof alarmSchema>;

/** Which alarms a list shows: `open` is active or acknowledged. */
export const ALARM_LIST_STATES = ['open', ...ALARM_STATES, 'all'] as const;

const id = idSchema;

/** GET /alarm/list: paging, filters and the time window (raised between `from` and `to`). */
export const alarmListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
  size: z.coerce.number().int().min(1).max(200).default(20),
  farmId: id.optional(),
  houseId: id.optional(),
  cause: z.enum(ALARM_CAUSES).optional(),
  severity: z.enum(ALARM_SEVERITIES).optional(),
  state: z.enum(ALARM_LIST_STATES).default('open'),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export type AlarmListQuery = z.input<typeof alarmListQuerySchema>;

export const alarmAckSchema = z.object({ id, comment: z.string().trim().max(200).optional() });
export const alarmIdSchema = z.object({ id });

/** Causes an operator may clear by hand: Roost cannot always see these end by itself. */
export const MANUALLY_CLEARABLE: readonly AlarmCause[] = [
  'sensorFault',
  'sensorStuck',
  'deviceError',
  'controllerAlarm',
  'diInput',
  'gatewayOffline',
];

/** GET /alarm/today: how many alarms of each cause were raised today in the scope. */
export const alarmTodaySchema = z.array(
  z.object({ cause: z.enum(ALARM_CAUSES), count: z.number().int().nonnegative() }),
);
export type AlarmToday = z.infer<typeof alarmTodaySchema>;

// Alarm phone -----------------------------------------------------------------------------------

export const ALARM_DATE_TYPES = ['daily', 'workdays'] as const;
export const ALARM_PHONE_TYPES = ['phoneAndMessage', 'message', 'phone'] as const;
export const ALARM_PHONE_STATUSES = ['open', 'closed'] as const;
/** Block: the house's climate and air; device: devices, sensors, controller and DI; network: offline. */
export const ALARM_NOTICE_TYPES = ['block', 'device', 'network'] as const;
export type AlarmNoticeType = (typeof ALARM_NOTICE_TYPES)[number];

export const NOTICE_TYPE_OF: Record<AlarmCause, AlarmNoticeType> = {
  temperatureHigh: 'block',
  temperatureLow: 'block',
  humidityHigh: 'block',
  humidityLow: 'block',
  co2High: 'block',
  nh3High: 'block',
  pressureHigh: 'block',
  pressureLow: 'block',
  sensorFault: 'device',
  sensorStuck: 'device',
  deviceError: 'device',
  controllerAlarm: 'device',
  diInput: 'device',
  gatewayOffline: 'network',
  // The house's own production: its flock drinks, eats or grows off its course.
  waterDrop: 'block',
  feedOffStandard: 'block',
  weightGainSlow: 'block',
  feedBinLow: 'block',
};

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'alarms.badTime');

export const alarmPhoneInputSchema = z
  .object({
    farmId: id,
    houseId: id.nullable().default(null),
    phone: z
      .string()
      .trim()
      .regex(/^\+?[0-9 -]{5,20}$/, 'alarms.badPhone'),
    period1Start: clock,
    period1End: clock,
    period2Start: clock.nullable().default(null),
    period2End: clock.nullable().default(null),
    dateType: z.enum(ALARM_DATE_TYPES),
    /** Minutes between repeats; 0 sends once. */
    repeatMinutes: z.number().int().min(0).max(1440),
    closable: z.boolean(),
    alarmType: z.enum(ALARM_PHONE_TYPES),
    delayMinutes: z.number().int().min(0).max(1440),
    status: z.enum(ALARM_PHONE_STATUSES),
    noticeTypes: z.array(z.enum(ALARM_NOTICE_TYPES)).min(1),
    description: z.string().trim().max(200).default(''),
  })
  .refine((v) => (v.period2Start === null) === (v.period2End === null), {
    message: 'alarms.badTime',
    path: ['period2End'],
  });
export type AlarmPhoneInput = z.input<typeof alarmPhoneInputSchema>;
export const alarmPhoneUpdateSchema = alarmPhoneInputSchema.and(z.object({ id }));

export type AlarmPhone = z.output<typeof alarmPhoneInputSchema> & {
  id: number;
  farmName: string;
  houseName: string | null;
};

// Alarm input -----------------------------------------------------------------------------------

export const RELAY_TYPES = ['normallyOpen', 'normallyClosed'] as const;

export const alarmInputInputSchema = z.object({
  gatewayId: id,
  diCode: z.string().trim().min(1).max(40),
  content: z.string().trim().min(1).max(100),
  horn: z.boolean(),
  shieldTest: z.boolean(),
  relayType: z.enum(RELAY_TYPES),
  important: z.boolean(),
});
export type AlarmInputInput = z.input<typeof alarmInputInputSchema>;
export const alarmInputUpdateSchema = alarmInputInputSchema.extend({ id });
export type AlarmInputSetting = z.output<typeof alarmInputInputSchema> & {
  id: number;
  networkId: string;
  houseName: string | null;
};

/** After a delete: how many entries are left (the confirm shows it). */
export interface DeleteResult {
  remaining: number;
}

/** One delivery attempt of a notification. */
export interface NotifyAttempt {
  id: number;
  alarmId: number;
  phone: string;
  channel: string;
  adapter: string;
  try: number;
  at: string;
  ok: boolean;
  detail: string;
}

/**
 * A house's own alarm limits (all optional: a missing one falls back to the breed's target for
 * the flock's age, then to Roost's default). Temperatures are bands around the target in °C.
 */
export const houseAlarmLimitsSchema = z.object({
  /**
   * Raise temperature, humidity, CO2 and NH3 alarms at the controller's own alarm limits (as it
   * last reported them) instead of Roost's; a cause the controller has no limit for keeps Roost's.
   */
  followController: z.boolean().optional(),
  temperatureBandHigh: z.number().min(0.5).max(20).optional(),
  temperatureBandLow: z.number().min(0.5).max(20).optional(),
  temperatureHysteresis: z.number().min(0).max(5).optional(),
  humidityMin: z.number().min(0).max(100).optional(),
  humidityMax: z.number().min(0).max(100).optional(),
  co2Max: z.number().min(0).max(20_000).optional(),
  nh3Max: z.number().min(0).max(500).optional(),
  pressureMin: z.number().min(-500).max(500).optional(),
  pressureMax: z.number().min(-500).max(500).optional(),
  /** A condition must hold this long before it raises an alarm. */
  minDurationSeconds: z.number().int().min(0).max(3600).optional(),
  /** An alarm clears only after its condition has been gone this long. */
  clearHoldSeconds: z.number().int().min(0).max(3600).optional(),
  /** A sensor showing exactly one value this long is stuck. */
  stuckMinutes: z
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .optional(),
});
export type HouseAlarmLimits = z.infer<typeof houseAlarmLimitsSchema>;

/** A house in scope with its farm and gateway: the choices of alarm settings and filters. */
export const alarmPlaceSchema = z.object({
  houseId: z.number().int(),
  houseName: z.string(),
  farmId: z.number().int(),
  farmName: z.string(),
  gatewayId: z.number().int().nullable(),
  networkId: z.string().nullable(),
});
export type AlarmPlace = z.infer<typeof alarmPlaceSchema>;

/** GET /alarm/list: a page of alarms, open ones first. */
export const alarmPageSchema = z.object({
  rows: z.array(alarmSchema),
  total: z.number().int().nonnegative(),
});

/** GET /alarm/attempts: a page of notification attempts, newest first. */
export const notifyAttemptPageSchema = z.object({
  rows: z.array(
    z.object({
      id: z.number().int(),
      alarmId: z.number().int(),
      /** Empty when the alarm phone entry has since been deleted. */
      phone: z.string(),
      channel: z.string(),
      adapter: z.string(),
      try: z.number().int(),
      at: z.string(),
      ok: z.boolean(),
      detail: z.string(),
    }) satisfies z.ZodType<NotifyAttempt>,
  ),
  total: z.number().int().nonnegative(),
});

/** GET /alarm/attempts: every attempt in scope, or one alarm's. */
export const notifyAttemptQuerySchema = z.object({
  alarmId: idSchema.optional(),
  page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
  size: z.coerce.number().int().min(1).max(200).default(50),
});
