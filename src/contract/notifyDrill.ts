import { z } from 'zod';

/**
 * The one rule for what a notification that reached nobody says. "Sent" means a provider or
 * the webhook accepted it; without either, a text or call is not delivered, and this detail is
 * stored on the attempt or drill receipt, counted as `result="no_provider"` in /metrics, logged
 * at warn (server/alarms/channels.ts), and put in words by the drill report (en and zh).
 */
export const NO_PROVIDER = 'not delivered: no provider';

const id = z.coerce.number().int().positive();

/** POST /notify/drill/start: a test alarm for one house, to every entry covering it. */
export const drillStartSchema = z.object({ houseId: id });

/** POST /notify/drill/schedule: a weekly drill (weekday 0 = Sunday, local HH:MM); null weekday removes it. */
export const drillScheduleSchema = z.object({
  houseId: id,
  weekday: z.number().int().min(0).max(6).nullable(),
  time: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'notify.timeInvalid')
    .default('10:00'),
});
export type DrillScheduleInput = z.input<typeof drillScheduleSchema>;

export const drillScheduleRowSchema = z.object({
  houseId: z.number().int(),
  houseName: z.string(),
  farmId: z.number().int(),
  farmName: z.string(),
  weekday: z.number().int(),
  time: z.string(),
  createdBy: z.string(),
  lastRunAt: z.string().nullable(),
});
export type DrillScheduleRow = z.infer<typeof drillScheduleRowSchema>;

export const drillListQuerySchema = z.object({ houseId: id.optional() });
export const drillIdQuerySchema = z.object({ id });

export const drillSummarySchema = z.object({
  id: z.number().int(),
  farmId: z.number().int(),
  farmName: z.string(),
  houseId: z.number().int(),
  houseName: z.string(),
  startedBy: z.string(),
  scheduled: z.boolean(),
  startedAt: z.string(),
  /** Entries (people) the drill went to, and how many of them confirmed. */
  people: z.number().int(),
  confirmed: z.number().int(),
  /**
   * People it reached by no channel (no provider, refused, reported undeliverable): they
   * cannot confirm. Confirmed + not delivered = people: the drill has ended.
   */
  notDelivered: z.number().int(),
});
export type DrillSummary = z.infer<typeof drillSummarySchema>;

/** One person and channel: when each step happened and how long after the start it took. */
export const drillReceiptSchema = z.object({
  phoneId: z.number().int(),
  phone: z.string(),
  level: z.number().int(),
  channel: z.enum(['sms', 'voice']),
  adapter: z.string().nullable(),
  tries: z.number().int(),
  sentAt: z.string().nullable(),
  sentSeconds: z.number().nullable(),
  /** Null where the provider reports no delivery (or has not yet). */
  deliveredAt: z.string().nullable(),
  deliveredSeconds: z.number().nullable(),
  acknowledgedAt: z.string().nullable(),
  ackSeconds: z.number().nullable(),
  ackComment: z.string().nullable(),
  failedDetail: z.string().nullable(),
});
export type DrillReceipt = z.infer<typeof drillReceiptSchema>;

export const drillReportSchema = z.object({
  drill: drillSummarySchema,
  receipts: z.array(drillReceiptSchema),
  /** The people who did not confirm. */
  unconfirmed: z.array(
    z.object({ phoneId: z.number().int(), phone: z.string(), level: z.number().int() }),
  ),
});
export type DrillReport = z.infer<typeof drillReportSchema>;

/** POST /notify/drill/schedule answers the house's weekly drill as saved (weekday null: none). */
export const drillScheduleAnswerSchema = z.object({
  houseId: z.number().int(),
  weekday: z.number().int().min(0).max(6).nullable(),
  time: z.string(),
});
