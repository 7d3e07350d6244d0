import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceLog } from '../../src/contract/deviceLog';
import type { GatewayDetails } from '../../src/contract/envcontrol';
import { startSimulator, type RunningSimulator } from '../../server/simulator/simulator';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';

describe.each(testDatabaseTargets())('device log on $name', (target) => {
  let t: TestRoost;
  let sim: RunningSimulator;
  let admin: string;
  let farm: string;
  let weifang: Array<{ houseId: number; networkId: string }>;
  let gaochengHouse: number;

  const api = <T>(token: string, path: string, body?: unknown, locale?: string) =>
    t.api<T>(token, path, body, locale);
  const online = (houseId: number, want: boolean) =>
    waitFor(async () => {
      const d = await api<GatewayDetails>(admin, `/envcontrol/house?houseId=${houseId}`);
      return d.body.data.gateway?.online === want ? 1 : undefined;
    });

  beforeAll(async () => {
    t = await startTestRoost(target);
    const all = t.roost.boot.demoGateways!;
    const gateways = all.filter((g) => g.farmName === 'Weifang Broiler Farm').slice(0, 2);
    weifang = gateways.map((g) => ({ houseId: g.houseId, networkId: g.networkId }));
    gaochengHouse = all.find((g) => g.farmName === 'Gaocheng Broiler Farm')!.houseId;
    sim = await startSimulator({
      url: t.mqttUrl,
      gateways,
      intervalMs: 500,
      seed: 11,
      controller: { applyDelayMs: [20, 50], localChangeChance: 0 },
    });
    [admin, farm] = [await t.signIn('admin'), await t.signIn('farm')];
    for (const g of weifang) await online(g.houseId, true);
  }, 180_000);
  afterAll(async () => {
    await sim?.stop();
    await t?.stop();
  });

  it('loads the gateway’s recent lines, keeps the last five, and logs who asked', async () => {
    const g = weifang[0]!;
    const first = await api<DeviceLog[]>(farm, '/envcontrol/deviceLog', { houseId: g.houseId });
    expect(first.status).toBe(200);
    expect(first.body.msg).toBe('Load device log successfully.');
    expect(first.body.data[0]!.lines.join('\n')).toMatch(/network up, firmware 2\.8\.4/);
    const zh = await api<DeviceLog[]>(farm, '/envcontrol/deviceLog', { houseId: g.houseId }, 'zh');
    expect(zh.body.msg).toBe('加载设备日志成功。');
    for (let i = 0; i < 4; i += 1)
      expect((await api(admin, '/envcontrol/deviceLog', { houseId: g.houseId })).status).toBe(200);
    const kept = await api<DeviceLog[]>(farm, `/envcontrol/deviceLog?houseId=${g.houseId}`);
    expect(kept.body.data).toHaveLength(5);
    // Newest first, and the newest saw the earlier requests arrive.
    expect(kept.body.data[0]!.lines.join('\n')).toMatch(/log read out/);
    const rows = await t.roost.database.query<{ n: number }>(
      `select count(*)::int as n from operation_logs where function = 'envcontrol.deviceLog'`,
    );
    expect(Number(rows[0]!.n)).toBe(6);
  });

  it('says clearly when the gateway is offline, and refuses a house outside the scope', async () => {
    const g = weifang[1]!;
    sim.gateway(g.networkId)!.holdOffline(true);
    await online(g.houseId, false);
    const res = await api(admin, '/envcontrol/deviceLog', { houseId: g.houseId });
    expect(res.status).toBe(409);
    expect(res.body.msg).toMatch(/gateway is offline/);
    sim.gateway(g.networkId)!.holdOffline(false);
    const outside = await api(farm, '/envcontrol/deviceLog', { houseId: gaochengHouse });
    expect(outside.status).toBe(404);
    expect((await api(farm, `/envcontrol/deviceLog?houseId=${gaochengHouse}`)).status).toBe(404);
  });
});
