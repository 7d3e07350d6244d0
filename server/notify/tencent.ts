import { createHash, createHmac } from 'node:crypto';
import type { ChannelAdapter, Notification, TryResult } from '../alarms/channels';
import { alarmParts, type NotifyLocale } from './message';
import { e164, realSleep, refused, request, withRetry, type Sleep } from './retry';

const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest();

/**
 * Tencent Cloud API signature v3 (TC3-HMAC-SHA256): a canonical request of method, path, query,
 * the signed headers (content-type and host) and the payload's SHA-256; a string to sign with
 * the timestamp and the credential scope `<UTC date>/<service>/tc3_request`; a key derived by
 * chained HMAC-SHA256 from `TC3<secret key>` over the date, the service and `tc3_request`.
 */
export function tc3Authorization(options: {
  secretId: string;
  secretKey: string;
  service: string;
  host: string;
  payload: string;
  timestamp: number;
  contentType: string;
}): string {
  const date = new Date(options.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host';
  const canonical = [
    'POST',
    '/',
    '',
    `content-type:${options.contentType}\nhost:${options.host}\n`,
    signedHeaders,
    sha256Hex(options.payload),
  ].join('\n');
  const scope = `${date}/${options.service}/tc3_request`;
  const toSign = ['TC3-HMAC-SHA256', String(options.timestamp), scope, sha256Hex(canonical)].join(
    '\n',
  );
  const key = hmac(hmac(hmac(`TC3${options.secretKey}`, date), options.service), 'tc3_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${options.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

export const TENCENT_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Tencent Cloud SMS (SendSms, version 2021-01-11). The template's parameters are, in order:
 * farm and house, cause, value.
 */
export class TencentSmsAdapter implements ChannelAdapter {
  readonly name = 'tencent-sms';
  constructor(
    private readonly o: {
      secretId: string;
      secretKey: string;
      appId: string;
      signName: string;
      templateId: string;
      region: string;
      countryCode: string;
      /** https://sms.tencentcloudapi.com; tests point it at loopback. */
      url: string;
      locale: NotifyLocale;
      timeZone: string;
      now?: () => Date;
      sleep?: Sleep;
    },
  ) {}

  send(n: Notification, onTry: (tryNo: number, result: TryResult) => Promise<void>) {
    const p = alarmParts(n.alarm, this.o.locale, this.o.timeZone);
    const payload = JSON.stringify({
      PhoneNumberSet: [e164(n.phone, this.o.countryCode)],
      SmsSdkAppId: this.o.appId,
      SignName: this.o.signName,
      TemplateId: this.o.templateId,
      TemplateParamSet: [`${p.farm} ${p.house}`, p.cause, p.value || '-'],
    });
    const post = () => {
      const timestamp = Math.floor((this.o.now ?? (() => new Date()))().getTime() / 1000);
      return request(
        this.o.url,
        {
          method: 'POST',
          headers: {
            'content-type': TENCENT_CONTENT_TYPE,
            authorization: tc3Authorization({
              secretId: this.o.secretId,
              secretKey: this.o.secretKey,
              service: 'sms',
              host: new URL(this.o.url).host,
              payload,
              timestamp,
              contentType: TENCENT_CONTENT_TYPE,
            }),
            'x-tc-action': 'SendSms',
            'x-tc-version': '2021-01-11',
            'x-tc-timestamp': String(timestamp),
            'x-tc-region': this.o.region,
          },
          body: payload,
        },
        judge,
      );
    };
    return withRetry(post, onTry, this.o.sleep ?? realSleep);
  }
}

/** Errors come as `Response.Error`; a sent message as `SendStatusSet[0].Code === "Ok"`. */
function judge(status: number, body: unknown): TryResult {
  const r = (body as { Response?: Record<string, unknown> })?.Response;
  const error = r?.Error as { Code?: string; Message?: string } | undefined;
  if (error) return refused(status, `${error.Code ?? ''} ${error.Message ?? ''}`.trim());
  const first = (
    r?.SendStatusSet as Array<{ Code?: string; Message?: string; SerialNo?: string }>
  )?.[0];
  if (status === 200 && first?.Code === 'Ok')
    return {
      ok: true,
      detail: `Ok ${first.SerialNo ?? ''}`.trim(),
      ...(first.SerialNo ? { providerId: first.SerialNo } : {}),
    };
  return refused(status, first ? `${first.Code ?? ''} ${first.Message ?? ''}`.trim() : body);
}
