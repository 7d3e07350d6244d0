import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwilioSmsAdapter } from '../../server/notify/twilio';
import { twilioSignature } from '../../server/notify/routes/receipts';
import type { DrillReport } from '../../src/contract/notifyDrill';
import { demoHouse } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import { json, noSleep, NOTE, standIn, tries } from './standIn';

const TOKEN = 'twilio-auth-token';
const CALLBACK = 'https://roost.example/api/notify/receipt/twilio';

describe('Twilio asked for delivery reports', () => {
  it('names the status callback on each message', async () => {
    const api = await standIn((_r, res) => json(res, 201, { sid: 'SM42', status: 'queued' }));
    try {
      const adapter = new TwilioSmsAdapter({
        accountSid: 'AC1',
        authToken: TOKEN,
        from: '+15005550006',
        countryCode: '86',
        url: api.url,
        locale: 'en',
        timeZone: 'Asia/Shanghai',
        sleep: noSleep,
        statusCallback: CALLBACK,
      });
      const t = tries();
      expect((await adapter.send(NOTE, t.onTry)).detail).toBe('queued SM42');
      expect(new URLSearchParams(api.got[0]!.body).get('StatusCallback')).toBe(CALLBACK);
    } finally {
      await api.close();
    }
  });
});

describe.each(testDatabaseTargets())('delivery reports of drills on $name', (target) => {
  let t: TestApp;
  let drillId: number;
  beforeAll(async () => {
    t = await createTestApp(target, {
      ROOST_SMS_PROVIDER: 'twilio',
      ROOST_TWILIO_ACCOUNT_SID: 'AC1',
      ROOST_TWILIO_AUTH_TOKEN: TOKEN,
      ROOST_TWILIO_FROM: '+15005550006',
      ROOST_PUBLIC_URL: 'https://roost.example',
    });
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
    const [d] = await t.database.query<{ id: number }>(
      `insert into notify_drills (farm_id, house_id, started_by, started_at, dispatched_at)
       values ($1, $2, 'Admin', now() - interval '1 minute', now()) returning id`,
      [h.farmId, h.houseId],
    );
    drillId = d!.id;
    await t.database.query(
      `insert into notify_drill_receipts (drill_id, phone_id, phone, channel, tries, sent_at, provider_id)
       values ($1, 1, '13800000001', 'sms', 1, now(), 'SM1'), ($1, 2, '13800000002', 'voice', 1, now(), 'CA2')`,
      [drillId],
    );
  });
  afterAll(async () => t?.close());

  const report = (
    params: Record<string, string>,
    signature = twilioSignature(TOKEN, CALLBACK, params),
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/notify/receipt/twilio',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature,
      },
      payload: new URLSearchParams(params).toString(),
    });

  it('marks a receipt delivered on a signed report and ignores an unsigned one', async () => {
    const delivered = { MessageSid: 'SM1', MessageStatus: 'delivered', AccountSid: 'AC1' };
    expect((await report(delivered, 'bm90IHRoZSBzaWduYXR1cmU=')).statusCode).toBe(403);
    expect(
      (
        await report(
          { ...delivered, MessageSid: 'SM9' },
          twilioSignature(TOKEN, CALLBACK, delivered),
        )
      ).statusCode,
    ).toBe(403);
    const [before] = await t.database.query<{ delivered_at: Date | null }>(
      `select delivered_at from notify_drill_receipts where provider_id = 'SM1'`,
    );
    expect(before?.delivered_at).toBeNull();

    expect((await report(delivered)).statusCode).toBe(204);
    expect((await report({ CallSid: 'CA2', CallStatus: 'no-answer' })).statusCode).toBe(204);
    const admin = await t.signIn('admin');
    const r = bodyOf<DrillReport>(
      await t.app.inject({
        method: 'GET',
        url: `/api/notify/drill/report?id=${drillId}`,
        headers: { authorization: admin },
      }),
    ).data;
    const sms = r.receipts.find((x) => x.channel === 'sms')!;
    expect(sms.deliveredAt).not.toBeNull();
    expect(sms.deliveredSeconds).toBeGreaterThanOrEqual(50);
    const call = r.receipts.find((x) => x.channel === 'voice')!;
    expect(call).toMatchObject({ deliveredAt: null, failedDetail: 'Twilio no-answer' });
  });
});
