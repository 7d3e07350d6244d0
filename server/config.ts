import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_COMPLETENESS_MIN_PERCENT } from '../src/contract/completeness';
import { EDITIONS, type Edition } from '../src/contract/editions';
import { isTimeZone } from '../src/contract/domain';
import { badAllowEntry } from './devices/mediaAddress';
import {
  brokerAuthConfigOf,
  brokerAuthEnvSchema,
  type BrokerAuthConfig,
} from './brokerAuth/config';
import { notifyConfigOf, notifyEnvSchema, type NotifyConfig } from './notify/config';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** Embedded broker port; null when turned off (MQTT_PORT=0) or when MQTT_URL is set. */
  mqttPort: number | null;
  /** True when MQTT_PORT was not given: the embedded broker may move to a free port. */
  mqttPortIsDefault: boolean;
  mqttUrl: string | null;
  /**
   * The broker URL an enrolled Roost Edge is given (ROOST_EDGE_MQTT_URL); null: MQTT_URL without
   * its credentials, else the embedded broker's port on the host name the edge asked.
   */
  edgeMqttUrl: string | null;
  /**
   * MQTT over TLS on the embedded broker, for gateways reaching it over the internet: on when a
   * certificate and key file are given. The files are re-read when they change (renewals).
   */
  mqttTls: MqttTls | null;
  /**
   * With TLS on, the plain-text listener answers only on loopback (the demo simulator, a local
   * bridge) unless this is false: a token must not cross a network in clear by default.
   */
  mqttPlainLoopback: boolean;
  redisUrl: string | null;
  /** null: decide from the database (on for a new embedded database). */
  demo: boolean | null;
  adminPassword: string | null;
  captcha: boolean;
  /**
   * Check every JSON answer against its route's schema before sending it (tests and
   * `npm run dev`): a server drifting from its contract fails there, loudly, not in a browser.
   */
  checkAnswers: boolean;
  edition: Edition;
  alarmScreen: boolean;
  /** Days (daily rollups, "today") are counted in this zone. */
  timeZone: string;
  /** Raw readings are kept this many days; rollups for years. */
  rawRetentionDays: number;
  /** Finished gateway commands are kept this many days; parameter changes (the audit trail) longer. */
  commandRetentionDays: number;
  paramChangeRetentionDays: number;
  /** A house whose yesterday's data completeness is below this share (%) gets a reminder. */
  completenessMinPercent: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Run the demo's simulated gateways when in demo mode (tests turn them off). */
  runSimulator: boolean;
  /**
   * A new demo starts with its past (months of rollups, two days of raw readings, old alarms).
   * Tests whose subject is not that past turn it off, to start from an empty one.
   */
  demoHistory: boolean;
  /** With an external broker: the shared-subscription group all Roost processes join. */
  mqttShareGroup: string;
  /** Text messages and calls go to this webhook (an SMS/voice bridge); without it, to the log. */
  notifyWebhookUrl: string | null;
  /** Key of the webhook's HMAC-SHA256 signature header. */
  webhookSecret: string | null;
  /** Alarm notification channels: providers, robots, e-mail, acknowledge links. */
  notify: NotifyConfig;
  /** Where the built console is served from. */
  staticDir: string;
  /** `/metrics` answers only `Authorization: Bearer <this>`; without it, 404. */
  metricsToken: string | null;
  /** `POST /ops/backup` answers only `Authorization: Bearer <this>`; without it, 404. */
  backupToken: string | null;
  /** The media gateway cameras without their own address are played from (ROOST_MEDIA_URL). */
  mediaUrl: string | null;
  /** Hosts and CIDR ranges the camera relay may fetch although private or local. */
  mediaAllow: string[];
  /** Gateways' accounts at an external broker: Mosquitto's dynamic security, or EMQX's HTTP calls. */
  brokerAuth: BrokerAuthConfig;
  /**
   * Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (addresses and CIDR
   * ranges); from anyone else the request's own address counts. Empty: none.
   */
  trustedProxies: string[];
}

export interface MqttTls {
  certFile: string;
  keyFile: string;
  /** 0 takes any free port (tests). */
  port: number;
}

/** A bad variable: the message is the one line printed before exiting with code 1. */
export class ConfigError extends Error {}

const onOff = (name: string) =>
  z
    .string()
    .transform((v) => v.trim().toLowerCase())
    .refine((v) => ['on', 'off', '1', '0', 'true', 'false', 'yes', 'no'].includes(v), {
      message: `${name} must be on or off`,
    })
    .transform((v) => ['on', '1', 'true', 'yes'].includes(v));

const port = (name: string, allowZero: boolean) =>
  z.coerce
    .number({ message: `${name} must be a port number` })
    .int(`${name} must be a whole number`)
    .min(allowZero ? 0 : 1, `${name} must be ${allowZero ? '0' : '1'}–65535`)
    .max(65535, `${name} must be ${allowZero ? '0' : '1'}–65535`);

const url = (name: string, protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    {
      message: `${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    },
  );

/** A secret an operator's tool sends as a bearer token: long enough not to be guessed. */
const opsToken = (name: string) =>
  z
    .string()
    .trim()
    .min(16, `${name} must have at least 16 characters`)
    .regex(/^[\x21-\x7e]+$/, `${name} must be printable ASCII without spaces`);

/** Every variable the server reads: the README's table names each one (a test checks). */
export const envSchema = z.object({
  // 0 takes any free port (tests).
  PORT: port('PORT', true).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url('DATABASE_URL', ['postgres:', 'postgresql:']).optional(),
  MQTT_PORT: port('MQTT_PORT', true).optional(),
  MQTT_URL: url('MQTT_URL', ['mqtt:', 'mqtts:', 'tcp:', 'ws:', 'wss:']).optional(),
  MQTT_TLS_CERT: z.string().min(1).optional(),
  MQTT_TLS_KEY: z.string().min(1).optional(),
  MQTT_TLS_PORT: port('MQTT_TLS_PORT', true).default(8883),
  MQTT_PLAIN_LOOPBACK: onOff('MQTT_PLAIN_LOOPBACK').default(true),
  REDIS_URL: url('REDIS_URL', ['redis:', 'rediss:']).optional(),
  ROOST_DEMO: onOff('ROOST_DEMO').optional(),
  ROOST_ADMIN_PASSWORD: z.string().min(1).optional(),
  ROOST_CAPTCHA: onOff('ROOST_CAPTCHA').default(true),
  ROOST_CHECK_ANSWERS: onOff('ROOST_CHECK_ANSWERS').default(false),
  ROOST_EDITION: z
    .enum(EDITIONS, { message: `ROOST_EDITION must be one of ${EDITIONS.join(', ')}` })
    .default('default'),
  ROOST_ALARM_SCREEN: onOff('ROOST_ALARM_SCREEN').default(true),
  ROOST_SIMULATOR: onOff('ROOST_SIMULATOR').default(true),
  ROOST_DEMO_HISTORY: onOff('ROOST_DEMO_HISTORY').default(true),
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'MQTT_SHARE_GROUP must be letters, digits, _ or - (at most 64)')
    .default('roost'),
  ROOST_NOTIFY_WEBHOOK_URL: url('ROOST_NOTIFY_WEBHOOK_URL', ['http:', 'https:']).optional(),
  ROOST_WEBHOOK_SECRET: z
    .string()
    .min(16, 'ROOST_WEBHOOK_SECRET must have at least 16 characters')
    .optional(),
  ROOST_TIMEZONE: z
    .string()
    .refine(isTimeZone, {
      message: 'ROOST_TIMEZONE must be an IANA time zone such as Asia/Shanghai',
    })
    .default('Asia/Shanghai'),
  ROOST_RAW_RETENTION_DAYS: z.coerce
    .number({ message: 'ROOST_RAW_RETENTION_DAYS must be a number of days' })
    .int('ROOST_RAW_RETENTION_DAYS must be a whole number of days')
    .min(1, 'ROOST_RAW_RETENTION_DAYS must be at least 1')
    .max(3650, 'ROOST_RAW_RETENTION_DAYS must be at most 3650')
    .default(14),
  ROOST_COMPLETENESS_MIN_PERCENT: z.coerce
    .number({ message: 'ROOST_COMPLETENESS_MIN_PERCENT must be a number (a share in %)' })
    .min(1, 'ROOST_COMPLETENESS_MIN_PERCENT must be at least 1')
    .max(100, 'ROOST_COMPLETENESS_MIN_PERCENT must be at most 100')
    .default(DEFAULT_COMPLETENESS_MIN_PERCENT),
  ROOST_COMMAND_RETENTION_DAYS: z.coerce
    .number({ message: 'ROOST_COMMAND_RETENTION_DAYS must be a number of days' })
    .int('ROOST_COMMAND_RETENTION_DAYS must be a whole number of days')
    .min(1, 'ROOST_COMMAND_RETENTION_DAYS must be at least 1')
    .max(3650, 'ROOST_COMMAND_RETENTION_DAYS must be at most 3650')
    .default(90),
  ROOST_PARAM_CHANGE_RETENTION_DAYS: z.coerce
    .number({ message: 'ROOST_PARAM_CHANGE_RETENTION_DAYS must be a number of days' })
    .int('ROOST_PARAM_CHANGE_RETENTION_DAYS must be a whole number of days')
    .min(1, 'ROOST_PARAM_CHANGE_RETENTION_DAYS must be at least 1')
    .max(3650, 'ROOST_PARAM_CHANGE_RETENTION_DAYS must be at most 3650')
    .default(400),
  ROOST_METRICS_TOKEN: opsToken('ROOST_METRICS_TOKEN').optional(),
  ROOST_BACKUP_TOKEN: opsToken('ROOST_BACKUP_TOKEN').optional(),
  ROOST_MEDIA_URL: url('ROOST_MEDIA_URL', ['http:', 'https:']).optional(),
  ROOST_EDGE_MQTT_URL: url('ROOST_EDGE_MQTT_URL', ['mqtt:', 'mqtts:', 'ws:', 'wss:']).optional(),
  ROOST_MEDIA_ALLOW: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e !== ''),
    )
    .superRefine((entries, ctx) => {
      const bad = entries.map(badAllowEntry).find((e) => e !== null);
      if (bad)
        ctx.addIssue({
          code: 'custom',
          message: `ROOST_MEDIA_ALLOW: "${bad}" is not a host name, an address or a CIDR range`,
        });
    })
    .optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('warn'),
  ROOST_TRUSTED_PROXIES: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e !== ''),
    )
    .superRefine((entries, ctx) => {
      const bad = entries.find((e) => !isAddressOrRange(e));
      if (bad)
        ctx.addIssue({
          code: 'custom',
          message: `ROOST_TRUSTED_PROXIES: "${bad}" is not an IP address or a CIDR range`,
        });
    })
    .optional(),
  ...notifyEnvSchema.shape,
  ...brokerAuthEnvSchema.shape,
});

/** Reads and checks every variable (the README's table) once. Empty strings count as unset. */
export function readConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(
      ([key, value]) => key in envSchema.shape && value !== undefined && value.trim() !== '',
    ),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    const message = issue?.message ?? 'is invalid';
    throw new ConfigError(message.startsWith(name) ? message : `${name}: ${message}`);
  }
  const e = parsed.data;
  if ((e.MQTT_TLS_CERT === undefined) !== (e.MQTT_TLS_KEY === undefined))
    throw new ConfigError(
      'MQTT_TLS_CERT and MQTT_TLS_KEY go together: give both files (certificate and its key) or neither',
    );
  if (e.MQTT_TLS_CERT && (e.MQTT_URL || e.MQTT_PORT === 0))
    throw new ConfigError(
      e.MQTT_URL
        ? 'MQTT_TLS_CERT is for the embedded broker: with MQTT_URL, set up TLS at that broker'
        : 'MQTT_TLS_CERT is for the embedded broker, which MQTT_PORT=0 turns off',
    );
  let notify: NotifyConfig;
  let brokerAuth: BrokerAuthConfig;
  try {
    notify = notifyConfigOf(e);
    brokerAuth = brokerAuthConfigOf(e, e.MQTT_URL);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    // `memory://` keeps PGlite in memory: tests and throw-away runs.
    dataDir: e.DATA_DIR === 'memory://' ? e.DATA_DIR : path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? null,
    mqttPort: e.MQTT_URL ? null : e.MQTT_PORT === 0 ? null : (e.MQTT_PORT ?? 1883),
    mqttPortIsDefault: e.MQTT_PORT === undefined,
    mqttUrl: e.MQTT_URL ?? null,
    edgeMqttUrl: e.ROOST_EDGE_MQTT_URL ?? null,
    mqttTls:
      e.MQTT_TLS_CERT && e.MQTT_TLS_KEY
        ? {
            certFile: path.resolve(cwd, e.MQTT_TLS_CERT),
            keyFile: path.resolve(cwd, e.MQTT_TLS_KEY),
            port: e.MQTT_TLS_PORT,
          }
        : null,
    mqttPlainLoopback: e.MQTT_PLAIN_LOOPBACK,
    redisUrl: e.REDIS_URL ?? null,
    demo: e.ROOST_DEMO ?? null,
    adminPassword: e.ROOST_ADMIN_PASSWORD ?? null,
    captcha: e.ROOST_CAPTCHA,
    checkAnswers: e.ROOST_CHECK_ANSWERS,
    edition: e.ROOST_EDITION,
    alarmScreen: e.ROOST_ALARM_SCREEN,
    timeZone: e.ROOST_TIMEZONE,
    rawRetentionDays: e.ROOST_RAW_RETENTION_DAYS,
    commandRetentionDays: e.ROOST_COMMAND_RETENTION_DAYS,
    paramChangeRetentionDays: e.ROOST_PARAM_CHANGE_RETENTION_DAYS,
    completenessMinPercent: e.ROOST_COMPLETENESS_MIN_PERCENT,
    logLevel: e.LOG_LEVEL,
    runSimulator: e.ROOST_SIMULATOR,
    demoHistory: e.ROOST_DEMO_HISTORY,
    notifyWebhookUrl: e.ROOST_NOTIFY_WEBHOOK_URL ?? null,
    webhookSecret: e.ROOST_WEBHOOK_SECRET ?? null,
    notify,
    mqttShareGroup: e.MQTT_SHARE_GROUP,
    staticDir: path.resolve(cwd, 'dist'),
    metricsToken: e.ROOST_METRICS_TOKEN ?? null,
    backupToken: e.ROOST_BACKUP_TOKEN ?? null,
    mediaUrl: e.ROOST_MEDIA_URL ?? null,
    mediaAllow: e.ROOST_MEDIA_ALLOW ?? [],
    brokerAuth,
    trustedProxies: e.ROOST_TRUSTED_PROXIES ?? [],
  };
}

/** `10.0.0.5`, `::1`, `10.0.0.0/8`, `fd00::/8`: what Fastify's trustProxy takes. */
function isAddressOrRange(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
}
