import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Alarm } from '../../src/contract/alarms';
import { NO_PROVIDER } from '../../src/contract/notifyDrill';
import { alarmText, type NotifyLocale } from '../notify/message';

/** What an alarm phone entry's alarm type asks for: a text message, a voice call, or both. */
export type Channel = 'sms' | 'voice';

export const CHANNELS_OF: Record<string, Channel[]> = {
  phoneAndMessage: ['sms', 'voice'],
  message: ['sms'],
  phone: ['voice'],
};

export interface Notification {
  alarm: Alarm;
  phone: string;
  channel: Channel;
  /** 1 for the first notification of this alarm to this entry, then 2, 3 … for repeats. */
  sequence: number;
  at: string;
  /** The signed page that acknowledges this alarm with one tap, when a public address is set. */
  link?: string | null;
}

export interface TryResult {
  ok: boolean;
  detail: string;
  /** The provider's id of what it accepted (message or call), which its delivery report names. */
  providerId?: string;
}

export { NO_PROVIDER };

/** How a notification ended after its tries: the result label /metrics counts it under. */
export type NotificationResult = 'sent' | 'failed' | 'no_provider';

export const resultOf = (r: TryResult): NotificationResult =>
  r.ok ? 'sent' : r.detail === NO_PROVIDER ? 'no_provider' : 'failed';

/**
 * One way of reaching people. SMS and voice providers plug in as adapters (their own HTTP APIs
 * behind `send`); `onTry` hears every try so each is stored and shown.
 */
export interface ChannelAdapter {
  readonly name: string;
  send(
    n: Notification,
    onTry: (tryNo: number, result: TryResult) => Promise<void>,
  ): Promise<TryResult>;
}

/**
 * Where texts and calls go without a provider or a webhook: nowhere a person would see. It
 * says so at warn (the default level, so an operator reads it) and answers "not delivered",
 * never "sent".
 */
export class LogAdapter implements ChannelAdapter {
  readonly name = 'log';
  constructor(private readonly log: FastifyBaseLogger) {}
  async send(n: Notification, onTry: (tryNo: number, result: TryResult) => Promise<void>) {
    this.log.warn(
      {
        alarmId: n.alarm.id,
        phone: n.phone,
        channel: n.channel,
        sequence: n.sequence,
        cause: n.alarm.cause,
      },
      `alarm notification ${NO_PROVIDER}: set ROOST_SMS_PROVIDER / ROOST_VOICE_PROVIDER or ROOST_NOTIFY_WEBHOOK_URL`,
    );
    const result = { ok: false, detail: NO_PROVIDER };
    await onTry(1, result);
    return result;
  }
}

/** A webhook try waits this long for an answer before it counts as failed. */
const WEBHOOK_TIMEOUT_MS = 5_000;
/** Tries per notification, and the wait before the second one (doubling each time). */
export const WEBHOOK_TRIES = 3;
const WEBHOOK_BACKOFF_MS = 1_000;

export interface WebhookOptions {
  url: string;
  /** The language and zone of the message text the body carries (ROOST_NOTIFY_LOCALE). */
  locale: NotifyLocale;
  timeZone: string;
  /** HMAC-SHA256 key of the `X-Roost-Signature` header; without it the header is not sent. */
  secret: string | null;
  /** Waits between tries (tests pass a quick one). */
  sleep?: (ms: number) => Promise<void>;
}

export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * POSTs the notification as JSON; a 2xx answer is success, anything else is tried again. The
 * body carries what a bridge needs to pass on without knowing Roost: the message `text` as a
 * provider would send it (the same words as e-mail and robots) and the acknowledge `link`
 * (null without ROOST_PUBLIC_URL), beside the structured alarm.
 */
export class WebhookAdapter implements ChannelAdapter {
  readonly name = 'webhook';
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: WebhookOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  async send(n: Notification, onTry: (tryNo: number, result: TryResult) => Promise<void>) {
    const body = JSON.stringify({
      type: 'alarm',
      channel: n.channel,
      phone: n.phone,
      sequence: n.sequence,
      at: n.at,
      text: alarmText(n, this.options.locale, this.options.timeZone),
      link: n.link ?? null,
      alarm: n.alarm,
    });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.secret) headers['x-roost-signature'] = signatureOf(body, this.options.secret);
    let result: TryResult = { ok: false, detail: 'not sent' };
    for (let tryNo = 1; tryNo <= WEBHOOK_TRIES; tryNo += 1) {
      if (tryNo > 1) await this.sleep(WEBHOOK_BACKOFF_MS * 2 ** (tryNo - 2));
      try {
        const res = await fetch(this.options.url, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        });
        await res.arrayBuffer().catch(() => undefined);
        result = { ok: res.ok, detail: `HTTP ${res.status}` };
      } catch (error) {
        result = { ok: false, detail: (error as Error).message.slice(0, 200) };
      }
      await onTry(tryNo, result);
      if (result.ok) break;
    }
    return result;
  }
}
