import { createHash, createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { AliyunSmsAdapter, AliyunVoiceAdapter } from '../../server/notify/aliyun';
import { TencentSmsAdapter } from '../../server/notify/tencent';
import { TwilioSmsAdapter, TwilioVoiceAdapter } from '../../server/notify/twilio';
import { json, noSleep, NOTE, standIn, tries, type Received } from './standIn';

// Each stand-in checks the request the way the provider documents it, computing the signature
// itself (not with the adapter's code), and answers in the provider's own format.

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/**
 * Alibaba Cloud signature V3 (ACS3-HMAC-SHA256), as "Request syntax and signature method V3"
 * describes it: the canonical request of method, path, sorted query, signed headers and the
 * body's SHA-256, its hash signed with HMAC-SHA256 under the AccessKey secret.
 */
function aliyunVerify(
  r: Received,
  credentials: { accessKeyId: string; accessKeySecret: string },
): { ok: boolean; why: string; params: Record<string, string> } {
  const url = new URL(r.url, 'http://stand.in');
  const params = Object.fromEntries(url.searchParams);
  const enc = (s: string) =>
    encodeURIComponent(s)
      .replace(/\*/g, '%2A')
      .replace(/%7E/g, '~')
      .replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = Object.keys(params)
    .sort()
    .map((k) => `${enc(k)}=${enc(params[k]!)}`)
    .join('&');
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  const auth =
    /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(
      String(r.headers.authorization ?? ''),
    );
  if (!auth) return { ok: false, why: 'authorization', params };
  const [, keyId, signed, signature] = auth;
  const names = signed!.split(';');
  for (const required of [
    'host',
    'x-acs-action',
    'x-acs-version',
    'x-acs-date',
    'x-acs-signature-nonce',
    'x-acs-content-sha256',
  ])
    if (!names.includes(required)) return { ok: false, why: `unsigned ${required}`, params };
  if (r.headers['x-acs-content-sha256'] !== sha(r.body))
    return { ok: false, why: 'body hash', params };
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(String(r.headers['x-acs-date'])))
    return { ok: false, why: 'date', params };
  const canonical = [
    r.method,
    url.pathname,
    query,
    names.map((h) => `${h}:${String(r.headers[h] ?? '').trim()}\n`).join(''),
    signed,
    sha(r.body),
  ].join('\n');
  const toSign = `ACS3-HMAC-SHA256\n${sha(canonical)}`;
  const expected = createHmac('sha256', credentials.accessKeySecret).update(toSign).digest('hex');
  if (keyId !== credentials.accessKeyId) return { ok: false, why: 'key id', params };
  return { ok: expected === signature, why: expected === signature ? '' : 'signature', params };
}

describe('Alibaba Cloud SMS and voice', () => {
  const credentials = { accessKeyId: 'LTAI-test', accessKeySecret: 'secret*with ~chars' };

  it('sends a signed SendSms request with the template parameters', async () => {
    const api = await standIn((r, res) => {
      const v = aliyunVerify(r, credentials);
      if (!v.ok) return json(res, 400, { Code: 'SignatureDoesNotMatch', Message: 'bad sign' });
      json(res, 200, { Code: 'OK', Message: 'OK', BizId: '900619746936498440^0', RequestId: 'r1' });
    });
    closers.push(api.close);
    const adapter = new AliyunSmsAdapter({
      credentials,
      url: api.url,
      signName: '阿里云短信测试',
      templateCode: 'SMS_154950909',
      locale: 'zh',
      timeZone: 'Asia/Shanghai',
      sleep: noSleep,
    });
    const t = tries();
    const result = await adapter.send(NOTE, t.onTry);
    expect(result.ok).toBe(true);
    expect(t.list).toEqual([[1, true, 'OK 900619746936498440^0']]);
    const r = api.got[0]!;
    expect(r.method).toBe('POST');
    expect(r.headers['x-acs-action']).toBe('SendSms');
    expect(r.headers['x-acs-version']).toBe('2017-05-25');
    const { ok, params } = aliyunVerify(r, credentials);
    expect(ok).toBe(true);
    // The stand-in's check can fail: one changed parameter or a wrong secret breaks it.
    expect(
      aliyunVerify({ ...r, url: r.url.replace('13800000001', '13800000009') }, credentials).ok,
    ).toBe(false);
    expect(aliyunVerify(r, { ...credentials, accessKeySecret: 'other' }).ok).toBe(false);
    expect(params).toMatchObject({
      PhoneNumbers: '13800000001',
      SignName: '阿里云短信测试',
      TemplateCode: 'SMS_154950909',
    });
    expect(JSON.parse(params.TemplateParam!)).toEqual({
      farm: 'Weifang Broiler Farm',
      house: 'House 3',
      cause: '温度过高',
      value: '35.2 ℃（限值 32 ℃）',
    });
  });

  it('retries a refusing provider and reports its error code on every try', async () => {
    const api = await standIn((_r, res) =>
      json(res, 200, { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发分钟级流控' }),
    );
    closers.push(api.close);
    const adapter = new AliyunSmsAdapter({
      credentials,
      url: api.url,
      signName: 's',
      templateCode: 't',
      locale: 'en',
      timeZone: 'Asia/Shanghai',
      sleep: noSleep,
    });
    const t = tries();
    expect((await adapter.send(NOTE, t.onTry)).ok).toBe(false);
    expect(t.list.map(([n, ok]) => [n, ok])).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
    expect(t.list[0]![2]).toBe('HTTP 200 isv.BUSINESS_LIMIT_CONTROL 触发分钟级流控');
    // Each try is signed anew (fresh nonce), as a replayed nonce is refused.
    const nonces = api.got.map((r) => r.headers['x-acs-signature-nonce']);
    expect(new Set(nonces).size).toBe(3);
  });

  it('places a text-to-speech call with SingleCallByTts', async () => {
    const api = await standIn((r, res) => {
      const v = aliyunVerify(r, credentials);
      json(
        res,
        v.ok ? 200 : 400,
        v.ok ? { Code: 'OK', CallId: '116012354148^10281378****' } : { Code: 'Sign' },
      );
    });
    closers.push(api.close);
    const adapter = new AliyunVoiceAdapter({
      credentials,
      url: api.url,
      ttsCode: 'TTS_10001',
      showNumber: '057188773344',
      locale: 'zh',
      timeZone: 'Asia/Shanghai',
      sleep: noSleep,
    });
    const t = tries();
    expect((await adapter.send({ ...NOTE, channel: 'voice' }, t.onTry)).ok).toBe(true);
    const { ok, params } = aliyunVerify(api.got[0]!, credentials);
    expect(ok).toBe(true);
    expect(api.got[0]!.headers['x-acs-action']).toBe('SingleCallByTts');
    expect(params).toMatchObject({
      CalledNumber: '13800000001',
      CalledShowNumber: '057188773344',
      TtsCode: 'TTS_10001',
    });
  });
});

/** Tencent Cloud signature v3 (TC3-HMAC-SHA256), as its documentation describes it. */
function tc3Verify(r: { headers: Record<string, unknown>; body: string }, secretKey: string) {
  const auth = String(r.headers.authorization);
  const m =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d\d-\d\d)\/(\w+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return { ok: false, secretId: '' };
  const [, secretId, date, service, signedHeaders, signature] = m;
  const ts = Number(r.headers['x-tc-timestamp']);
  if (new Date(ts * 1000).toISOString().slice(0, 10) !== date) return { ok: false, secretId };
  const names = signedHeaders!.split(';');
  const canonicalHeaders = names
    .map((n) => `${n}:${String(r.headers[n]).trim().toLowerCase()}\n`)
    .join('');
  const hash = (s: string) => createHash('sha256').update(s).digest('hex');
  const canonical = `POST\n/\n\n${canonicalHeaders}\n${signedHeaders}\n${hash(r.body)}`;
  const toSign = `TC3-HMAC-SHA256\n${ts}\n${date}/${service}/tc3_request\n${hash(canonical)}`;
  const h = (k: Buffer | string, s: string) => createHmac('sha256', k).update(s).digest();
  const key = h(h(h(`TC3${secretKey}`, date!), service!), 'tc3_request');
  return {
    ok: createHmac('sha256', key).update(toSign).digest('hex') === signature,
    secretId,
    service,
  };
}

describe('Tencent Cloud SMS', () => {
  const options = {
    secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3',
    secretKey: 'Gu5t9xGARNpq86cd98joQYCN3',
    appId: '1400006666',
    signName: '腾讯云',
    templateId: '1110',
    region: 'ap-guangzhou',
    countryCode: '86',
    locale: 'en' as const,
    timeZone: 'Asia/Shanghai',
    sleep: noSleep,
  };

  it('sends SendSms signed with TC3-HMAC-SHA256 to an E.164 number', async () => {
    const api = await standIn((r, res) => {
      const v = tc3Verify(r, options.secretKey);
      if (!v.ok)
        return json(res, 200, {
          Response: {
            Error: { Code: 'AuthFailure.SignatureFailure', Message: 'x' },
            RequestId: 'r',
          },
        });
      json(res, 200, {
        Response: {
          SendStatusSet: [
            {
              SerialNo: '5000:1045710669157053657849499619',
              PhoneNumber: '+8613800000001',
              Fee: 1,
              Code: 'Ok',
              Message: 'send success',
            },
          ],
          RequestId: 'a0aabda6',
        },
      });
    });
    closers.push(api.close);
    const adapter = new TencentSmsAdapter({ ...options, url: api.url });
    const t = tries();
    expect((await adapter.send(NOTE, t.onTry)).ok).toBe(true);
    expect(t.list).toEqual([[1, true, 'Ok 5000:1045710669157053657849499619']]);
    const r = api.got[0]!;
    const v = tc3Verify(r, options.secretKey);
    expect(v).toMatchObject({ ok: true, secretId: options.secretId, service: 'sms' });
    expect(r.headers).toMatchObject({
      'x-tc-action': 'SendSms',
      'x-tc-version': '2021-01-11',
      'x-tc-region': 'ap-guangzhou',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(JSON.parse(r.body)).toEqual({
      PhoneNumberSet: ['+8613800000001'],
      SmsSdkAppId: '1400006666',
      SignName: '腾讯云',
      TemplateId: '1110',
      TemplateParamSet: [
        'Weifang Broiler Farm House 3',
        'Temperature too high',
        '35.2 ℃ (limit 32 ℃)',
      ],
    });
  });

  it('shows the error Tencent Cloud answers, after three tries', async () => {
    const api = await standIn((_r, res) =>
      json(res, 200, {
        Response: {
          Error: {
            Code: 'FailedOperation.InsufficientBalanceInSmsPackage',
            Message: '套餐包余量不足',
          },
          RequestId: 'r',
        },
      }),
    );
    closers.push(api.close);
    const t = tries();
    const result = await new TencentSmsAdapter({ ...options, url: api.url }).send(NOTE, t.onTry);
    expect(result).toEqual({
      ok: false,
      detail: 'HTTP 200 FailedOperation.InsufficientBalanceInSmsPackage 套餐包余量不足',
    });
    expect(t.list).toHaveLength(3);
  });
});

describe('Twilio SMS and calls', () => {
  const options = {
    accountSid: 'AC0123456789abcdef0123456789abcdef',
    authToken: 'twilio-auth-token',
    from: '+15005550006',
    countryCode: '86',
    locale: 'en' as const,
    timeZone: 'Asia/Shanghai',
    sleep: noSleep,
  };
  const basic = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  const twilio = () =>
    standIn((r, res) => {
      if (r.headers.authorization !== basic)
        return json(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
      if (r.headers['content-type'] !== 'application/x-www-form-urlencoded')
        return json(res, 400, { code: 20001, message: 'form body expected' });
      json(res, 201, { sid: r.url.includes('/Calls') ? 'CA123' : 'SM123', status: 'queued' });
    });

  it('posts a message as a form with basic auth', async () => {
    const api = await twilio();
    closers.push(api.close);
    const t = tries();
    expect((await new TwilioSmsAdapter({ ...options, url: api.url }).send(NOTE, t.onTry)).ok).toBe(
      true,
    );
    expect(t.list).toEqual([[1, true, 'queued SM123']]);
    const r = api.got[0]!;
    expect(r.url).toBe(`/2010-04-01/Accounts/${options.accountSid}/Messages.json`);
    const form = new URLSearchParams(r.body);
    expect(form.get('To')).toBe('+8613800000001');
    expect(form.get('From')).toBe('+15005550006');
    expect(form.get('Body')).toContain('Temperature too high');
    expect(form.get('Body')).toContain('Acknowledge: https://roost.example/ack/');
  });

  it('places a call that says the alarm', async () => {
    const api = await twilio();
    closers.push(api.close);
    const t = tries();
    expect(
      (
        await new TwilioVoiceAdapter({ ...options, url: api.url }).send(
          { ...NOTE, channel: 'voice' },
          t.onTry,
        )
      ).ok,
    ).toBe(true);
    const r = api.got[0]!;
    expect(r.url).toBe(`/2010-04-01/Accounts/${options.accountSid}/Calls.json`);
    const twiml = new URLSearchParams(r.body).get('Twiml')!;
    expect(twiml).toMatch(
      /^<Response><Say language="en-US">\[Roost\] Critical: Temperature too high/,
    );
    expect(twiml).not.toContain('/ack/');
  });

  it('shows a refused sign-in (wrong token) on each try', async () => {
    const api = await twilio();
    closers.push(api.close);
    const t = tries();
    const result = await new TwilioSmsAdapter({
      ...options,
      authToken: 'wrong',
      url: api.url,
    }).send(NOTE, t.onTry);
    expect(result).toEqual({ ok: false, detail: 'HTTP 401 20003 Authenticate' });
    expect(t.list).toHaveLength(3);
  });
});
