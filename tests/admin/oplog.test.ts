import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FarmNode, HouseRow } from '../../src/contract/admin';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { call, injectLogged, lastLogId, logRowsAfter, signInAll } from './client';

/**
 * The operation log's fields for one change, spelled out (every other admin test checks the
 * same rule through client.ts for each change it makes).
 */
describe.each(testDatabaseTargets())('operation log entries on $name', (target) => {
  let t: TestApp;
  let tokens: Awaited<ReturnType<typeof signInAll>>;
  let house: HouseRow;

  beforeAll(async () => {
    t = await createTestApp(target);
    tokens = await signInAll(t);
    const tree = (await call<FarmNode[]>(t, tokens.admin, 'GET', '/farm/tree')).data;
    const find = (nodes: FarmNode[]): FarmNode | undefined =>
      nodes.find((n) => n.name === 'Tieling Broiler Farm') ??
      nodes.map((n) => find(n.children)).find(Boolean);
    const farm = find(tree)!;
    const houses = await call<{ rows: HouseRow[] }>(
      t,
      tokens.company,
      'GET',
      `/house/listByFarm?farmId=${farm.id}`,
    );
    house = houses.data.rows[0]!;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes date, operator, function, house, operation, remark, source and network id', async () => {
    const before = await lastLogId(t);
    const res = await injectLogged(t, tokens.company, {
      method: 'PUT',
      url: '/api/gateway/rotateToken',
      headers: { authorization: `Bearer ${tokens.company}`, source: 'mobile' },
      payload: { id: house.gateway!.id },
    });
    expect(res.statusCode).toBe(200);
    const rows = await logRowsAfter(t, before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      operatorName: 'Wang Li (company manager)',
      function: 'gateway.rotateToken',
      operation: 'rotateDeviceToken',
      params: {},
      houseId: house.id,
      houseName: house.name,
      source: 'mobile',
      networkId: house.gateway!.networkId,
    });
    expect(Math.abs(rows[0]!.at.getTime() - Date.now())).toBeLessThan(60_000);

    // The list shows it to the company manager, newest first.
    const list = await call<{ rows: { function: string; source: string; houseName: string }[] }>(
      t,
      tokens.company,
      'GET',
      '/log/list?size=1',
    );
    expect(list.data.rows[0]).toMatchObject({
      function: 'gateway.rotateToken',
      source: 'mobile',
      houseName: house.name,
    });
  });

  it('writes the remark of a change and nothing for a refused one', async () => {
    const before = await lastLogId(t);
    const saved = await call(t, tokens.admin, 'POST', '/org/create', {
      name: 'Logged',
      code: 'LOG1',
    });
    expect(saved.status).toBe(200);
    const refused = await call(t, tokens.admin, 'POST', '/org/create', {
      name: 'Again',
      code: 'LOG1',
    });
    expect(refused.status).toBe(409);
    const rows = await logRowsAfter(t, before);
    expect(rows.map((r) => [r.function, r.remark, r.operatorName, r.source])).toEqual([
      ['org.create', 'Logged', 'Demo Administrator', 'computer'],
    ]);
  });
});
