import { z } from 'zod';

/**
 * The devices of a house: concentrators (the boxes a house's sensors and controllers hang on),
 * terminal devices (a fan, a sensor, a scale …), their maintenance plans and history.
 */

const id = z.coerce.number().int().positive().max(2_147_483_647);
const text = (max: number) => z.string().trim().max(max).default('');

// Status --------------------------------------------------------------------------------------

export const DEVICE_STATUSES = ['online', 'offline', 'fault'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** The part of a house's live state a device's status is read from. */
export interface LiveForStatus {
  online: boolean;
  devices: Record<string, { state: number }>;
}

/** State code 3 is a controller's own error report. */
const ERROR_STATE = 3;

/**
 * A terminal device is offline with its gateway, in fault while the controller reports its
 * control port in error, online otherwise. A device without a control port follows the gateway.
 */
export function terminalStatus(live: LiveForStatus | null, controlPort: string): DeviceStatus {
  if (!live?.online) return 'offline';
  if (controlPort && live.devices[controlPort]?.state === ERROR_STATE) return 'fault';
  return 'online';
}

/** A concentrator is in fault while any device on it is, offline with its gateway. */
export function concentratorStatus(
  live: LiveForStatus | null,
  controlPorts: readonly string[],
): DeviceStatus {
  if (!live?.online) return 'offline';
  return controlPorts.some((port) => terminalStatus(live, port) === 'fault') ? 'fault' : 'online';
}

// Concentrators -------------------------------------------------------------------------------

export const CONCENTRATOR_TYPES = ['sensorGateway', 'transmitter', 'controller'] as const;
export type ConcentratorType = (typeof CONCENTRATOR_TYPES)[number];

export const concentratorInputSchema = z.object({
  houseId: id,
  type: z.enum(CONCENTRATOR_TYPES),
  code: z.string().trim().min(1).max(40),
  name: z.string().trim().min(1).max(60),
  model: text(60),
  address: text(60),
  version: text(40),
});
export type ConcentratorInput = z.input<typeof concentratorInputSchema>;
export const concentratorUpdateSchema = concentratorInputSchema.extend({ id });

export const concentratorSchema = concentratorInputSchema.extend({
  id: z.number().int(),
  houseName: z.string(),
  status: z.enum(DEVICE_STATUSES),
  devices: z.number().int(),
});
export type Concentrator = z.infer<typeof concentratorSchema>;

// Terminal devices ----------------------------------------------------------------------------

/** What a terminal device is; `sensor` and `meter` usually bring extra parameters. */
export const TERMINAL_TYPES = [
  'fan',
  'heater',
  'coolingPad',
  'inlet',
  'light',
  'feeder',
  'sensor',
  'meter',
  'other',
] as const;

/**
 * An extra parameter's code is the metric key its gateway sends: lower-case, and never a
 * catalogue metric's key (the server checks that too).
 */
export const EXTRA_CODE = /^[a-z][a-z0-9_]{0,39}$/;

export const extraParameterSchema = z
  .object({
    code: z.string().trim().regex(EXTRA_CODE, 'devices.badCode'),
    name: z.string().trim().min(1).max(40),
    unit: text(16),
    /** The physical range a reading must fall in; outside it the reading is refused. */
    min: z.number().finite(),
    max: z.number().finite(),
  })
  .refine((v) => v.min < v.max, { message: 'devices.badRange', path: ['max'] });
export type ExtraParameter = z.infer<typeof extraParameterSchema>;

/** A controller port as the gateway names it in its readings' `devices` (`fan_3`). */
const port = z
  .string()
  .trim()
  .regex(/^([a-z_]+_[1-9]\d?)?$/, 'devices.badPort')
  .default('');

export const terminalInputSchema = z.object({
  houseId: id,
  concentratorId: id.nullable().default(null),
  name: z.string().trim().min(1).max(60),
  code: z.string().trim().min(1).max(40),
  controlPort: port,
  currentPort: text(40),
  sensorPort: text(40),
  model: text(60),
  address: text(60),
  canInput: z.boolean().default(false),
  type: z.enum(TERMINAL_TYPES),
  extras: z
    .array(extraParameterSchema)
    .max(20)
    .default([])
    .refine((list) => new Set(list.map((e) => e.code)).size === list.length, {
      message: 'devices.duplicateCode',
    }),
});
export type TerminalInput = z.input<typeof terminalInputSchema>;
export const terminalUpdateSchema = terminalInputSchema.extend({ id });

export const terminalSchema = z.object({
  id: z.number().int(),
  houseId: z.number().int(),
  houseName: z.string(),
  concentratorId: z.number().int().nullable(),
  concentratorName: z.string().nullable(),
  name: z.string(),
  code: z.string(),
  controlPort: z.string(),
  currentPort: z.string(),
  sensorPort: z.string(),
  model: z.string(),
  address: z.string(),
  canInput: z.boolean(),
  type: z.enum(TERMINAL_TYPES),
  extras: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      unit: z.string(),
      min: z.number(),
      max: z.number(),
    }),
  ),
  status: z.enum(DEVICE_STATUSES),
  /** Hours the device has run, counted from its on/off states in the gateway's readings. */
  runHours: z.number(),
});
export type Terminal = z.infer<typeof terminalSchema>;

// Lists ----------------------------------------------------------------------------------------

export const deviceListQuerySchema = z.object({
  houseId: id.optional(),
  /** Matches name, code or model. */
  search: z.string().trim().max(60).optional(),
});

export const idBodySchema = z.object({ id });
export const deletedSchema = z.object({ remaining: z.number().int() });

// Maintenance -----------------------------------------------------------------------------------

export const MAINTENANCE_TYPES = ['replace', 'duration', 'regular'] as const;
export type MaintenanceType = (typeof MAINTENANCE_TYPES)[number];

export const MAINTENANCE_STATES = ['ok', 'due', 'overdue'] as const;
export type MaintenanceState = (typeof MAINTENANCE_STATES)[number];

const isoDate = z.iso.date();

/**
 * A plan: `replace` falls due on its planned date; `regular` on its planned date and then
 * every `interval` days; `duration` after `interval` run hours of its device.
 */
export const maintenancePlanInputSchema = z
  .object({
    houseId: id,
    deviceId: id.nullable().default(null),
    type: z.enum(MAINTENANCE_TYPES),
    content: z.string().trim().min(1).max(100),
    description: text(400),
    plannedDate: isoDate.nullable().default(null),
    interval: z.number().int().min(1).max(100_000).nullable().default(null),
  })
  .refine((v) => v.type === 'replace' || v.interval !== null, {
    message: 'devices.intervalRequired',
    path: ['interval'],
  })
  .refine((v) => v.type !== 'duration' || v.deviceId !== null, {
    message: 'devices.deviceRequired',
    path: ['deviceId'],
  })
  .refine((v) => v.type === 'duration' || v.plannedDate !== null, {
    message: 'devices.dateRequired',
    path: ['plannedDate'],
  });
export type MaintenancePlanInput = z.input<typeof maintenancePlanInputSchema>;
export const maintenancePlanUpdateSchema = maintenancePlanInputSchema.and(z.object({ id }));

export const maintenancePlanSchema = z.object({
  id: z.number().int(),
  houseId: z.number().int(),
  houseName: z.string(),
  deviceId: z.number().int().nullable(),
  deviceName: z.string().nullable(),
  type: z.enum(MAINTENANCE_TYPES),
  content: z.string(),
  description: z.string(),
  plannedDate: z.string().nullable(),
  interval: z.number().int().nullable(),
  /** Run hours since the plan was made or last completed (duration plans). */
  runHours: z.number().nullable(),
  state: z.enum(MAINTENANCE_STATES),
});
export type MaintenancePlan = z.infer<typeof maintenancePlanSchema>;

export const maintenanceCompleteSchema = z.object({ id, notes: text(400) });

export const maintenanceHistorySchema = z.object({
  id: z.number().int(),
  planId: z.number().int().nullable(),
  houseName: z.string(),
  deviceName: z.string().nullable(),
  type: z.enum(MAINTENANCE_TYPES),
  content: z.string(),
  doneAt: z.string(),
  doneBy: z.string(),
  notes: z.string(),
});
export type MaintenanceHistory = z.infer<typeof maintenanceHistorySchema>;

// Shack Manage ---------------------------------------------------------------------------------

/** What the Shack Manage page shows of each house's devices and maintenance. */
export const houseDevicesSummarySchema = z.object({
  houseId: z.number().int(),
  concentrators: z.number().int(),
  terminals: z.number().int(),
  faults: z.number().int(),
  due: z.number().int(),
  overdue: z.number().int(),
});
export type HouseDevicesSummary = z.infer<typeof houseDevicesSummarySchema>;
export const houseDevicesSummariesSchema = z.object({ rows: z.array(houseDevicesSummarySchema) });

// Extra parameters' readings ---------------------------------------------------------------------

export const extraTrendQuerySchema = z.object({
  houseId: id,
  /** Milliseconds since the epoch; at most 7 days apart. */
  from: z.coerce.number().int().nonnegative(),
  to: z.coerce.number().int().nonnegative(),
});

/** Each extra parameter of a house with its readings (raw up to a day, hourly averages beyond). */
export const extraTrendSchema = z.object({
  series: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      unit: z.string(),
      deviceName: z.string(),
      points: z.array(z.object({ t: z.number(), v: z.number() })),
    }),
  ),
});
export type ExtraTrend = z.infer<typeof extraTrendSchema>;

// Answers ---------------------------------------------------------------------------------------

/** A list of one kind of device (or plan) as the Shack Manage page reads it: rows and their count. */
const listOf = <T extends z.ZodType>(row: T) =>
  z.object({ rows: z.array(row), total: z.number().int() });
export const concentratorListSchema = listOf(concentratorSchema);
export const terminalListSchema = listOf(terminalSchema);
export const maintenancePlanListSchema = listOf(maintenancePlanSchema);
export const maintenanceHistoryListSchema = listOf(maintenanceHistorySchema);
/** A completed plan as it now stands; null when it was a one-off replacement, gone once done. */
export const maintenanceCompletedSchema = z.object({ plan: maintenancePlanSchema.nullable() });
