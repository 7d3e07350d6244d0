import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import { demoHouse } from './helpers';

describe.each(testDatabaseTargets())('alarm settings routes on $name', (target) => {
  let t: TestApp;
  // Seeding the demo on a fresh database takes a while on the shared, loaded machine.
  beforeAll(async () => {
    t = await createTestApp(target);
  }, 180_000);
  afterAll(() => t?.close());

  const call = (
    token: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: object,
  ) => t.app.inject({ method, url, payload: body, headers: { authorization: token } });
  const phone = (farmId: number, houseId: number | null, number: string) => ({
    farmId,
    houseId,
    phone: number,
    period1Start: '08:00',
    period1End: '18:00',
    dateType: 'daily',
    repeatMinutes: 30,
    closable: true,
    alarmType: 'message',
    delayMinutes: 5,
    status: 'open',
    noticeTypes: ['block'],
    description: 'night shift',
  });

  it('alarm phones: create, list in scope, update, delete with the remaining count; house managers only for their houses', async () => {
    const h1 = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
    const h5 = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 5');
    const [farm, shack, area] = await Promise.all(
      ['farm', 'shack', 'area'].map((u) => t.signIn(u)),
    );

    const created = await call(
      farm!,
      'POST',
      '/api/alarmPhone/create',
      phone(h1.farmId, null, '13800000011'),
    );
    expect(created.statusCode).toBe(200);
    const entry = bodyOf<{
      id: number;
      farmName: string;
      houseName: string | null;
      noticeTypes: string[];
    }>(created).data;
    expect(entry).toMatchObject({
      farmName: 'Weifang Broiler Farm',
      houseName: null,
      noticeTypes: ['block'],
    });
    const onHouse5 = bodyOf<{ id: number }>(
      await call(
        farm!,
        'POST',
        '/api/alarmPhone/create',
        phone(h5.farmId, h5.houseId, '13800000012'),
      ),
    ).data;

    // The house manager of houses 1–3 sees the farm-wide entry, not the one of house 5, and
    // may not make a farm-wide one.
    const seen = bodyOf<{ rows: Array<{ id: number }> }>(
      await call(shack!, 'GET', '/api/alarmPhone/list'),
    ).data.rows.map((r) => r.id);
    expect(seen).toContain(entry.id);
    expect(seen).not.toContain(onHouse5.id);
    expect(
      (await call(shack!, 'POST', '/api/alarmPhone/create', phone(h1.farmId, null, '13800000013')))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await call(
          shack!,
          'POST',
          '/api/alarmPhone/create',
          phone(h5.farmId, h5.houseId, '13800000013'),
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call(farm!, 'POST', '/api/alarmPhone/create', {
          ...phone(h1.farmId, null, 'not a phone'),
        })
      ).statusCode,
    ).toBe(400);

    const updated = await call(farm!, 'PUT', '/api/alarmPhone/update', {
      ...phone(h1.farmId, h1.houseId, '13800000014'),
      id: entry.id,
    });
    expect(bodyOf(updated).data).toMatchObject({
      id: entry.id,
      phone: '13800000014',
      houseName: 'House 1',
    });

    // Without canOperate: refused before anything is read.
    await t.database.query(`update users set can_operate = false where username = 'area'`);
    expect(
      (await call(area!, 'DELETE', '/api/alarmPhone/delete', { id: entry.id })).statusCode,
    ).toBe(403);
    await t.database.query(`update users set can_operate = true where username = 'area'`);

    const deleted = await call(farm!, 'DELETE', '/api/alarmPhone/delete', { id: entry.id });
    expect(bodyOf(deleted).data).toEqual({ remaining: 1 });
    expect(
      (await call(farm!, 'DELETE', '/api/alarmPhone/delete', { id: entry.id })).statusCode,
    ).toBe(404);
    const log = await t.database.query<{ n: number }>(
      `select count(*)::int as n from operation_logs where function like 'alarmPhone.%'`,
    );
    expect(Number(log[0]?.n)).toBe(4);
  });

  it('alarm inputs: create, refuse a duplicate DI code, update, delete; places and limits in scope', async () => {
    const h2 = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
    const h5 = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 5');
    const [farm, shack] = await Promise.all(['farm', 'shack'].map((u) => t.signIn(u)));
    const input = {
      gatewayId: h2.gatewayId,
      diCode: 'DI1',
      content: 'Water pressure low',
      horn: true,
      shieldTest: false,
      relayType: 'normallyClosed',
      important: true,
    };
    const created = bodyOf<{ id: number; networkId: string; houseName: string }>(
      await call(shack!, 'POST', '/api/alarmInput/create', input),
    ).data;
    expect(created).toMatchObject({
      networkId: h2.networkId,
      houseName: 'House 2',
      relayType: 'normallyClosed',
    });
    expect((await call(shack!, 'POST', '/api/alarmInput/create', input)).statusCode).toBe(409);
    expect(
      (await call(shack!, 'POST', '/api/alarmInput/create', { ...input, gatewayId: h5.gatewayId }))
        .statusCode,
    ).toBe(404);
    const updated = await call(shack!, 'PUT', '/api/alarmInput/update', {
      ...input,
      content: 'Water pressure very low',
      id: created.id,
    });
    expect(bodyOf(updated).data).toMatchObject({
      id: created.id,
      content: 'Water pressure very low',
    });
    expect(
      bodyOf<{ rows: Array<{ id: number }> }>(
        await call(farm!, 'GET', `/api/alarmInput/list?gatewayId=${h2.gatewayId}`),
      ).data.rows,
    ).toMatchObject([{ id: created.id }]);
    expect(
      bodyOf(await call(shack!, 'DELETE', '/api/alarmInput/delete', { id: created.id })).data,
    ).toEqual({ remaining: 0 });

    const places = bodyOf<Array<{ houseId: number }>>(
      await call(shack!, 'GET', '/api/alarm/places'),
    ).data;
    expect(places.map((p) => p.houseId)).toContain(h2.houseId);
    expect(places.map((p) => p.houseId)).not.toContain(h5.houseId);

    const limits = { co2Max: 4000, minDurationSeconds: 30 };
    expect(
      (await call(shack!, 'PUT', '/api/alarm/limits', { houseId: h5.houseId, limits })).statusCode,
    ).toBe(404);
    expect(
      bodyOf(await call(shack!, 'PUT', '/api/alarm/limits', { houseId: h2.houseId, limits })).data,
    ).toEqual(limits);
    expect(
      bodyOf(await call(farm!, 'GET', `/api/alarm/limits?houseId=${h2.houseId}`)).data,
    ).toEqual(limits);
  });
});
