import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Concentrator, Terminal } from '../../src/contract/devices';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { caller, concentrator, houseNamed, terminal } from './helpers';

describe.each(testDatabaseTargets())('concentrators and terminal devices on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  }, 180_000);
  afterAll(() => t?.close());

  it('creates, searches, edits and deletes them with the remaining count; status follows the gateway and the port', async () => {
    const farm = caller(t, await t.signIn('farm'));
    const { houseId, networkId } = await houseNamed(t, 'Weifang Broiler Farm', 'House 1');

    const c = await farm<Concentrator>('POST', '/concentrator/create', concentrator(houseId));
    expect(c.status).toBe(200);
    expect(c.data).toMatchObject({ name: 'Controller C1', status: 'offline', devices: 0 });
    const again = await farm('POST', '/concentrator/create', concentrator(houseId));
    expect(again.status).toBe(409);

    const d = await farm<Terminal>(
      'POST',
      '/terminal/create',
      terminal(houseId, { concentratorId: c.data.id }),
    );
    expect(d.status).toBe(200);
    expect(d.data).toMatchObject({ concentratorName: 'Controller C1', status: 'offline' });
    expect(d.data.extras.map((e) => e.code)).toEqual(['dust', 'scale_1']);

    // A reading with the fan in error: the gateway is online, the device and its concentrator in fault.
    const stored = await t.ingest.submitTelemetry(networkId, {
      ts: Date.now(),
      metrics: { temperature: 21 },
      devices: { fan_1: { state: 3 } },
    });
    expect(stored.status).toBe('stored');
    const list = await farm<{ rows: Terminal[] }>(
      'GET',
      `/terminal/list?houseId=${houseId}&search=dust`,
    );
    expect(list.data.rows).toHaveLength(1);
    expect(list.data.rows[0]!.status).toBe('fault');
    const cs = await farm<{ rows: Concentrator[] }>('GET', `/concentrator/list?houseId=${houseId}`);
    expect(cs.data.rows[0]).toMatchObject({ status: 'fault', devices: 1 });
    await t.ingest.submitTelemetry(networkId, {
      ts: Date.now() + 1000,
      metrics: { temperature: 21 },
      devices: { fan_1: { state: 1 } },
    });
    const online = await farm<{ rows: Terminal[] }>('GET', `/terminal/list?houseId=${houseId}`);
    expect(online.data.rows[0]!.status).toBe('online');
    expect(
      (await farm<{ rows: Terminal[] }>('GET', '/terminal/list?search=nothing-like-it')).data.rows,
    ).toHaveLength(0);

    const edited = await farm<Terminal>('PUT', '/terminal/update', {
      ...terminal(houseId, { concentratorId: c.data.id, name: 'Dust and scale' }),
      id: d.data.id,
    });
    expect(edited.data.name).toBe('Dust and scale');

    // An extra parameter may not take a catalogue metric's key, in the caller's language.
    const clash = await caller(t, await t.signIn('farm'), 'zh')('POST', '/terminal/create', {
      ...terminal(houseId, { code: 'D2' }),
      extras: [{ code: 'temperature', name: 'T', unit: '℃', min: 0, max: 50 }],
    });
    expect(clash.status).toBe(400);
    expect(clash.msg).toContain('已是标准指标');
    // …nor one another device of the house already has.
    const taken = await farm('POST', '/terminal/create', terminal(houseId, { code: 'D3' }));
    expect(taken.status).toBe(409);

    const second = await farm<Terminal>('POST', '/terminal/create', {
      ...terminal(houseId, { code: 'F2', name: 'Fan 2', controlPort: 'fan_2', type: 'fan' }),
      extras: [],
    });
    expect(second.status).toBe(200);
    // A DELETE without a body (as many HTTP clients send one) names its entry in the query.
    const gone = await farm<{ remaining: number }>(
      'DELETE',
      `/terminal/delete?id=${second.data.id}`,
    );
    expect(gone.data.remaining).toBe(1);
    const goneC = await farm<{ remaining: number }>('DELETE', '/concentrator/delete', {
      id: c.data.id,
    });
    expect(goneC.data.remaining).toBe(0);
    // The device stays, without its concentrator.
    const after = await farm<{ rows: Terminal[] }>('GET', `/terminal/list?houseId=${houseId}`);
    expect(after.data.rows[0]).toMatchObject({ concentratorId: null });
  });

  it('a house manager sees and changes only its own houses', async () => {
    const shack = caller(t, await t.signIn('shack'));
    const outside = await houseNamed(t, 'Weifang Broiler Farm', 'House 5');
    const res = await shack('POST', '/concentrator/create', concentrator(outside.houseId, 'X9'));
    expect(res.status).toBe(404);
    const list = await shack<{ rows: Terminal[] }>('GET', '/terminal/list');
    expect(list.data.rows.every((r) => r.houseName !== 'House 5')).toBe(true);
  });
});
