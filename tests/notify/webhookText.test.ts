import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureOf, WebhookAdapter } from '../../server/alarms/channels';
import { envSchema } from '../../server/config';
import { NOTE } from './standIn';

const SECRET = 'webhook-secret-0123456789';

describe('the webhook fallback', () => {
  const got: Array<{ signed: boolean; body: Record<string, unknown> }> = [];
  // A loopback stand-in for an SMS bridge: it keeps what it was given and answers 200.
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push({
        signed: req.headers['x-roost-signature'] === signatureOf(body, SECRET),
        body: JSON.parse(body) as Record<string, unknown>,
      });
      res.end();
    });
  });
  beforeAll(() => new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r())));
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('carries the message text and the acknowledge link a bridge passes on', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
    const hook = new WebhookAdapter({
      url,
      secret: SECRET,
      locale: 'zh',
      timeZone: 'Asia/Shanghai',
    });
    const result = await hook.send(NOTE, async () => undefined);
    expect(result).toEqual({ ok: true, detail: 'HTTP 200' });
    expect(got).toHaveLength(1);
    expect(got[0]!.signed).toBe(true);
    expect(got[0]!.body).toMatchObject({
      type: 'alarm',
      channel: 'sms',
      phone: '13800000001',
      link: NOTE.link,
      text: [
        '【Roost】紧急：温度过高',
        'Weifang Broiler Farm / House 3：35.2 ℃（限值 32 ℃）',
        '发生于 2025-01-10 15:00',
        `确认：${NOTE.link}`,
      ].join('\n'),
    });
    // Without a public address there is no link, and the body says so rather than leaving it out.
    await hook.send({ ...NOTE, link: null }, async () => undefined);
    expect(got[1]!.body.link).toBeNull();
    expect(got[1]!.body.text).not.toContain('确认');
  });

  it("is in the README's variables, as every variable the server reads", () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(
      readme.indexOf('## Variables'),
      readme.indexOf('\n## ', readme.indexOf('## Variables') + 1),
    );
    // A row's first cell names variables in full or by a shared stem: `ROOST_X_ID` / `_SECRET`.
    const rows = section
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((l) => [...l.split('|')[1]!.matchAll(/`([A-Z_][A-Z0-9_]*)`/g)].map((m) => m[1]!));
    const documented = (key: string) =>
      rows.some((names) => {
        const full = names.filter((n) => !n.startsWith('_'));
        if (full.includes(key)) return true;
        const stems = full.flatMap((f) => [...f.matchAll(/_/g)].map((m) => f.slice(0, m.index)));
        return names.some((n) => n.startsWith('_') && stems.some((s) => s + n === key));
      });
    const missing = Object.keys(envSchema.shape).filter((key) => !documented(key));
    expect(missing).toEqual([]);
  });
});
