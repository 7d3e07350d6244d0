import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySteps } from '../../server/alarms/lifecycle';
import { SEVERITY } from '../../server/alarms/rules';
import { AlarmService } from '../../server/alarms/service';
import { ServerEvents } from '../../server/events';
import { ackLinkMaker, ackLinkSecret, signAckToken } from '../../server/notify/ackLink';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import { demoHouse } from '../alarms/helpers';

describe.each(testDatabaseTargets())('the signed acknowledge link on $name', (target) => {
  let t: TestApp;
  let service: AlarmService;
  let phoneId: number;
  let alarmId: number;
  let otherAlarmId: number;
  beforeAll(async () => {
    t = await createTestApp(target);
    service = new AlarmService(t.database, new ServerEvents(pino({ level: 'silent' })));
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
    const [p] = await t.database.query<{ id: number }>(
      `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type, repeat_minutes,
         closable, alarm_type, delay_minutes, status, notice_types)
       values ($1, null, '13800000055', '00:00', '00:00', 'daily', 0, true, 'message', 0, 'open', '["block"]') returning id`,
      [h.farmId],
    );
    phoneId = p!.id;
    const raise = async (houseName: string) => {
      const house = await demoHouse(t.database, 'Weifang Broiler Farm', houseName);
      const [c] = await service.change(({ db }) =>
        applySteps(db, house, [
          {
            kind: 'raise',
            cause: 'temperatureHigh',
            subject: 'temperature',
            severity: SEVERITY.temperatureHigh,
            value: 35.2,
            limit: 32,
            text: null,
            at: Date.now(),
          },
        ]),
      );
      return c!.alarm.id;
    };
    alarmId = await raise('House 1');
    otherAlarmId = await raise('House 2');
  });
  afterAll(async () => t?.close());

  const page = (token: string, locale = 'en') =>
    t.app.inject({ method: 'GET', url: `/api/notify/ack/${token}`, headers: { locale } });
  const ack = (token: string, comment?: string) =>
    t.app.inject({ method: 'POST', url: '/api/notify/ack', payload: { token, comment } });

  it('opens without a sign-in and acknowledges with one tap and a comment', async () => {
    const link = await ackLinkMaker(t.database, 'https://roost.example', 24)(
      alarmId,
      phoneId,
      new Date(),
    );
    expect(link).toMatch(/^https:\/\/roost\.example\/ack\/\d+\.\d+\.\d+\.[\w-]{43}$/);
    const token = link.split('/ack/')[1]!;
    const opened = await page(token);
    expect(opened.statusCode).toBe(200);
    expect(
      bodyOf<{ alarmId: number; state: string; houseName: string }>(opened).data,
    ).toMatchObject({
      alarmId,
      state: 'active',
      houseName: 'House 1',
    });
    const done = await ack(token, 'Opened the side inlets');
    expect(done.statusCode).toBe(200);
    const [row] = await t.database.query<{
      state: string;
      acknowledged_by: string;
      ack_comment: string;
    }>('select state, acknowledged_by, ack_comment from alarms where id = $1', [alarmId]);
    expect(row).toEqual({
      state: 'acknowledged',
      acknowledged_by: '13800000055',
      ack_comment: 'Opened the side inlets',
    });
    // The operation log has the acknowledgement, by the link's phone, from a mobile.
    const [log] = await t.database.query<{
      function: string;
      operator_name: string;
      source: string;
    }>(
      `select function, operator_name, source from operation_logs where function = 'alarm.acknowledge' order by id desc limit 1`,
    );
    expect(log).toEqual({
      function: 'alarm.acknowledge',
      operator_name: '13800000055',
      source: 'mobile',
    });
    // A second tap finds it done.
    expect((await ack(token)).statusCode).toBe(409);
  });

  it('refuses a tampered link, and one for another alarm, and an expired one', async () => {
    const secret = await ackLinkSecret(t.database);
    const good = signAckToken(secret, otherAlarmId, phoneId, new Date(Date.now() + 3_600_000));
    const [, p, exp, sig] = good.split('.');
    const forOther = `${alarmId}.${p}.${exp}.${sig}`;
    const longer = `${otherAlarmId}.${p}.${Number(exp) + 86_400}.${sig}`;
    for (const token of [forOther, longer, `${good.slice(0, -2)}xx`, 'not-a-token-at-all']) {
      const res = await page(token);
      expect(res.statusCode, token).toBe(403);
      expect(res.json<{ msg: string }>().msg).toBe('This acknowledge link is not valid.');
      expect((await ack(token)).statusCode).toBe(403);
    }
    const expired = signAckToken(secret, otherAlarmId, phoneId, new Date(Date.now() - 1000));
    const res = await page(expired, 'zh');
    expect(res.statusCode).toBe(403);
    expect(res.json<{ msg: string }>().msg).toBe('该确认链接已过期，请在 Roost 中打开报警。');
    expect((await ack(expired)).statusCode).toBe(403);
    const [row] = await t.database.query<{ state: string }>(
      'select state from alarms where id = $1',
      [otherAlarmId],
    );
    expect(row?.state).toBe('active');
  });

  it('keeps escalation levels inside the caller scope', async () => {
    const shack = await t.signIn('shack');
    const farm = await t.signIn('farm');
    const save = (token: string, id: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/notify/escalation/save',
        payload: { phoneId: id, level: 1 },
        headers: { authorization: token },
      });
    // A farm-wide entry covers houses a house manager does not run.
    expect((await save(shack, phoneId)).statusCode).toBe(403);
    const tieling = await demoHouse(t.database, 'Tieling Broiler Farm', 'House 1');
    const [away] = await t.database.query<{ id: number }>(
      `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type, repeat_minutes,
         closable, alarm_type, delay_minutes, status, notice_types)
       values ($1, null, '13800000066', '00:00', '00:00', 'daily', 0, true, 'message', 0, 'open', '["block"]') returning id`,
      [tieling.farmId],
    );
    expect((await save(farm, away!.id)).statusCode).toBe(404);
    expect((await save(farm, phoneId)).statusCode).toBe(200);
    const list = bodyOf<{ rows: Array<{ phoneId: number; level: number }> }>(
      await t.app.inject({
        method: 'GET',
        url: '/api/notify/escalation/list',
        headers: { authorization: farm },
      }),
    ).data.rows;
    expect(list).toEqual([{ phoneId, level: 1 }]);
  });
});
