import type { ChannelAdapter, Notification, TryResult } from '../alarms/channels';
import { alarmText, type NotifyLocale } from './message';
import { e164, realSleep, refused, request, withRetry, type Sleep } from './retry';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** The Twilio number messages and calls come from (E.164). */
  from: string;
  countryCode: string;
  /** https://api.twilio.com; tests point it at loopback. */
  url: string;
  locale: NotifyLocale;
  timeZone: string;
  sleep?: Sleep;
  /**
   * Where Twilio reports each message's and call's outcome (StatusCallback): Roost's
   * /api/notify/receipt/twilio under the public address; without one, nothing is reported.
   */
  statusCallback?: string | null;
}

const callback = (o: TwilioOptions): Record<string, string> =>
  o.statusCallback ? { StatusCallback: o.statusCallback } : {};

/** Twilio answers 201 with the resource (its `sid`); errors as JSON `{ code, message }`. */
function judge(status: number, body: unknown): TryResult {
  const b = body as { sid?: string; code?: number; message?: string; status?: string };
  if (status >= 200 && status < 300 && b?.sid)
    return { ok: true, detail: `${b.status ?? 'queued'} ${b.sid}`, providerId: b.sid };
  return refused(status, b?.code ? `${b.code} ${b.message ?? ''}`.trim() : body);
}

function post(o: TwilioOptions, resource: 'Messages' | 'Calls', form: Record<string, string>) {
  return request(
    `${o.url.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(o.accountSid)}/${resource}.json`,
    {
      method: 'POST',
      headers: {
        // Twilio's REST API: HTTP basic auth with the account SID and auth token, form body.
        authorization: `Basic ${Buffer.from(`${o.accountSid}:${o.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form).toString(),
    },
    judge,
  );
}

const xmlEscape = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

export class TwilioSmsAdapter implements ChannelAdapter {
  readonly name = 'twilio-sms';
  constructor(private readonly o: TwilioOptions) {}
  send(n: Notification, onTry: (tryNo: number, result: TryResult) => Promise<void>) {
    const form = {
      To: e164(n.phone, this.o.countryCode),
      From: this.o.from,
      Body: alarmText(n, this.o.locale, this.o.timeZone),
      ...callback(this.o),
    };
    return withRetry(() => post(this.o, 'Messages', form), onTry, this.o.sleep ?? realSleep);
  }
}

/** A call that reads the alarm out twice (TwiML `<Say>`), without the link. */
export class TwilioVoiceAdapter implements ChannelAdapter {
  readonly name = 'twilio-voice';
  constructor(private readonly o: TwilioOptions) {}
  send(n: Notification, onTry: (tryNo: number, result: TryResult) => Promise<void>) {
    const text = xmlEscape(alarmText({ ...n, link: null }, this.o.locale, this.o.timeZone));
    const language = this.o.locale === 'zh' ? 'cmn-CN' : 'en-US';
    const say = `<Say language="${language}">${text}</Say>`;
    const form = {
      To: e164(n.phone, this.o.countryCode),
      From: this.o.from,
      Twiml: `<Response>${say}<Pause length="1"/>${say}</Response>`,
      ...callback(this.o),
    };
    return withRetry(() => post(this.o, 'Calls', form), onTry, this.o.sleep ?? realSleep);
  }
}
