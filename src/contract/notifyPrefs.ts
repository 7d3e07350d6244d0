import { z } from 'zod';
import { ALARM_SEVERITIES } from './alarms';

/**
 * The channels a person may choose: text message and voice call on their own number (the alarm
 * phone entries carrying it), e-mail to their account's address (server/notify/mail.ts).
 */
export const PREF_CHANNELS = ['sms', 'voice', 'email'] as const;
export type PrefChannel = (typeof PREF_CHANNELS)[number];

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'notify.timeInvalid');

/**
 * A user's own notification preferences (POST /notify/prefs/save): which farms (null: every
 * farm they may see), which severities, which channels, and quiet hours during which only
 * critical alarms reach them (others wait until the quiet hours end).
 */
export const notifyPrefsSchema = z
  .object({
    farmIds: z.array(z.number().int().positive()).max(500).nullable().default(null),
    severities: z.array(z.enum(ALARM_SEVERITIES)).min(1, 'notify.severityRequired'),
    channels: z.array(z.enum(PREF_CHANNELS)).min(1, 'notify.channelRequired'),
    quietStart: hhmm.nullable().default(null),
    quietEnd: hhmm.nullable().default(null),
  })
  .refine((v) => (v.quietStart === null) === (v.quietEnd === null), {
    message: 'notify.quietBoth',
    path: ['quietEnd'],
  })
  .refine((v) => v.quietStart === null || v.quietStart !== v.quietEnd, {
    message: 'notify.quietEmpty',
    path: ['quietEnd'],
  });
export type NotifyPrefs = z.output<typeof notifyPrefsSchema>;
export type NotifyPrefsInput = z.input<typeof notifyPrefsSchema>;

/** Before a user saves any: everything, every way, at any hour (as before preferences). */
export const DEFAULT_PREFS: NotifyPrefs = {
  farmIds: null,
  severities: [...ALARM_SEVERITIES],
  channels: [...PREF_CHANNELS],
  quietStart: null,
  quietEnd: null,
};

/** GET /notify/prefs/mine: the preferences, the number they apply to, the farms to choose. */
export const myPrefsSchema = z.object({
  prefs: z.object({
    farmIds: z.array(z.number().int()).nullable(),
    severities: z.array(z.enum(ALARM_SEVERITIES)),
    channels: z.array(z.enum(PREF_CHANNELS)),
    quietStart: z.string().nullable(),
    quietEnd: z.string().nullable(),
  }),
  /** Saved by the user (false: the defaults shown). */
  saved: z.boolean(),
  /** The account's mobile: the alarm phone entries with this number are the user's. */
  mobile: z.string(),
  /** How many open alarm phone entries carry that number. */
  entries: z.number().int().nonnegative(),
  farms: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type MyPrefs = z.infer<typeof myPrefsSchema>;
