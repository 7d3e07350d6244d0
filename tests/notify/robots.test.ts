import { createHmac } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DingtalkRobotAdapter } from '../../server/notify/dingtalk';
import { EmailAdapter } from '../../server/notify/email';
import { FeishuRobotAdapter } from '../../server/notify/feishu';
import { WecomRobotAdapter } from '../../server/notify/wecom';
import { json, noSleep, NOTE, standIn, tries } from './standIn';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});
/** The Subject header, its RFC 2047 quoted-printable words decoded. */
function subjectOf(data: string): string {
  const header = /^Subject: (.*(?:\r\n .*)*)/m.exec(data)![1]!.replace(/\r\n /g, ' ');
  return header
    .replace(/\?= =\?UTF-8\?Q\?/g, '')
    .replace(/=\?UTF-8\?Q\?(.*?)\?=/g, (_m, q: string) =>
      Buffer.from(
        q
          .replace(/_/g, ' ')
          .replace(/=([0-9A-F]{2})/g, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
        'latin1',
      ).toString('utf8'),
    );
}

const now = new Date('2025-01-10T07:00:05.000Z');
const common = { locale: 'zh' as const, timeZone: 'Asia/Shanghai', sleep: noSleep, now: () => now };

describe('group robots', () => {
  it('WeCom: posts a text message to the key in the URL', async () => {
    const api = await standIn((r, res) => {
      const key = new URL(r.url, 'http://x').searchParams.get('key');
      if (key !== '693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa')
        return json(res, 200, { errcode: 93000, errmsg: 'invalid webhook url' });
      json(res, 200, { errcode: 0, errmsg: 'ok' });
    });
    closers.push(api.close);
    const t = tries();
    const adapter = new WecomRobotAdapter({
      key: '693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa',
      url: api.url,
      ...common,
    });
    expect((await adapter.send(NOTE, t.onTry)).ok).toBe(true);
    const r = api.got[0]!;
    expect(r.url.startsWith('/cgi-bin/webhook/send?key=')).toBe(true);
    const body = JSON.parse(r.body) as { msgtype: string; text: { content: string } };
    expect(body.msgtype).toBe('text');
    expect(body.text.content).toBe(
      '【Roost】紧急：温度过高\nWeifang Broiler Farm / House 3：35.2 ℃（限值 32 ℃）\n发生于 2025-01-10 15:00\n确认：https://roost.example/ack/41.7.1736500000.sig',
    );
    const wrong = new WecomRobotAdapter({ key: 'other', url: api.url, ...common });
    const w = tries();
    expect(await wrong.send(NOTE, w.onTry)).toEqual({
      ok: false,
      detail: 'HTTP 200 93000 invalid webhook url',
    });
    expect(w.list).toHaveLength(3);
  });

  it('DingTalk: signs timestamp and secret with HMAC-SHA256 in the query', async () => {
    const secret = 'SEC1234567890abcdef';
    const api = await standIn((r, res) => {
      const q = new URL(r.url, 'http://x').searchParams;
      const ts = q.get('timestamp')!;
      const expected = createHmac('sha256', secret).update(`${ts}\n${secret}`).digest('base64');
      // The sign arrives URL-encoded; searchParams has decoded it once.
      if (q.get('access_token') !== 'tok' || q.get('sign') !== expected)
        return json(res, 200, { errcode: 310000, errmsg: 'sign not match' });
      if (Math.abs(Number(ts) - now.getTime()) > 3_600_000)
        return json(res, 200, { errcode: 310000, errmsg: 'timestamp expired' });
      json(res, 200, { errcode: 0, errmsg: 'ok' });
    });
    closers.push(api.close);
    const t = tries();
    expect(
      (
        await new DingtalkRobotAdapter({
          accessToken: 'tok',
          secret,
          url: api.url,
          ...common,
        }).send(NOTE, t.onTry)
      ).ok,
    ).toBe(true);
    const r = api.got[0]!;
    expect(r.url).toMatch(
      /^\/robot\/send\?access_token=tok&timestamp=1736492405000&sign=[A-Za-z0-9%]+$/,
    );
    expect(r.url).not.toMatch(/[+/=]$/);
    expect(JSON.parse(r.body)).toMatchObject({
      msgtype: 'text',
      text: { content: expect.stringContaining('温度过高') },
    });
    const w = tries();
    const bad = new DingtalkRobotAdapter({
      accessToken: 'tok',
      secret: 'SECwrong',
      url: api.url,
      ...common,
    });
    expect(await bad.send(NOTE, w.onTry)).toEqual({
      ok: false,
      detail: 'HTTP 200 310000 sign not match',
    });
  });

  it('Feishu: signs timestamp + "\\n" + secret over an empty message, in the body', async () => {
    const secret = 'feishu-secret';
    const api = await standIn((r, res) => {
      const b = JSON.parse(r.body) as { timestamp: string; sign: string; msg_type: string };
      const expected = createHmac('sha256', `${b.timestamp}\n${secret}`)
        .update('')
        .digest('base64');
      if (b.sign !== expected)
        return json(res, 200, {
          code: 19021,
          msg: 'sign match fail or timestamp is not within one hour from current time',
        });
      json(res, 200, { code: 0, msg: 'success', data: {} });
    });
    closers.push(api.close);
    const t = tries();
    expect(
      (
        await new FeishuRobotAdapter({ hook: 'hook-id', secret, url: api.url, ...common }).send(
          NOTE,
          t.onTry,
        )
      ).ok,
    ).toBe(true);
    const r = api.got[0]!;
    expect(r.url).toBe('/open-apis/bot/v2/hook/hook-id');
    expect(JSON.parse(r.body)).toMatchObject({
      timestamp: '1736492405',
      msg_type: 'text',
      content: { text: expect.stringContaining('确认：https://') },
    });
    const w = tries();
    const bad = new FeishuRobotAdapter({
      hook: 'hook-id',
      secret: 'wrong',
      url: api.url,
      ...common,
    });
    expect((await bad.send(NOTE, w.onTry)).detail).toBe(
      'HTTP 200 19021 sign match fail or timestamp is not within one hour from current time',
    );
  });
});

describe('e-mail over SMTP', () => {
  it('delivers to a real SMTP server with the sign-in, subject and link', async () => {
    const mails: Array<{ from: string; to: string[]; data: string }> = [];
    const server = new SMTPServer({
      authOptional: false,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _s, cb) {
        if (auth.username === 'roost' && auth.password === 'mail-pass') cb(null, { user: 'roost' });
        else cb(new Error('Invalid username or password'));
      },
      onData(stream, session, cb) {
        let data = '';
        stream.on('data', (c: Buffer) => (data += c.toString()));
        stream.on('end', () => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          cb();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise<void>((r) => server.close(() => r())));
    const port = (server.server.address() as AddressInfo).port;
    const email = new EmailAdapter({
      smtpUrl: `smtp://roost:mail-pass@127.0.0.1:${port}`,
      from: 'Roost <alarms@farm.example>',
      locale: 'en',
      timeZone: 'Asia/Shanghai',
      sleep: noSleep,
    });
    closers.push(async () => email.close());
    const t = tries();
    expect((await email.send('duty@farm.example', NOTE, t.onTry)).ok).toBe(true);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.from).toBe('alarms@farm.example');
    expect(mails[0]!.to).toEqual(['duty@farm.example']);
    expect(subjectOf(mails[0]!.data)).toBe(
      '[Roost] Critical: Temperature too high — Weifang Broiler Farm / House 3',
    );
    // The reading's unit (℃) makes the body quoted-printable: its soft line breaks undone.
    const body = mails[0]!.data.replace(/=\r\n/g, '');
    expect(body).toContain('raised 2025-01-10 15:00');
    expect(body).toContain('Acknowledge: https://roost.example/ack/41.7.1736500000.sig');

    const wrong = new EmailAdapter({
      smtpUrl: `smtp://roost:wrong@127.0.0.1:${port}`,
      from: 'alarms@farm.example',
      locale: 'en',
      timeZone: 'Asia/Shanghai',
      sleep: noSleep,
    });
    closers.push(async () => wrong.close());
    const w = tries();
    const result = await wrong.send('duty@farm.example', NOTE, w.onTry);
    expect(result.ok).toBe(false);
    expect(result.detail).toContain('Invalid username or password');
    expect(w.list).toHaveLength(3);
  });
});
