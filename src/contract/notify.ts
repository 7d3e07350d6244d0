import { z } from 'zod';
import { ALARM_CAUSES } from './alarms';

const id = z.coerce.number().int().positive();
const instant = z.iso.datetime({ offset: true });

export const SILENCE_STATES = ['planned', 'active', 'expired', 'ended'] as const;

/** A silence or maintenance window: alarms still recorded, nobody notified. */
export const silenceSchema = z.object({
  id: z.number().int(),
  farmId: z.number().int(),
  farmName: z.string(),
  /** Null: the whole farm. */
  houseId: z.number().int().nullable(),
  houseName: z.string().nullable(),
  /** Null: every cause. */
  cause: z.enum(ALARM_CAUSES).nullable(),
  reason: z.string(),
  /** Who made it (their name as shown in the operation log). */
  owner: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  endedAt: z.string().nullable(),
  endedBy: z.string().nullable(),
  state: z.enum(SILENCE_STATES),
  /** How many alarms it has kept quiet. */
  heldAlarms: z.number().int().nonnegative(),
});
export type Silence = z.infer<typeof silenceSchema>;

/** The longest silence: a forgotten one must not mute a farm for good. */
export const SILENCE_MAX_DAYS = 30;

/** POST /notify/silence/create. */
export const silenceInputSchema = z
  .object({
    farmId: id,
    houseId: id.nullable().default(null),
    cause: z.enum(ALARM_CAUSES).nullable().default(null),
    reason: z.string().trim().min(1, 'notify.reasonRequired').max(200),
    /** Absent: now. */
    startsAt: instant.optional(),
    endsAt: instant,
  })
  .refine((v) => new Date(v.endsAt).getTime() > new Date(v.startsAt ?? Date.now()).getTime(), {
    message: 'notify.endsBeforeStart',
    path: ['endsAt'],
  })
  .refine(
    (v) =>
      new Date(v.endsAt).getTime() - new Date(v.startsAt ?? Date.now()).getTime() <=
      SILENCE_MAX_DAYS * 86_400_000,
    { message: 'notify.tooLong', path: ['endsAt'] },
  );
export type SilenceInput = z.input<typeof silenceInputSchema>;

/** GET /notify/silence/list: current and planned ones, or every one. */
export const silenceListQuerySchema = z.object({
  farmId: id.optional(),
  houseId: id.optional(),
  state: z.enum(['current', 'all']).default('current'),
});

export const silenceIdSchema = z.object({ id });

/** A signed acknowledge link's token: alarm, phone entry, expiry and signature. */
export const ackTokenSchema = z.object({ token: z.string().min(10).max(300) });
export const ackByLinkSchema = ackTokenSchema.extend({
  comment: z.string().trim().max(200).optional(),
});

/** What the acknowledge page shows before and after the tap. */
export const ackPageSchema = z.object({
  alarmId: z.number().int(),
  cause: z.enum(ALARM_CAUSES),
  severity: z.enum(['critical', 'major', 'minor']),
  farmName: z.string(),
  houseName: z.string(),
  value: z.number().nullable(),
  limit: z.number().nullable(),
  /** What value and limit are measured in ('℃', '%', 'h'; '' for none), as messages write it. */
  unit: z.string(),
  text: z.string().nullable(),
  state: z.enum(['active', 'acknowledged', 'cleared']),
  raisedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  ackComment: z.string().nullable(),
  /** When the link stops working. */
  expiresAt: z.string(),
  /** An alarm drill's confirm link: the page says it is a drill, the tap confirms receipt. */
  drill: z.boolean().optional(),
});
export type AckPage = z.infer<typeof ackPageSchema>;

/** POST /notify/escalation/save: an alarm phone entry's escalation level (0 = at once). */
export const escalationInputSchema = z.object({
  phoneId: id,
  level: z.number().int().min(0).max(5),
});
export const ESCALATION_MAX_LEVEL = 5;

/** An alarm phone entry's escalation level (GET /notify/escalation/list, the save's answer). */
export const escalationLevelSchema = z.object({
  phoneId: z.number().int(),
  level: z.number().int().min(0).max(ESCALATION_MAX_LEVEL),
});
