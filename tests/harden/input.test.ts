import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoHouse } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe.each(testDatabaseTargets())('hostile input and scope edges on $name', (target) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp(target);
    for (const u of ['admin', 'farm', 'shack']) tokens[u] = await t.signIn(u);
  }, 180_000);
  afterAll(() => t?.close());

  const call = (
    token: string | null,
    method: Method,
    url: string,
    body?: object,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      payload: body,
      headers: { ...(token ? { authorization: token } : {}), ...headers },
    });

  it('an id beyond the database integer is a 400, not a 500', async () => {
    const res = await call(tokens.shack!, 'GET', '/api/overview/listOverview/?farmId=2147483648');
    expect(res.statusCode).toBe(400);
    expect(
      (await call(tokens.admin!, 'GET', '/api/alarm/limits?houseId=99999999999')).statusCode,
    ).toBe(400);
    expect((await call(tokens.admin!, 'GET', '/api/alarm/list?page=9e15')).statusCode).toBe(400);
  });

  it('a NUL byte in text is a 400 and nothing is written, signed in or not', async () => {
    const before = await t.database.query<{ n: number }>('select count(*)::int as n from breeds');
    const res = await call(tokens.admin!, 'POST', '/api/breed/create', {
      name: 'Evil\u0000breed',
      code: 'NUL1',
    });
    expect(res.statusCode).toBe(400);
    expect(bodyOf(res).msg).toBe('Check “Name”: the value is not valid.');
    const after = await t.database.query<{ n: number }>('select count(*)::int as n from breeds');
    expect(after[0]!.n).toBe(before[0]!.n);

    const ingest = await call(null, 'POST', '/api/ingest/a%00b', { ts: Date.now(), metrics: {} });
    expect(ingest.statusCode).toBe(400);
  });

  it('writing to a house or farm that does not exist is a 404 and writes nothing', async () => {
    const limits = await call(tokens.admin!, 'PUT', '/api/alarm/limits', {
      houseId: 999_999,
      limits: {},
    });
    expect(limits.statusCode).toBe(404);
    const phone = await call(tokens.admin!, 'POST', '/api/alarmPhone/create', {
      farmId: 999_999,
      houseId: null,
      phone: '13800000099',
      period1Start: '08:00',
      period1End: '18:00',
      dateType: 'daily',
      repeatMinutes: 30,
      closable: true,
      alarmType: 'message',
      delayMinutes: 5,
      status: 'open',
      noticeTypes: ['block'],
      description: '',
    });
    expect(phone.statusCode).toBe(404);
    const rows = await t.database.query<{ n: number }>(
      `select (select count(*) from alarm_limits where house_id = 999999)::int
            + (select count(*) from alarm_phones where farm_id = 999999)::int as n`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('an encoded /api path meets the same Origin and session checks as the plain one', async () => {
    const foreign = { origin: 'http://evil.example' };
    expect((await call(tokens.farm!, 'POST', '/api/logout', undefined, foreign)).statusCode).toBe(
      403,
    );
    expect((await call(tokens.farm!, 'POST', '/%61pi/logout', undefined, foreign)).statusCode).toBe(
      403,
    );
    // Without a session the encoded path is refused like the plain one.
    expect((await call(null, 'GET', '/%61pi/alarm/places')).statusCode).toBe(401);
    // The session survived both attempts.
    expect((await call(tokens.farm!, 'GET', '/api/alarm/places')).statusCode).toBe(200);
  });

  it('a house manager can neither rewrite nor delete a farm-wide alarm phone entry', async () => {
    const h1 = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
    const entry = {
      farmId: h1.farmId,
      houseId: null,
      phone: '13800000077',
      period1Start: '08:00',
      period1End: '18:00',
      dateType: 'daily',
      repeatMinutes: 30,
      closable: true,
      alarmType: 'message',
      delayMinutes: 5,
      status: 'open',
      noticeTypes: ['block'],
      description: 'whole farm',
    };
    const created = bodyOf<{ id: number }>(
      await call(tokens.farm!, 'POST', '/api/alarmPhone/create', entry),
    ).data;
    const moved = await call(tokens.shack!, 'PUT', '/api/alarmPhone/update', {
      ...entry,
      id: created.id,
      houseId: h1.houseId,
      phone: '13900000000',
    });
    expect(moved.statusCode).toBe(403);
    expect(
      (await call(tokens.shack!, 'DELETE', '/api/alarmPhone/delete', { id: created.id }))
        .statusCode,
    ).toBe(403);
    const [row] = await t.database.query<{ house_id: number | null; phone: string }>(
      'select house_id, phone from alarm_phones where id = $1',
      [created.id],
    );
    expect(row).toEqual({ house_id: null, phone: '13800000077' });
  });

  it("a house outside the caller's scope answers like a missing one", async () => {
    const [user] = await t.database.query<{ id: number }>(
      `select id from users where username = 'shack'`,
    );
    const [foreign] = await t.database.query<{ id: number }>(
      `select h.id from houses h join farms f on f.id = h.farm_id
        where f.name <> 'Weifang Broiler Farm' order by h.id limit 1`,
    );
    const save = (houseId: number) =>
      call(tokens.farm!, 'PUT', '/api/user/saveUserShacks', {
        id: user!.id,
        roleKey: 'shack_manager',
        shackIds: [houseId],
      });
    const missing = await save(2_000_000_000);
    const outside = await save(foreign!.id);
    expect(missing.statusCode).toBe(404);
    expect(outside.statusCode).toBe(missing.statusCode);
    expect(bodyOf(outside).msg).toBe(bodyOf(missing).msg);
  });
});
