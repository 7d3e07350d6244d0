import { z } from 'zod';
import { gatewayKind, isGatewayTypeKey } from './gatewayTypes';
import { commandUpgradeSchema } from './upgrade';
import { pagedSchema } from './paged';

/**
 * The house controllers' parameters, their sets per kind of gateway, and the commands that
 * carry a change to a gateway. Browser and server validate with the same catalogue, so a value
 * the console refuses is refused by the API with the same message.
 */

type Texts = { en: string; zh: string };

export const PARAM_GROUPS = [
  'curve',
  'climate',
  'minVent',
  'ventilation',
  'alarmLimits',
  'lighting',
  'feeding',
] as const;
export type ParamGroup = (typeof PARAM_GROUPS)[number];

export interface ParamSpec {
  key: string;
  group: ParamGroup;
  unit: string;
  min: number;
  max: number;
  step: number;
  label: Texts;
}

const p = (
  key: string,
  group: ParamGroup,
  unit: string,
  [min, max, step]: [number, number, number],
  en: string,
  zh: string,
): ParamSpec => ({ key, group, unit, min, max, step, label: { en, zh } });

/** Days of age that carry a point of the temperature curve (the controller interpolates). */
export const CURVE_DAYS = [1, 7, 14, 21, 28, 35, 42] as const;

export const PARAMS: readonly ParamSpec[] = [
  ...CURVE_DAYS.map((day) =>
    p(
      `curve_temp_d${day}`,
      'curve',
      '℃',
      [10, 40, 0.1],
      `Target temperature, day ${day}`,
      `第${day}日龄目标温度`,
    ),
  ),
  p('heat_offset', 'climate', '℃', [0, 5, 0.1], 'Heating offset', '加热偏差'),
  p('cool_offset', 'climate', '℃', [0, 10, 0.1], 'Cooling offset', '降温偏差'),
  p('minvent_on_s', 'minVent', 's', [0, 600, 5], 'Min. ventilation on', '最小通风开启时间'),
  p('minvent_off_s', 'minVent', 's', [0, 1200, 5], 'Min. ventilation off', '最小通风关闭时间'),
  p('minvent_fans', 'minVent', '', [0, 20, 1], 'Min. ventilation fan stages', '最小通风风机级数'),
  p('vent_level_max', 'ventilation', '', [1, 20, 1], 'Highest ventilation level', '最高通风级别'),
  p('inlet_open_pct', 'ventilation', '%', [0, 100, 1], 'Inlet opening', '进风口开度'),
  p('alarm_temp_high', 'alarmLimits', '℃', [10, 45, 0.5], 'High temperature', '高温报警'),
  p('alarm_temp_low', 'alarmLimits', '℃', [0, 35, 0.5], 'Low temperature', '低温报警'),
  p('alarm_humidity_high', 'alarmLimits', '%', [30, 100, 1], 'High humidity', '高湿报警'),
  p('alarm_humidity_low', 'alarmLimits', '%', [0, 80, 1], 'Low humidity', '低湿报警'),
  p('alarm_co2_high', 'alarmLimits', 'ppm', [500, 10000, 100], 'High CO2', '二氧化碳高报警'),
  p('alarm_nh3_high', 'alarmLimits', 'ppm', [5, 100, 1], 'High NH3', '氨气高报警'),
  p('alarm_pressure_high', 'alarmLimits', 'Pa', [0, 100, 1], 'High static pressure', '静压高报警'),
  p('alarm_pressure_low', 'alarmLimits', 'Pa', [0, 100, 1], 'Low static pressure', '静压低报警'),
  p('light_on_hour', 'lighting', 'h', [0, 23, 1], 'Lights on at', '开灯时间'),
  p('light_hours', 'lighting', 'h', [0, 24, 0.5], 'Light hours a day', '每日光照时长'),
  p('light_intensity', 'lighting', 'lx', [0, 100, 1], 'Light intensity', '光照强度'),
  p('feed_hour_1', 'feeding', 'h', [0, 23, 1], 'First feeding at', '第一次喂料时间'),
  p('feed_hour_2', 'feeding', 'h', [0, 23, 1], 'Second feeding at', '第二次喂料时间'),
  p('feed_hour_3', 'feeding', 'h', [0, 23, 1], 'Third feeding at', '第三次喂料时间'),
];

export const PARAM_BY_KEY: ReadonlyMap<string, ParamSpec> = new Map(PARAMS.map((s) => [s.key, s]));

/**
 * Which parameter groups a gateway type supports. Environment controllers run the whole
 * climate programme; collectors (iEC Press, F0402, control gateway) and the alarm unit only
 * measure, so they hold alarm limits and nothing they could act on.
 */
export function paramGroupsOf(typeKey: number): readonly ParamGroup[] {
  if (!isGatewayTypeKey(typeKey)) return [];
  return gatewayKind(typeKey) === 'controller' ? PARAM_GROUPS : ['alarmLimits'];
}

export function paramsOfType(typeKey: number): ParamSpec[] {
  const groups = paramGroupsOf(typeKey);
  return PARAMS.filter((s) => groups.includes(s.group));
}

/** Values as the gateway holds them. */
export const paramValuesSchema = z.record(z.string(), z.number());
export type ParamValues = z.infer<typeof paramValuesSchema>;

export type ParamIssue = { key: string; message: 'empty' | 'unknown' | 'range' | 'step' };

/** Why a value may not be sent, or null. Empty is refused (a value to send must not be empty). */
export function checkParam(typeKey: number, key: string, value: unknown): ParamIssue | null {
  const spec = PARAM_BY_KEY.get(key);
  if (!spec || !paramGroupsOf(typeKey).includes(spec.group)) return { key, message: 'unknown' };
  if (value === null || value === undefined || value === '') return { key, message: 'empty' };
  if (typeof value !== 'number' || !Number.isFinite(value)) return { key, message: 'empty' };
  if (value < spec.min || value > spec.max) return { key, message: 'range' };
  // Steps are checked in whole hundredths: 0.1 steps are not exact in binary.
  const steps = Math.round((value - spec.min) * 100) % Math.round(spec.step * 100);
  if (steps !== 0) return { key, message: 'step' };
  return null;
}

/** Commands a gateway receives: configuration today; upgrades and log requests share the states. */
export const COMMAND_KINDS = ['config', 'upgrade', 'log'] as const;
export const COMMAND_STATES = [
  'queued',
  'sent',
  'applied',
  'rejected',
  'expired',
  'superseded',
] as const;
export type CommandState = (typeof COMMAND_STATES)[number];
/** States a command never leaves. */
export const FINAL_STATES: readonly CommandState[] = [
  'applied',
  'rejected',
  'expired',
  'superseded',
];

export const commandSchema = z.object({
  id: z.string(),
  houseId: z.number().int(),
  houseName: z.string(),
  networkId: z.string(),
  kind: z.enum(COMMAND_KINDS),
  state: z.enum(COMMAND_STATES),
  /** Values asked for. */
  params: paramValuesSchema,
  /** Values the gateway read back after applying them. */
  readBack: paramValuesSchema.nullable(),
  /** The gateway's reason for a rejection, or why the server gave up (expired, superseded). */
  reason: z.string().nullable(),
  requestedBy: z.string(),
  /** ISO timestamps. */
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string(),
  /** An upgrade command's file, versions and progress (absent for other kinds). */
  upgrade: commandUpgradeSchema.nullable().optional(),
});
export type Command = z.infer<typeof commandSchema>;

/** A command changed state: sent live to every console whose scope holds the house. */
export const commandUpdatedSchema = commandSchema;

/**
 * A gateway's own report changed what House Setting shows (config/report: a value changed at
 * the controller's keypad, its whole set on connecting, the firmware version it runs): sent
 * live as `gateway:reported` to every console whose scope holds the house.
 */
export const gatewayReportedSchema = z.object({
  houseId: z.number().int(),
  /** The whole stored set after the report, and when it was stored; null: unchanged. */
  params: paramValuesSchema.nullable(),
  reportedAt: z.string().nullable(),
  /** The version the gateway says it runs now; null: unchanged. */
  version: z.string().nullable(),
});
export type GatewayReported = z.infer<typeof gatewayReportedSchema>;

/** Longest a command may wait for its gateway; the default is the server's (README). */
export const MAX_EXPIRY_SECONDS = 7 * 24 * 3600;

/** POST /envcontrol/send: one change to one or many houses. */
export const sendConfigSchema = z.object({
  houseIds: z.array(z.number().int().positive()).min(1).max(1000),
  params: z.record(z.string(), z.number().nullable()),
  expiresInSeconds: z.number().int().min(5).max(MAX_EXPIRY_SECONDS).optional(),
});
export type SendConfig = z.infer<typeof sendConfigSchema>;

export const houseQuerySchema = z.object({ houseId: z.coerce.number().int().positive() });

export const gatewayDetailsSchema = z.object({
  houseId: z.number().int(),
  houseName: z.string(),
  farmId: z.number().int(),
  farmName: z.string(),
  province: z.string(),
  breedName: z.string().nullable(),
  gateway: z
    .object({
      networkId: z.string(),
      typeKey: z.number().int(),
      version: z.string(),
      simCard: z.string(),
      number: z.string(),
      online: z.boolean(),
      network: z.string().nullable(),
      onlineSince: z.string().nullable(),
    })
    .nullable(),
  /** The gateway's last reported parameters, and when. */
  params: paramValuesSchema,
  reportedAt: z.string().nullable(),
  /** Groups this gateway's type supports. */
  groups: z.array(z.enum(PARAM_GROUPS)),
  /** The caller may send changes (canOperate and remote configuration). */
  canSend: z.boolean(),
  /** The latest commands of the house, newest first. */
  commands: z.array(commandSchema),
  /** Online log, newest first. */
  onlineLog: z.array(
    z.object({ at: z.string(), online: z.boolean(), network: z.string().nullable() }),
  ),
});
export type GatewayDetails = z.infer<typeof gatewayDetailsSchema>;

export const PARAM_SOURCES = ['console', 'local'] as const;

export const paramChangeSchema = z.object({
  id: z.number().int(),
  houseId: z.number().int(),
  /** The house's farm: two farms often have a "House 1" each. */
  farmName: z.string(),
  houseName: z.string(),
  at: z.string(),
  source: z.enum(PARAM_SOURCES),
  operator: z.string(),
  key: z.string(),
  oldValue: z.number().nullable(),
  newValue: z.number(),
});
export type ParamChange = z.infer<typeof paramChangeSchema>;

export const paramChangeQuerySchema = z.object({
  houseId: z.coerce.number().int().positive().optional(),
  source: z.enum(PARAM_SOURCES).optional(),
  page: z.coerce.number().int().positive().default(1),
  size: z.coerce.number().int().positive().max(200).default(50),
  /** Who made the change: part of the operator's name. */
  operator: z.string().trim().max(64).optional(),
  /** One parameter of the catalogue. */
  key: z.string().max(64).optional(),
  /** Changes at or after / before these instants. */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});

/** GET /envcontrol/records/export: the same filters, every matching row as CSV. */
export const paramChangeExportQuerySchema = paramChangeQuerySchema.omit({ page: true, size: true });
/** At most this many rows in one export. */
export const PARAM_CHANGE_EXPORT_MAX = 100_000;

export const paramChangeListSchema = pagedSchema(paramChangeSchema);
