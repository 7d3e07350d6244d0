import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelAdapter } from '../../server/alarms/channels';
import { NotificationDispatcher } from '../../server/alarms/dispatcher';
import { applySteps } from '../../server/alarms/lifecycle';
import { SEVERITY } from '../../server/alarms/rules';
import { AlarmService } from '../../server/alarms/service';
import { ServerEvents } from '../../server/events';
import { AliyunSmsAdapter, AliyunVoiceAdapter } from '../../server/notify/aliyun';
import { TencentSmsAdapter } from '../../server/notify/tencent';
import type { NotifyAttempt } from '../../src/contract/alarms';
import type { DrillReport } from '../../src/contract/notifyDrill';
import { demoHouse } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import { json, noSleep, standIn } from './standIn';

const ALIYUN_TOKEN = 'aliyun-receipts-0123456789';
const TENCENT_TOKEN = 'tencent-receipts-0123456789';
const ALIYUN_VOICE_TOKEN = 'aliyun-voice-receipts-0123456789';
const CALL_ID = '116012354148^10281378';

/**
 * Alibaba Cloud's and Tencent Cloud's delivery reports, posted as each documents them, reach
 * the alarm or drill whose message the provider accepted under that id; a report at a wrong
 * address or naming no message Roost sent is refused and changes nothing.
 */
describe.each(testDatabaseTargets())('SMS and call delivery reports on $name', (target) => {
  let t: TestApp;
  let admin: string;
  let service: AlarmService;
  const log = pino({ level: 'silent' });
  const aliyunApi = standIn((_r, res) =>
    json(res, 200, { Code: 'OK', Message: 'OK', BizId: '900619746936498440^0', RequestId: 'R1' }),
  );
  const aliyunVoiceApi = standIn((_r, res) =>
    json(res, 200, { Code: 'OK', Message: 'OK', CallId: CALL_ID, RequestId: 'R2' }),
  );
  const tencentApi = standIn((_r, res) =>
    json(res, 200, {
      Response: {
        SendStatusSet: [
          { SerialNo: '5000:1045710669157053657849499619', Code: 'Ok', Message: 'send success' },
        ],
        RequestId: 'a0aabda6',
      },
    }),
  );

  beforeAll(async () => {
    t = await createTestApp(target, {
      ROOST_ALIYUN_SMS_RECEIPT_TOKEN: ALIYUN_TOKEN,
      ROOST_TENCENT_SMS_RECEIPT_TOKEN: TENCENT_TOKEN,
      ROOST_ALIYUN_VOICE_RECEIPT_TOKEN: ALIYUN_VOICE_TOKEN,
    });
    admin = await t.signIn('admin');
    service = new AlarmService(t.database, new ServerEvents(log));
  });
  afterAll(async () => {
    await t?.close();
    await (await aliyunApi).close();
    await (await tencentApi).close();
    await (await aliyunVoiceApi).close();
  });

  const common = { locale: 'en' as const, timeZone: 'Asia/Shanghai', sleep: noSleep };
  const aliyun = async (): Promise<ChannelAdapter> =>
    new AliyunSmsAdapter({
      credentials: { accessKeyId: 'LTAI5t', accessKeySecret: 'secret' },
      url: (await aliyunApi).url,
      signName: 'Roost',
      templateCode: 'SMS_1',
      ...common,
    });
  const aliyunVoice = async (): Promise<ChannelAdapter> =>
    new AliyunVoiceAdapter({
      credentials: { accessKeyId: 'LTAI5t', accessKeySecret: 'secret' },
      url: (await aliyunVoiceApi).url,
      ttsCode: 'TTS_1',
      showNumber: '057100000000',
      ...common,
    });
  const tencent = async (): Promise<ChannelAdapter> =>
    new TencentSmsAdapter({
      secretId: 'AKID',
      secretKey: 'key',
      appId: '1400000000',
      signName: 'Roost',
      templateId: '100',
      region: 'ap-guangzhou',
      countryCode: '86',
      url: (await tencentApi).url,
      ...common,
    });

  /** An alarm of the house, sent once by SMS (or a call) through `adapter` to one entry. */
  async function sentAlarm(
    houseName: string,
    phone: string,
    adapter: ChannelAdapter,
    alarmType: 'message' | 'phone' = 'message',
  ) {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', houseName);
    await t.database.query(`update alarm_phones set status = 'closed'`);
    await t.database.query(
      `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type, repeat_minutes,
         closable, alarm_type, delay_minutes, status, notice_types)
       values ($1, $2, $3, '00:00', '00:00', 'daily', 0, true, $4, 0, 'open', '["block"]')`,
      [h.farmId, h.houseId, phone, alarmType],
    );
    const [change] = await service.change(({ db }) =>
      applySteps(db, h, [
        {
          kind: 'raise',
          cause: 'temperatureHigh',
          subject: 'temperature',
          severity: SEVERITY.temperatureHigh,
          value: 35,
          limit: 32,
          text: null,
          at: Date.now(),
        },
      ]),
    );
    const dispatcher = new NotificationDispatcher(t.database, {
      adapters: { sms: adapter, voice: adapter },
      timeZone: 'Asia/Shanghai',
      log,
    });
    expect(await dispatcher.tick()).toBe(1);
    return change!.alarm.id;
  }

  const attempts = async (alarmId: number) =>
    bodyOf<{ rows: NotifyAttempt[] }>(
      await t.app.inject({
        method: 'GET',
        url: `/api/alarm/attempts?alarmId=${alarmId}`,
        headers: { authorization: admin },
      }),
    ).data.rows.map((a) => `${a.adapter} ${a.ok ? 'ok' : 'failed'} ${a.detail}`);

  const post = (url: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });

  it('shows an Alibaba Cloud failure report on the alarm and refuses forged or unknown ones', async () => {
    const alarmId = await sentAlarm('House 1', '13800000051', await aliyun());
    expect(await attempts(alarmId)).toEqual(['aliyun-sms ok OK 900619746936498440^0']);
    const report = (bizId: string) => [
      {
        phone_number: '13800000051',
        send_time: '2026-11-23 10:00:00',
        report_time: '2026-11-23 10:00:07',
        success: false,
        err_code: 'MK:0001',
        err_msg: '用户接收失败',
        sms_size: '1',
        biz_id: bizId,
        out_id: '',
      },
    ];
    const url = `/api/notify/receipt/aliyun/${ALIYUN_TOKEN}`;
    // A guessed address, and a report of a message Roost never sent.
    expect(
      (await post(`/api/notify/receipt/aliyun/${'x'.repeat(26)}`, report('900619746936498440^0')))
        .statusCode,
    ).toBe(403);
    expect((await post(url, report('111111111111111111^0'))).statusCode).toBe(404);
    expect(await attempts(alarmId)).toHaveLength(1);

    const res = await post(url, report('900619746936498440^0'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 0 });
    // Alibaba Cloud pushes again when unsure it was heard: the failure shows once.
    expect((await post(url, report('900619746936498440^0'))).statusCode).toBe(200);
    expect(await attempts(alarmId)).toEqual([
      'aliyun-sms failed Aliyun MK:0001 用户接收失败',
      'aliyun-sms ok OK 900619746936498440^0',
    ]);
  });

  it('shows an Alibaba Cloud call nobody took on the alarm, once, and passes over progress reports', async () => {
    const alarmId = await sentAlarm('House 4', '13800000054', await aliyunVoice(), 'phone');
    expect(await attempts(alarmId)).toEqual([`aliyun-voice ok OK ${CALL_ID}`]);
    const call = (callId: string, statusCode: string, statusMsg: string) => [
      {
        status_code: statusCode,
        callee: '13800000054',
        ring_time: '2026-11-24 10:02:40',
        duration: '0',
        voice_type: 'voice',
        originate_time: '2026-11-24 10:02:34',
        end_time: '2026-11-24 10:03:10',
        call_id: callId,
        caller: '057100000000',
        status_msg: statusMsg,
        out_id: '',
        toll_type: 'LOCAL',
      },
    ];
    const url = `/api/notify/receipt/aliyun-voice/${ALIYUN_VOICE_TOKEN}`;
    // The SMS address is not the voice address; a call Roost never made is not known.
    expect(
      (await post(`/api/notify/receipt/aliyun-voice/${ALIYUN_TOKEN}`, call(CALL_ID, '200003', '')))
        .statusCode,
    ).toBe(403);
    expect((await post(url, call('999^1', '200003', '用户收到呼叫但未接听'))).statusCode).toBe(404);
    expect((await post(url, [{ call_id: CALL_ID }])).statusCode).toBe(400);
    // Ringing is no result yet.
    const ringing = await post(url, call(CALL_ID, '200201', '被叫响铃'));
    expect(ringing.statusCode).toBe(200);
    expect(await attempts(alarmId)).toHaveLength(1);

    const res = await post(url, call(CALL_ID, '200003', '用户收到呼叫但未接听'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 0 });
    expect((await post(url, call(CALL_ID, '200003', '用户收到呼叫但未接听'))).statusCode).toBe(200);
    expect(await attempts(alarmId)).toEqual([
      'aliyun-voice failed Aliyun 200003 用户收到呼叫但未接听',
      `aliyun-voice ok OK ${CALL_ID}`,
    ]);
  });

  it('shows a Tencent Cloud failure report on the alarm and refuses forged or unknown ones', async () => {
    const alarmId = await sentAlarm('House 2', '13800000052', await tencent());
    const serial = '5000:1045710669157053657849499619';
    const status = (sid: string, reportStatus = 'FAIL') => [
      {
        user_receive_time: '2026-11-23 10:00:09',
        nationcode: '86',
        mobile: '13800000052',
        report_status: reportStatus,
        errmsg: 'UNDELIV',
        description: 'The user did not receive it',
        sid,
      },
    ];
    const url = `/api/notify/receipt/tencent/${TENCENT_TOKEN}`;
    expect(
      (await post(`/api/notify/receipt/tencent/${ALIYUN_TOKEN}`, status(serial))).statusCode,
    ).toBe(403);
    expect((await post(url, status('5000:999'))).statusCode).toBe(404);
    expect((await post(url, [{ sid: serial }])).statusCode).toBe(400);
    expect(await attempts(alarmId)).toEqual([`tencent-sms ok Ok ${serial}`]);

    const res = await post(url, status(serial));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: 0, errmsg: 'OK' });
    expect(await attempts(alarmId)).toEqual([
      'tencent-sms failed Tencent UNDELIV The user did not receive it',
      `tencent-sms ok Ok ${serial}`,
    ]);
  });

  it("marks a drill's messages and calls delivered or failed from the providers' reports", async () => {
    const h = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 3');
    const [d] = await t.database.query<{ id: number }>(
      `insert into notify_drills (farm_id, house_id, started_by, started_at, dispatched_at)
       values ($1, $2, 'Admin', now() - interval '1 minute', now()) returning id`,
      [h.farmId, h.houseId],
    );
    await t.database.query(
      `insert into notify_drill_receipts (drill_id, phone_id, phone, channel, tries, sent_at, provider_id)
       values ($1, 1, '13800000061', 'sms', 1, now(), 'BIZ61^0'), ($1, 2, '13800000062', 'sms', 1, now(), '5000:62'),
         ($1, 3, '13800000063', 'voice', 1, now(), 'CALL63^1')`,
      [d!.id],
    );
    const delivered = await post(`/api/notify/receipt/aliyun/${ALIYUN_TOKEN}`, [
      {
        phone_number: '13800000061',
        send_time: '2026-11-23 10:00:00',
        report_time: '2026-11-23 10:00:03',
        success: true,
        err_code: 'DELIVERED',
        err_msg: '用户接收成功',
        sms_size: '1',
        biz_id: 'BIZ61^0',
        out_id: '',
      },
    ]);
    expect(delivered.statusCode).toBe(200);
    const failed = await post(`/api/notify/receipt/tencent/${TENCENT_TOKEN}`, [
      {
        user_receive_time: '2026-11-23 10:00:09',
        nationcode: '86',
        mobile: '13800000062',
        report_status: 'FAIL',
        errmsg: 'MK:0005',
        description: '',
        sid: '5000:62',
      },
    ]);
    expect(failed.statusCode).toBe(200);
    const answered = await post(`/api/notify/receipt/aliyun-voice/${ALIYUN_VOICE_TOKEN}`, [
      { status_code: '200000', status_msg: '用户听完语音', call_id: 'CALL63^1', duration: '21' },
    ]);
    expect(answered.statusCode).toBe(200);
    const r = bodyOf<DrillReport>(
      await t.app.inject({
        method: 'GET',
        url: `/api/notify/drill/report?id=${d!.id}`,
        headers: { authorization: admin },
      }),
    ).data;
    const of = (phone: string) => r.receipts.find((x) => x.phone === phone)!;
    expect(of('13800000061').deliveredSeconds).toBeGreaterThanOrEqual(50);
    expect(of('13800000062')).toMatchObject({ deliveredAt: null, failedDetail: 'Tencent MK:0005' });
    expect(of('13800000063').deliveredSeconds).toBeGreaterThanOrEqual(50);
  });
});
