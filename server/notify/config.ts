import { z } from 'zod';

/**
 * The notification variables (the README's table, section "Alarm notifications"). Each provider
 * is on when its credentials are set; its base URL is a variable so a test or a proxy can
 * stand in for it.
 */
export interface NotifyConfig {
  locale: 'en' | 'zh';
  /** Numbers written without `+` get this country code where a provider wants E.164. */
  countryCode: string;
  sms: 'aliyun' | 'tencent' | 'twilio' | null;
  voice: 'aliyun' | 'twilio' | null;
  aliyun: {
    accessKeyId: string;
    accessKeySecret: string;
    smsUrl: string;
    smsSignName: string;
    smsTemplate: string;
    voiceUrl: string;
    voiceTtsCode: string;
    voiceShowNumber: string;
  } | null;
  tencent: {
    secretId: string;
    secretKey: string;
    url: string;
    region: string;
    appId: string;
    signName: string;
    templateId: string;
  } | null;
  twilio: { accountSid: string; authToken: string; from: string; url: string } | null;
  wecom: { key: string; url: string } | null;
  dingtalk: { accessToken: string; secret: string | null; url: string } | null;
  feishu: { hook: string; secret: string | null; url: string } | null;
  /** `to`: ROOST_NOTIFY_EMAIL_TO's mailboxes (may be empty: the users' own addresses still get mail). */
  email: { smtpUrl: string; from: string; to: string[] } | null;
  /**
   * The secret last path segment of each provider's delivery report address
   * (/api/notify/receipt/aliyun/<token>): neither Alibaba Cloud nor Tencent Cloud signs its
   * pushes, so the address itself is the secret. Null: that provider's reports are not taken.
   */
  receiptTokens: { aliyun: string | null; aliyunVoice: string | null; tencent: string | null };
  /** The address people open the console at, for acknowledge links; null: no links. */
  publicUrl: string | null;
  /** How long an acknowledge link works. */
  ackLinkHours: number;
}

const http = (name: string) =>
  z.string().refine(
    (v) => {
      try {
        return ['http:', 'https:'].includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `${name} must be a URL starting with http:// or https://` },
  );
const text = z.string().min(1);
/** A guessable address would let anyone mark messages delivered: at least 16 URL-safe characters. */
const receiptToken = (name: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,128}$/, `${name} must be 16–128 letters, digits, - or _`)
    .optional();

export const notifyEnvSchema = z.object({
  ROOST_NOTIFY_LOCALE: z
    .enum(['en', 'zh'], { message: 'ROOST_NOTIFY_LOCALE must be en or zh' })
    .default('zh'),
  ROOST_SMS_COUNTRY_CODE: z
    .string()
    .regex(/^[1-9]\d{0,3}$/, 'ROOST_SMS_COUNTRY_CODE must be digits such as 86')
    .default('86'),
  ROOST_SMS_PROVIDER: z
    .enum(['aliyun', 'tencent', 'twilio'], {
      message: 'ROOST_SMS_PROVIDER must be aliyun, tencent or twilio',
    })
    .optional(),
  ROOST_VOICE_PROVIDER: z
    .enum(['aliyun', 'twilio'], { message: 'ROOST_VOICE_PROVIDER must be aliyun or twilio' })
    .optional(),
  ROOST_ALIYUN_ACCESS_KEY_ID: text.optional(),
  ROOST_ALIYUN_ACCESS_KEY_SECRET: text.optional(),
  ROOST_ALIYUN_SMS_URL: http('ROOST_ALIYUN_SMS_URL').default('https://dysmsapi.aliyuncs.com/'),
  ROOST_ALIYUN_SMS_SIGN_NAME: text.optional(),
  ROOST_ALIYUN_SMS_TEMPLATE: text.optional(),
  ROOST_ALIYUN_VOICE_URL: http('ROOST_ALIYUN_VOICE_URL').default('https://dyvmsapi.aliyuncs.com/'),
  ROOST_ALIYUN_VOICE_TTS_CODE: text.optional(),
  ROOST_ALIYUN_VOICE_SHOW_NUMBER: text.optional(),
  ROOST_ALIYUN_SMS_RECEIPT_TOKEN: receiptToken('ROOST_ALIYUN_SMS_RECEIPT_TOKEN'),
  ROOST_ALIYUN_VOICE_RECEIPT_TOKEN: receiptToken('ROOST_ALIYUN_VOICE_RECEIPT_TOKEN'),
  ROOST_TENCENT_SECRET_ID: text.optional(),
  ROOST_TENCENT_SECRET_KEY: text.optional(),
  ROOST_TENCENT_SMS_URL: http('ROOST_TENCENT_SMS_URL').default('https://sms.tencentcloudapi.com/'),
  ROOST_TENCENT_SMS_REGION: text.default('ap-guangzhou'),
  ROOST_TENCENT_SMS_APP_ID: text.optional(),
  ROOST_TENCENT_SMS_SIGN_NAME: text.optional(),
  ROOST_TENCENT_SMS_TEMPLATE_ID: text.optional(),
  ROOST_TENCENT_SMS_RECEIPT_TOKEN: receiptToken('ROOST_TENCENT_SMS_RECEIPT_TOKEN'),
  ROOST_TWILIO_ACCOUNT_SID: text.optional(),
  ROOST_TWILIO_AUTH_TOKEN: text.optional(),
  ROOST_TWILIO_FROM: text.optional(),
  ROOST_TWILIO_URL: http('ROOST_TWILIO_URL').default('https://api.twilio.com'),
  ROOST_WECOM_ROBOT_KEY: text.optional(),
  ROOST_WECOM_URL: http('ROOST_WECOM_URL').default('https://qyapi.weixin.qq.com'),
  ROOST_DINGTALK_ROBOT_TOKEN: text.optional(),
  ROOST_DINGTALK_ROBOT_SECRET: text.optional(),
  ROOST_DINGTALK_URL: http('ROOST_DINGTALK_URL').default('https://oapi.dingtalk.com'),
  ROOST_FEISHU_ROBOT_HOOK: text.optional(),
  ROOST_FEISHU_ROBOT_SECRET: text.optional(),
  ROOST_FEISHU_URL: http('ROOST_FEISHU_URL').default('https://open.feishu.cn'),
  ROOST_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'ROOST_SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  ROOST_SMTP_FROM: text.optional(),
  ROOST_NOTIFY_EMAIL_TO: text.optional(),
  ROOST_PUBLIC_URL: http('ROOST_PUBLIC_URL').optional(),
  ROOST_ACK_LINK_HOURS: z.coerce
    .number({ message: 'ROOST_ACK_LINK_HOURS must be a number of hours' })
    .int('ROOST_ACK_LINK_HOURS must be a whole number of hours')
    .min(1, 'ROOST_ACK_LINK_HOURS must be 1–168')
    .max(168, 'ROOST_ACK_LINK_HOURS must be 1–168')
    .default(24),
});
type NotifyEnv = z.infer<typeof notifyEnvSchema>;

/** A variable a chosen provider cannot work without: named in the one line the start prints. */
export class MissingNotifyVariable extends Error {}

function need(e: NotifyEnv, names: Array<keyof NotifyEnv>, why: string): void {
  const missing = names.filter((n) => e[n] === undefined);
  if (missing.length)
    throw new MissingNotifyVariable(`${missing.join(', ')} must be set for ${why}`);
}

export function notifyConfigOf(e: NotifyEnv): NotifyConfig {
  const uses = (p: string) => e.ROOST_SMS_PROVIDER === p || e.ROOST_VOICE_PROVIDER === p;
  if (uses('aliyun'))
    need(e, ['ROOST_ALIYUN_ACCESS_KEY_ID', 'ROOST_ALIYUN_ACCESS_KEY_SECRET'], 'Alibaba Cloud');
  if (e.ROOST_SMS_PROVIDER === 'aliyun')
    need(e, ['ROOST_ALIYUN_SMS_SIGN_NAME', 'ROOST_ALIYUN_SMS_TEMPLATE'], 'Alibaba Cloud SMS');
  if (e.ROOST_VOICE_PROVIDER === 'aliyun')
    need(
      e,
      ['ROOST_ALIYUN_VOICE_TTS_CODE', 'ROOST_ALIYUN_VOICE_SHOW_NUMBER'],
      'Alibaba Cloud voice',
    );
  if (uses('tencent'))
    need(
      e,
      [
        'ROOST_TENCENT_SECRET_ID',
        'ROOST_TENCENT_SECRET_KEY',
        'ROOST_TENCENT_SMS_APP_ID',
        'ROOST_TENCENT_SMS_SIGN_NAME',
        'ROOST_TENCENT_SMS_TEMPLATE_ID',
      ],
      'Tencent Cloud SMS',
    );
  if (uses('twilio'))
    need(e, ['ROOST_TWILIO_ACCOUNT_SID', 'ROOST_TWILIO_AUTH_TOKEN', 'ROOST_TWILIO_FROM'], 'Twilio');
  if (e.ROOST_SMTP_URL) need(e, ['ROOST_SMTP_FROM'], 'e-mail (ROOST_SMTP_URL)');
  return {
    locale: e.ROOST_NOTIFY_LOCALE,
    countryCode: e.ROOST_SMS_COUNTRY_CODE,
    sms: e.ROOST_SMS_PROVIDER ?? null,
    voice: e.ROOST_VOICE_PROVIDER ?? null,
    aliyun:
      e.ROOST_ALIYUN_ACCESS_KEY_ID && e.ROOST_ALIYUN_ACCESS_KEY_SECRET
        ? {
            accessKeyId: e.ROOST_ALIYUN_ACCESS_KEY_ID,
            accessKeySecret: e.ROOST_ALIYUN_ACCESS_KEY_SECRET,
            smsUrl: e.ROOST_ALIYUN_SMS_URL,
            smsSignName: e.ROOST_ALIYUN_SMS_SIGN_NAME ?? '',
            smsTemplate: e.ROOST_ALIYUN_SMS_TEMPLATE ?? '',
            voiceUrl: e.ROOST_ALIYUN_VOICE_URL,
            voiceTtsCode: e.ROOST_ALIYUN_VOICE_TTS_CODE ?? '',
            voiceShowNumber: e.ROOST_ALIYUN_VOICE_SHOW_NUMBER ?? '',
          }
        : null,
    tencent:
      e.ROOST_TENCENT_SECRET_ID && e.ROOST_TENCENT_SECRET_KEY
        ? {
            secretId: e.ROOST_TENCENT_SECRET_ID,
            secretKey: e.ROOST_TENCENT_SECRET_KEY,
            url: e.ROOST_TENCENT_SMS_URL,
            region: e.ROOST_TENCENT_SMS_REGION,
            appId: e.ROOST_TENCENT_SMS_APP_ID ?? '',
            signName: e.ROOST_TENCENT_SMS_SIGN_NAME ?? '',
            templateId: e.ROOST_TENCENT_SMS_TEMPLATE_ID ?? '',
          }
        : null,
    twilio:
      e.ROOST_TWILIO_ACCOUNT_SID && e.ROOST_TWILIO_AUTH_TOKEN && e.ROOST_TWILIO_FROM
        ? {
            accountSid: e.ROOST_TWILIO_ACCOUNT_SID,
            authToken: e.ROOST_TWILIO_AUTH_TOKEN,
            from: e.ROOST_TWILIO_FROM,
            url: e.ROOST_TWILIO_URL,
          }
        : null,
    wecom: e.ROOST_WECOM_ROBOT_KEY
      ? { key: e.ROOST_WECOM_ROBOT_KEY, url: e.ROOST_WECOM_URL }
      : null,
    dingtalk: e.ROOST_DINGTALK_ROBOT_TOKEN
      ? {
          accessToken: e.ROOST_DINGTALK_ROBOT_TOKEN,
          secret: e.ROOST_DINGTALK_ROBOT_SECRET ?? null,
          url: e.ROOST_DINGTALK_URL,
        }
      : null,
    feishu: e.ROOST_FEISHU_ROBOT_HOOK
      ? {
          hook: e.ROOST_FEISHU_ROBOT_HOOK,
          secret: e.ROOST_FEISHU_ROBOT_SECRET ?? null,
          url: e.ROOST_FEISHU_URL,
        }
      : null,
    email:
      e.ROOST_SMTP_URL && e.ROOST_SMTP_FROM
        ? {
            smtpUrl: e.ROOST_SMTP_URL,
            from: e.ROOST_SMTP_FROM,
            to: (e.ROOST_NOTIFY_EMAIL_TO ?? '')
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          }
        : null,
    receiptTokens: {
      aliyun: e.ROOST_ALIYUN_SMS_RECEIPT_TOKEN ?? null,
      aliyunVoice: e.ROOST_ALIYUN_VOICE_RECEIPT_TOKEN ?? null,
      tencent: e.ROOST_TENCENT_SMS_RECEIPT_TOKEN ?? null,
    },
    publicUrl: e.ROOST_PUBLIC_URL ? e.ROOST_PUBLIC_URL.replace(/\/$/, '') : null,
    ackLinkHours: e.ROOST_ACK_LINK_HOURS,
  };
}
