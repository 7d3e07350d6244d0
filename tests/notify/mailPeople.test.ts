import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySteps } from '../../server/alarms/lifecycle';
import { SEVERITY } from '../../server/alarms/rules';
import { AlarmService } from '../../server/alarms/service';
import { ServerEvents } from '../../server/events';
import { EmailAdapter } from '../../server/notify/email';
import { MailSender } from '../../server/notify/mail';
import type { Alarm } from '../../src/contract/alarms';
import { demoHouse } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

interface Mail {
  to: string[];
  data: string;
}

/** A real SMTP server on loopback that keeps every mail it takes. */
async function mailbox() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, cb) {
      let data = '';
      stream.on('data', (c: Buffer) => (data += c.toString()));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return { mails, port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The acknowledge link of a mail (quoted-printable soft breaks undone). */
const linkOf = (mail: Mail) =>
  /https:\/\/roost\.example\/ack\/(m[\w.-]+)/.exec(mail.data.replace(/=\r\n/g, ''))![1]!;

describe.each(testDatabaseTargets())('alarm e-mail to people on $name', (target) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof mailbox>>;
  let email: EmailAdapter;
  let sender: MailSender;
  beforeAll(async () => {
    t = await createTestApp(target);
    smtp = await mailbox();
    const log = pino({ level: 'silent' });
    email = new EmailAdapter({
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      from: 'alarms@roost.example',
      locale: 'en',
      timeZone: 'Asia/Shanghai',
      sleep: async () => undefined,
    });
    sender = new MailSender(t.database, {
      email,
      listed: ['office@farm.example'],
      locale: 'en',
      timeZone: 'Asia/Shanghai',
      log,
      publicUrl: 'https://roost.example',
      linkHours: 24,
    });
    // No alarm phone entry anywhere: mail must not need one.
    await t.database.query(`update alarm_phones set status = 'closed'`);
    for (const name of ['admin', 'area', 'farm', 'shack'])
      await t.database.query(`update users set email = $2 where username = $1`, [
        name,
        `${name}@farm.example`,
      ]);
  });
  afterAll(async () => {
    email?.close();
    await smtp?.close();
    await t?.close();
  });

  it('mails each person who may see the house once, with a link that acknowledges as them', async () => {
    // The area manager wants texts and calls only: no mail.
    const area = await t.signIn('area');
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/notify/prefs/save',
      headers: { authorization: area },
      payload: { severities: ['critical', 'major', 'minor'], channels: ['sms', 'voice'] },
    });
    expect(saved.statusCode).toBe(200);
    // House 4 is not one of the house manager's three.
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 4');
    const service = new AlarmService(t.database, new ServerEvents(pino({ level: 'silent' })));
    const [change] = await service.change(({ db }) =>
      applySteps(db, h, [
        {
          kind: 'raise',
          cause: 'temperatureHigh',
          subject: 'temperature',
          severity: SEVERITY.temperatureHigh,
          value: 38.5,
          limit: 25.428572,
          text: null,
          at: Date.now(),
        },
      ]),
    );
    const alarm: Alarm = change!.alarm;

    expect(await sender.send(new Date())).toBe(3);
    const to = smtp.mails.map((m) => m.to.join(',')).sort();
    expect(to).toEqual(['admin@farm.example', 'farm@farm.example', 'office@farm.example']);
    // Each mail is the person's own: one recipient, its own link, the reading with its unit.
    const links = smtp.mails.map(linkOf);
    expect(new Set(links).size).toBe(3);
    // Quoted-printable (the ℃): soft line breaks undone, the unit's bytes as sent.
    expect(smtp.mails[0]!.data.replace(/=\r\n/g, '')).toContain(
      '38.5 =E2=84=83 (limit 25.4 =E2=84=83)',
    );
    // Once: the next rounds mail nothing again.
    expect(await sender.send(new Date())).toBe(0);
    expect(smtp.mails).toHaveLength(3);
    const rows = await t.database.query<{ mailbox: string; ok: boolean }>(
      `select mailbox, ok from notify_mail_sends where alarm_id = $1 and mailbox <> '' order by mailbox`,
      [alarm.id],
    );
    expect(rows.map((r) => `${r.mailbox} ${r.ok}`)).toEqual([
      'admin@farm.example true',
      'farm@farm.example true',
      'office@farm.example true',
    ]);

    // The farm manager taps their link: acknowledged as Liu Yang, not as a phone number.
    const farmLink = links[smtp.mails.findIndex((m) => m.to[0] === 'farm@farm.example')]!;
    const page = await t.app.inject({ method: 'GET', url: `/api/notify/ack/${farmLink}` });
    expect(page.statusCode).toBe(200);
    // The page writes the reading as the mail did: with its unit.
    expect(bodyOf<{ value: number; unit: string }>(page).data).toMatchObject({
      value: 38.5,
      unit: '℃',
    });
    const tampered = farmLink.replace('m', 'm1');
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/notify/ack', payload: { token: tampered } }))
        .statusCode,
    ).toBe(403);
    const acked = await t.app.inject({
      method: 'POST',
      url: '/api/notify/ack',
      payload: { token: farmLink, comment: 'On my way' },
    });
    expect(acked.statusCode).toBe(200);
    expect(bodyOf<{ state: string; acknowledgedBy: string }>(acked).data).toMatchObject({
      state: 'acknowledged',
      acknowledgedBy: 'Liu Yang (farm manager)',
    });
  });

  it("acknowledges as the listed mailbox when it is nobody's account", async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 5');
    const service = new AlarmService(t.database, new ServerEvents(pino({ level: 'silent' })));
    await service.change(({ db }) =>
      applySteps(db, h, [
        {
          kind: 'raise',
          cause: 'humidityHigh',
          subject: 'humidity',
          severity: SEVERITY.humidityHigh,
          value: 94.8,
          limit: 80,
          text: null,
          at: Date.now(),
        },
      ]),
    );
    smtp.mails.length = 0;
    await sender.send(new Date());
    const office = smtp.mails.find((m) => m.to[0] === 'office@farm.example')!;
    const acked = await t.app.inject({
      method: 'POST',
      url: '/api/notify/ack',
      payload: { token: linkOf(office) },
    });
    expect(bodyOf<{ acknowledgedBy: string }>(acked).data.acknowledgedBy).toBe(
      'office@farm.example',
    );
  });
});
