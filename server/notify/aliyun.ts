import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { ChannelAdapter, Notification, TryResult } from '../alarms/channels';
import { alarmParts, type NotifyLocale } from './message';
import { realSleep, refused, request, withRetry, type Sleep } from './retry';

/**
 * Alibaba Cloud's SMS (dysmsapi) and voice (dyvmsapi) APIs, both RPC-style, version 2017-05-25,
 * signed with **signature method V3 (ACS3-HMAC-SHA256)** ("Request syntax and signature method
 * V3", Alibaba Cloud SDK documentation). Why V3 and not the older RPC signature (v1,
 * HMAC-SHA1, still described on the SMS product's own page): Alibaba Cloud documents V3 as the
 * method for every API published in OpenAPI Explorer, which both of these are, and asks callers
 * of the older methods to move to it; it signs the headers and a hash of the body as well as the
 * parameters, with SHA-256 instead of SHA-1. Parameters go in the query string (the APIs list
 * them as query parameters), there is no body and the hash of the empty one is still signed.
 */
export interface AliyunCredentials {
  accessKeyId: string;
  accessKeySecret: string;
}

export const ACS3 = 'ACS3-HMAC-SHA256';

/** RFC 3986 percent-encoding as V3 asks for it: space as %20, `*` as %2A, `~` kept. */
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

const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The V3 signature of a request: the canonical request (method, `/`, the sorted query, the
 * signed headers as `name:value` lines, their names, the body's SHA-256), hashed, prefixed
 * with the algorithm, signed with HMAC-SHA256 under the AccessKey secret, lowercase hex.
 */
export function acs3Signature(
  secret: string,
  method: string,
  query: string,
  headers: Record<string, string>,
  body: string,
): { signature: string; signedHeaders: string } {
  const names = Object.keys(headers)
    .map((h) => h.toLowerCase())
    .sort();
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const canonicalHeaders = names.map((h) => `${h}:${(lower[h] ?? '').trim()}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    method,
    '/',
    query,
    canonicalHeaders,
    signedHeaders,
    sha256Hex(body),
  ].join('\n');
  const stringToSign = `${ACS3}\n${sha256Hex(canonicalRequest)}`;
  const signature = createHmac('sha256', secret).update(stringToSign).digest('hex');
  return { signature, signedHeaders };
}

/**
 * The one signed POST both adapters make: a fresh nonce and date on every try (Alibaba Cloud
 * refuses a replayed nonce), the action's parameters in the query string.
 */
export function signedAliyunRequest(
  credentials: AliyunCredentials,
  url: string,
  action: string,
  params: Record<string, string>,
  now: Date = new Date(),
): { url: string; init: RequestInit } {
  const query = canonicalQuery(params);
  const body = '';
  const headers: Record<string, string> = {
    host: new URL(url).host,
    'x-acs-action': action,
    'x-acs-version': '2017-05-25',
    'x-acs-date': now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    'x-acs-signature-nonce': randomUUID(),
    'x-acs-content-sha256': sha256Hex(body),
  };
  const { signature, signedHeaders } = acs3Signature(
    credentials.accessKeySecret,
    'POST',
    query,
    headers,
    body,
  );
  // fetch writes the same Host itself (it may not be set by hand).
  const sent = Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'host'));
  return {
    url: `${url.replace(/\/?$/, '/')}?${query}`,
    init: {
      method: 'POST',
      headers: {
        ...sent,
        authorization: `${ACS3} Credential=${credentials.accessKeyId},SignedHeaders=${signedHeaders},Signature=${signature}`,
      },
    },
  };
}

/** Alibaba Cloud answers HTTP 200 with `Code: "OK"`; anything else names its error code. */
function judge(status: number, body: unknown): TryResult {
  const b = body as { Code?: string; Message?: string; BizId?: string; CallId?: string };
  if (status === 200 && b?.Code === 'OK') {
    const id = b.BizId ?? b.CallId;
    return { ok: true, detail: `OK ${id ?? ''}`.trim(), ...(id ? { providerId: id } : {}) };
  }
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

/** Sends one action with retries; each try is signed anew. */
function sendAction(
  o: AliyunBase,
  action: string,
  params: Record<string, string>,
  onTry: (tryNo: number, result: TryResult) => Promise<void>,
) {
  const post = () => {
    const signed = signedAliyunRequest(o.credentials, o.url, action, params);
    return request(signed.url, signed.init, judge);
  };
  return withRetry(post, onTry, o.sleep ?? realSleep);
}

const digitsOf = (phone: string) => phone.replace(/[\s-]/g, '');

export class AliyunSmsAdapter implements ChannelAdapter {
  readonly name = 'aliyun-sms';
  constructor(private readonly o: AliyunBase & { signName: string; templateCode: string }) {}

  send(n: Notification, onTry: (tryNo: number, result: TryResult) => Promise<void>) {
    return sendAction(
      this.o,
      'SendSms',
      {
        PhoneNumbers: digitsOf(n.phone),
        SignName: this.o.signName,
        TemplateCode: this.o.templateCode,
        TemplateParam: templateParam(n, this.o),
      },
      onTry,
    );
  }
}

/** A text-to-speech call (SingleCallByTts): the template reads the alarm out. */
export class AliyunVoiceAdapter implements ChannelAdapter {
  readonly name = 'aliyun-voice';
  constructor(private readonly o: AliyunBase & { ttsCode: string; showNumber: string }) {}

  send(n: Notification, onTry: (tryNo: number, result: TryResult) => Promise<void>) {
    return sendAction(
      this.o,
      'SingleCallByTts',
      {
        CalledNumber: digitsOf(n.phone),
        CalledShowNumber: this.o.showNumber,
        TtsCode: this.o.ttsCode,
        TtsParam: templateParam(n, this.o),
      },
      onTry,
    );
  }
}
