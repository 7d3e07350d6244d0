import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParamChange } from '../../src/contract/envcontrol';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { call, signInAll } from '../admin/client';

describe.each(testDatabaseTargets())('modify records on $name', (target) => {
  let t: TestApp;
  let tokens: Awaited<ReturnType<typeof signInAll>>;
  let wf1: number;
  let wf2: number;
  let gc1: number;

  /** One change as the gateway's read-back or report writes it. */
  const change = async (
    houseId: number,
    at: string,
    source: 'console' | 'local',
    operator: string,
    key: string,
    oldValue: number | null,
    newValue: number,
  ) => {
    await t.database.query(
      `insert into param_changes (house_id, gateway_id, at, source, operator_name, key, old_value, new_value)
       select $1, g.id, $2::timestamptz, $3, $4, $5, $6, $7 from gateways g where g.house_id = $1`,
      [houseId, at, source, operator, key, oldValue, newValue],
    );
  };
  const list = (token: string, query: string) =>
    call<{ rows: ParamChange[]; total: number }>(t, token, 'GET', `/envcontrol/records?${query}`);

  beforeAll(async () => {
    t = await createTestApp(target);
    tokens = await signInAll(t);
    const house = (farm: string, name: string) =>
      t.boot.demoGateways!.find((g) => g.farmName === farm && g.houseName === name)!.houseId;
    wf1 = house('Weifang Broiler Farm', 'House 1');
    wf2 = house('Weifang Broiler Farm', 'House 2');
    gc1 = house('Gaocheng Broiler Farm', 'House 1');
    await change(wf1, '2026-11-20T08:00:00+08:00', 'console', 'Wang Li', 'heat_offset', 1, 2.5);
    await change(wf1, '2026-11-21T09:00:00+08:00', 'local', '', 'heat_offset', 2.5, 3);
    await change(wf1, '2026-11-22T10:00:00+08:00', 'console', 'Liu Yang', 'light_hours', 18, 20);
    await change(wf2, '2026-11-22T11:00:00+08:00', 'console', 'Wang Li', 'alarm_temp_high', 35, 36);
    await change(gc1, '2026-11-22T12:00:00+08:00', 'console', 'Zhao Min', 'heat_offset', 1, 1.5);
  });
  afterAll(() => t?.close());

  it('filters by house, user, parameter, date range and source', async () => {
    const farm = tokens.farm;
    // The farm manager sees Weifang only; the administrator every farm.
    expect((await list(farm, '')).data.total).toBe(4);
    expect((await list(tokens.admin, '')).data.total).toBe(5);
    expect((await list(farm, `houseId=${wf1}`)).data.rows.map((r) => r.newValue)).toEqual([
      20, 3, 2.5,
    ]);
    expect((await list(farm, 'operator=wang')).data.rows.map((r) => r.houseId)).toEqual([wf2, wf1]);
    expect((await list(farm, 'key=heat_offset')).data.rows.map((r) => r.source)).toEqual([
      'local',
      'console',
    ]);
    expect((await list(farm, 'source=local')).data.rows).toMatchObject([
      { key: 'heat_offset', oldValue: 2.5, newValue: 3, operator: '' },
    ]);
    const range = `from=${encodeURIComponent('2026-11-21T00:00:00+08:00')}&to=${encodeURIComponent('2026-11-22T10:30:00+08:00')}`;
    expect((await list(farm, range)).data.rows.map((r) => r.key)).toEqual([
      'light_hours',
      'heat_offset',
    ]);
    expect((await list(farm, `houseId=${gc1}`)).status).toBe(404);
    expect((await list(farm, 'from=yesterday')).status).toBe(400);
  });

  it('exports what the filters select as CSV with old and new values, in the reader’s language', async () => {
    const res = await call(
      t,
      tokens.farm,
      'GET',
      `/envcontrol/records/export?houseId=${wf1}&key=heat_offset`,
    );
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toEqual([
      // The farm beside the house (two farms often have a "House 1"), and the zone the times
      // are in, which pages show in the browser's zone.
      '"Time (Asia/Shanghai UTC+08:00)","Farm","House","Source","By","Parameter","Old value","New value","Unit"',
      '"2026-11-21 09:00:00","Weifang Broiler Farm","House 1","At the controller","Controller","Heating offset","2.5","3","℃"',
      '"2026-11-20 08:00:00","Weifang Broiler Farm","House 1","Console","Wang Li","Heating offset","1","2.5","℃"',
    ]);
    const zh = await call(
      t,
      tokens.farm,
      'GET',
      `/envcontrol/records/export?houseId=${wf1}&source=console`,
      undefined,
      'zh',
    );
    const zhLines = zh.res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(zhLines[0]).toBe(
      '"时间 (Asia/Shanghai UTC+08:00)","养殖场","栏舍","来源","操作人","参数","原值","新值","单位"',
    );
    expect(zhLines[1]).toContain('"每日光照时长","18","20","h"');
    // Outside the scope: like a house that does not exist.
    expect(
      (await call(t, tokens.farm, 'GET', `/envcontrol/records/export?houseId=${gc1}`)).status,
    ).toBe(404);
    const all = await call(t, tokens.farm, 'GET', '/envcontrol/records/export');
    expect(all.res.body).not.toContain('Zhao Min');
  });
});
