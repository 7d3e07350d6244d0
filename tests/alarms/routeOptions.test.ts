import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import { demoHouse } from './helpers';

const ALIYUN_TOKEN = 'aliyun-receipts-route-options';

/**
 * The alarm, notification and reminder routes as their options declare them: who may call
 * each, which are operating actions, what they take. The checks that run before the input is
 * read keep their order (a receipt's secret before its body), and a delete still finds its id
 * in the query when it has no body.
 */
describe('alarm and notification routes declared', () => {
  let t: TestApp;
  let admin: string;
  let paths: Record<string, Record<string, Record<string, unknown>>>;
  beforeAll(async () => {
    // Only the Alibaba SMS receipt has its secret: the Tencent one is not configured.
    t = await createTestApp(testDatabaseTargets()[0]!, {
      ROOST_ALIYUN_SMS_RECEIPT_TOKEN: ALIYUN_TOKEN,
    });
    admin = await t.signIn('admin');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { authorization: admin },
    });
    paths = res.json().paths;
  }, 180_000);
  afterAll(() => t?.close());

  it('names who may call each route and which change what a house does', () => {
    const drill = paths['/api/notify/drill/start']!['post']!;
    expect(drill['x-roles']).toEqual(['administrator']);
    expect(drill['x-operating']).toBe(true);
    expect(paths['/api/notify/drill/report.csv']!['get']!['x-roles']).toEqual(['administrator']);
    const ack = paths['/api/alarm/acknowledge']!['post']!;
    expect(ack['x-roles']).toHaveLength(5);
    expect(ack['x-operating']).toBe(true);
    // Each user's own preferences are theirs to set without the operation permission.
    expect(paths['/api/notify/prefs/save']!['post']!['x-operating']).toBeUndefined();
    // The acknowledge link and the providers' reports need no sign-in.
    expect(paths['/api/notify/ack/{token}']!['get']!['security']).toEqual([]);
    expect(paths['/api/notify/receipt/tencent/{token}']!['post']!['security']).toEqual([]);
    expect(paths['/api/reminder/today']!['get']!['parameters']).toEqual([
      expect.objectContaining({ name: 'houseId', in: 'query', required: false }),
    ]);
    const list = paths['/api/alarm/list']!['get']!['parameters'] as Array<{ name: string }>;
    expect(list.map((p) => p.name)).toEqual(expect.arrayContaining(['cause', 'state', 'from']));
  });

  it("checks a receipt address's secret before the report it carries", async () => {
    const post = (url: string) =>
      t.app.inject({ method: 'POST', url, payload: [{ not: 'a report' }] });
    expect((await post('/api/notify/receipt/tencent/anything')).statusCode).toBe(404);
    expect((await post('/api/notify/receipt/aliyun/not-the-secret')).statusCode).toBe(403);
    expect((await post(`/api/notify/receipt/aliyun/${ALIYUN_TOKEN}`)).statusCode).toBe(400);
  });

  it('deletes an alarm phone entry and an alarm input named in the query', async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
    const call = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, payload, headers: { authorization: admin } });
    const phone = await call('POST', '/api/alarmPhone/create', {
      farmId: h.farmId,
      houseId: h.houseId,
      phone: '13800000077',
      period1Start: '08:00',
      period1End: '18:00',
      dateType: 'daily',
      repeatMinutes: 0,
      closable: true,
      alarmType: 'message',
      delayMinutes: 0,
      status: 'open',
      noticeTypes: ['block'],
    });
    expect(phone.statusCode).toBe(200);
    const phoneId = bodyOf<{ id: number }>(phone).data.id;
    const input = await call('POST', '/api/alarmInput/create', {
      gatewayId: h.gatewayId,
      diCode: 'DI7',
      content: 'Door open',
      horn: false,
      shieldTest: false,
      relayType: 'normallyOpen',
      important: false,
    });
    expect(input.statusCode).toBe(200);
    const inputId = bodyOf<{ id: number }>(input).data.id;

    const phoneGone = await call('DELETE', `/api/alarmPhone/delete?id=${phoneId}`);
    expect(phoneGone.statusCode).toBe(200);
    expect(bodyOf<{ remaining: number }>(phoneGone).data.remaining).toBeGreaterThanOrEqual(0);
    const inputGone = await call('DELETE', `/api/alarmInput/delete?id=${inputId}`);
    expect(inputGone.statusCode).toBe(200);
    // Neither id nor body: refused as bad input, not a server error.
    expect((await call('DELETE', '/api/alarmInput/delete')).statusCode).toBe(400);
  });
});
