import { z } from 'zod';

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
] as const;
export type AlarmCause = (typeof ALARM_CAUSES)[number];

export const ALARM_SEVERITIES = ['critical', 'major', 'minor'] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];

/** Lifecycle: active → acknowledged → cleared (DESIGN.md §6). */
export const ALARM_STATES = ['active', 'acknowledged', 'cleared'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

/** The most important open alarm of a house, as its live state carries it. */
export const alarmSummarySchema = z.object({
  cause: z.enum(ALARM_CAUSES),
  severity: z.enum(ALARM_SEVERITIES),
  /** The metric or device concerned (`temperature`, `co2`, `fan_3`), when there is one. */
  subject: z.string().nullable(),
  value: z.number().nullable(),
  limit: z.number().nullable(),
  /** Text from the controller (controller alarms, DI inputs); null for Roost's own rules. */
  text: z.string().nullable(),
});
export type AlarmSummary = z.infer<typeof alarmSummarySchema>;

/** One alarm, on REST and in live events alike. */
export const alarmSchema = alarmSummarySchema.extend({
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
});
export type Alarm = z.infer<typeof alarmSchema>;
