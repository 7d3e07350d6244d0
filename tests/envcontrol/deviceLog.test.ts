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

  it('60 requests, 30 at a time, ask the gateway a few times and all get its answer', async () => {
    // A real MQTT client as the gateway: it counts every log/get and answers each after 1 s.
    const g = await t.gatewayOf('Gaocheng Broiler Farm', 'House 2', 'token-log');
    const client = await t.gateway(g.networkId, 'token-log');
    const asked: string[] = [];
    client.on('message', (_topic, payload) => {
      const { id } = JSON.parse(payload.toString()) as { id: string };
      asked.push(id);
      setTimeout(() => {
        const lines = [`answer to ${id}`];
        void client.publishAsync(`roost/v1/${g.networkId}/log`, JSON.stringify({ id, lines }), {
          qos: 1,
        });
      }, 1_000);
    });
    await client.subscribeAsync(`roost/v1/${g.networkId}/log/get`, { qos: 1 });
    await client.publishAsync(
      `roost/v1/${g.networkId}/status`,
      JSON.stringify({ online: true, network: 'wired', version: '2.8.4' }),
      { qos: 1, retain: true },
    );
    await online(g.houseId, true);
    const answers: Array<{ status: number; body: { data: DeviceLog[] } }> = [];
    let next = 0;
    const worker = async () => {
      while (next < 60) {
        next += 1;
        answers.push(
          await api<DeviceLog[]>(admin, '/envcontrol/deviceLog', { houseId: g.houseId }),
        );
      }
    };
    await Promise.all(Array.from({ length: 30 }, worker));
    // Waiting requests join the one open request: about one log/get per second of answering.
    console.log(`device log: 60 requests sent ${asked.length} log/get to the gateway`);
    expect(asked.length).toBeLessThanOrEqual(6);
    expect(new Set(asked).size).toBe(asked.length);
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 60 }, () => 200));
    for (const a of answers) expect(a.body.data[0]!.lines[0]).toMatch(/^answer to /);
    client.end(true);
  }, 60_000);
});
