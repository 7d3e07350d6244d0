import { createHmac, randomUUID } from 'node:crypto';
import type { ChannelAdapter, Notification, TryResult } from '../alarms/channels';
import { alarmParts, type NotifyLocale } from './message';
import { realSleep, refused, request, withRetry, type Sleep } from './retry';

/**
 * Alibaba Cloud's RPC-style APIs (SMS: dysmsapi, voice: dyvmsapi), signed with signature v1:
 * the parameters sorted by name and percent-encoded (RFC 3986: space as %20, `*` as %2A, `~`
 * kept), the string `POST&%2F&<encoded query>` signed with HMAC-SHA1 under `<secret>&`, base64.
 */
export interface AliyunCredentials {
  accessKeyId: string;
  accessKeySecret: string;
}

export function percentEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%7E/g, '~');
}

export function canonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k] ?? '')}`)
    .join('&');
}

export function aliyunSignature(method: string, params: Record<string, string>, secret: string) {
  const toSign = `${method}&${percentEncode('/')}&${percentEncode(canonicalQuery(params))}`;
  return createHmac('sha1', `${secret}&`).update(toSign).digest('base64');
}

/** The common parameters, the action's own and the signature, as the form body to POST. */
export function signedAliyunBody(
  credentials: AliyunCredentials,
  action: string,
  version: string,
  own: Record<string, string>,
  now: Date = new Date(),
): string {
  const params: Record<string, string> = {
    AccessKeyId: credentials.accessKeyId,
    Action: action,
    Format: 'JSON',
    RegionId: 'cn-hangzhou',
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: randomUUID(),
    SignatureVersion: '1.0',
    Timestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    Version: version,
    ...own,
  };
  const signature = aliyunSignature('POST', params, credentials.accessKeySecret);
  return `${canonicalQuery(params)}&Signature=${percentEncode(signature)}`;
}

/** Alibaba Cloud answers HTTP 200 with `Code: "OK"`; anything else names its error code. */
function judge(status: number, body: unknown): TryResult {
  const b = body as { Code?: string; Message?: string; BizId?: string; CallId?: string };
  if (status === 200 && b?.Code === 'OK')
    return { ok: true, detail: `OK ${b.BizId ?? b.CallId ?? ''}`.trim() };
  return refused(status, b?.Code ? `${b.Code} ${b.Message ?? ''}`.trim() : body);
}

interface AliyunBase {
  credentials: AliyunCredentials;
  /** Where the API answers (https://dysmsapi.aliyuncs.com, …); tests point it at loopback. */
  url: string;
  locale: NotifyLocale;
  timeZone: string;
  sleep?: Sleep;
}

/** Template variables both the SMS and the voice template may use: ${farm} ${house} ${cause} ${value}. */
function templateParam(n: Notification, o: AliyunBase): string {
  const p = alarmParts(n.alarm, o.locale, o.timeZone);
  return JSON.stringify({ farm: p.farm, house: p.house, cause: p.cause, value: p.value });
}

export class AliyunSmsAdapter implements ChannelAdapter {
  readonly name = 'aliyun-sms';
  constructor(private readonly o: AliyunBase & { signName: string; templateCode: string }) {}

  send(n: Notification, onTry: (tryNo: number, result: TryResult) => Promise<void>) {
    const post = () =>
      request(
        this.o.url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: signedAliyunBody(this.o.credentials, 'SendSms', '2017-05-25', {
            PhoneNumbers: n.phone.replace(/[\s-]/g, ''),
            SignName: this.o.signName,
            TemplateCode: this.o.templateCode,
            TemplateParam: templateParam(n, this.o),
          }),
        },
        judge,
      );
    return withRetry(post, onTry, this.o.sleep ?? realSleep);
  }
}

/** A text-to-speech call (SingleCallByTts): the template reads the alarm out. */
export class AliyunVoiceAdapter implements ChannelAdapter {
  readonly name = 'aliyun-voice';
  constructor(private readonly o: AliyunBase & { ttsCode: string; showNumber: string }) {}

  send(n: Notification, onTry: (tryNo: number, result: TryResult) => Promise<void>) {
    const post = () =>
      request(
        this.o.url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: signedAliyunBody(this.o.credentials, 'SingleCallByTts', '2017-05-25', {
            CalledNumber: n.phone.replace(/[\s-]/g, ''),
            CalledShowNumber: this.o.showNumber,
            TtsCode: this.o.ttsCode,
            TtsParam: templateParam(n, this.o),
          }),
        },
        judge,
      );
    return withRetry(post, onTry, this.o.sleep ?? realSleep);
  }
}
