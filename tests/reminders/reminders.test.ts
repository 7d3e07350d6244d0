import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remindersSchema } from '../../src/contract/reminders';
import { demoHouse } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

describe.each(testDatabaseTargets())("the day's reminders on $name", (target) => {
  let t: TestApp;
  let weifang1: Awaited<ReturnType<typeof demoHouse>>;
  let gaocheng1: Awaited<ReturnType<typeof demoHouse>>;
  beforeAll(async () => {
    t = await createTestApp(target);
    weifang1 = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
    gaocheng1 = await demoHouse(t.database, 'Gaocheng Broiler Farm', 'House 1');
    const raise = (houseId: number, farmId: number, state: string, minutesAgo: number) =>
      t.database.query(
        `insert into alarms (house_id, farm_id, cause, severity, state, raised_at)
         values ($1, $2, 'highTemperature', 'critical', $3, now() - make_interval(mins => $4))`,
        [houseId, farmId, state, minutesAgo],
      );
    await raise(weifang1.houseId, weifang1.farmId, 'active', 90);
    await raise(gaocheng1.houseId, gaocheng1.farmId, 'acknowledged', 5);
  }, 180_000);
  afterAll(() => t?.close());

  const get = async (user: string, url: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api${url}`,
      headers: { authorization: await t.signIn(user), locale: 'zh' },
    });
    return { status: res.statusCode, body: bodyOf(res) };
  };

  it('lists each open alarm of the scope, an hour unacknowledged as overdue', async () => {
    const { status, body } = await get('admin', '/reminder/today');
    expect(status).toBe(200);
    const { rows } = remindersSchema.parse(body.data);
    const alarms = rows.filter((r) => r.kind === 'alarm');
    const wf = alarms.find((r) => r.houseId === weifang1.houseId)!;
    expect(wf).toMatchObject({
      text: 'alarms.reminder.unacknowledged',
      params: { causeKey: 'alarms.cause.highTemperature' },
      overdue: true,
      farmName: 'Weifang Broiler Farm',
    });
    const gc = alarms.find((r) => r.houseId === gaocheng1.houseId)!;
    expect(gc).toMatchObject({ text: 'alarms.reminder.acknowledged', overdue: false });
  });

  it('shows a manager only its own houses, and one house when asked', async () => {
    const farm = remindersSchema.parse((await get('farm', '/reminder/today')).body.data);
    expect(farm.rows.map((r) => r.houseId)).toEqual([weifang1.houseId]);
    const one = remindersSchema.parse(
      (await get('admin', `/reminder/today?houseId=${gaocheng1.houseId}`)).body.data,
    );
    expect(one.rows.map((r) => r.houseId)).toEqual([gaocheng1.houseId]);
  });

  it('answers a house outside the scope like a missing one, and a bad id with 400', async () => {
    const outside = await get('farm', `/reminder/today?houseId=${gaocheng1.houseId}`);
    const missing = await get('farm', '/reminder/today?houseId=99999');
    expect(outside.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(outside.body.msg).toBe('栏舍不存在。');
    expect((await get('farm', '/reminder/today?houseId=2147483648')).status).toBe(400);
    expect((await get('farm', '/reminder/today?houseId=abc')).status).toBe(400);
  });
});
