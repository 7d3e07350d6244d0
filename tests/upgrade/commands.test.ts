import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { Command, GatewayDetails } from '../../src/contract/envcontrol';
import type { UpgradeFile } from '../../src/contract/upgrade';
import { gatewayTopic, type UpgradeOrder } from '../../src/contract/gateway';
import { startSimulator, type RunningSimulator } from '../../server/simulator/simulator';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';

/** Quick and certain upgrades: no refusals, no damage, no failures, short steps. */
const QUICK = {
  stepMs: 30,
  restartMs: 300,
  slowChance: 0,
  refuseChance: 0,
  corruptChance: 0,
  failChance: 0,
};

describe.each(testDatabaseTargets())('gateway upgrades on $name', (target) => {
  let t: TestRoost;
  let sim: RunningSimulator;
  let damaged: RunningSimulator;
  let admin: string;
  let weifang: Array<{ houseId: number; networkId: string; typeKey: number }>;
  let file: UpgradeFile;
  /** Uploads a file as the administrator, for these gateway types. */
  const uploadFor = async (content: Buffer, version: string, typeKeys: readonly number[]) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(content)]), 'roost-gw');
    const uploaded = await fetch(
      `${t.url}/api/upgrade/uploadFile?version=${version}&typeKeys=${typeKeys.join(',')}`,
      { method: 'POST', headers: { authorization: admin }, body: form },
    );
    expect(uploaded.status).toBe(200);
    return ((await uploaded.json()) as { data: UpgradeFile }).data;
  };
  const bytes = Buffer.from('ROOST-FIRMWARE 2.9.0\n'.repeat(4096));

  const api = <T>(path: string, body?: unknown, locale?: string) =>
    t.api<T>(admin, path, body, locale);
  const house = (houseId: number) =>
    api<GatewayDetails>(`/envcontrol/house?houseId=${houseId}`).then((r) => r.body.data);
  const finished = (houseId: number, id: string) =>
    waitFor(async () => {
      const c = (await house(houseId)).commands.find((x) => x.id === id);
      return c && ['applied', 'rejected', 'expired'].includes(c.state) ? c : undefined;
    });
  const upgrade = (houseId: number, locale = 'en') =>
    api<{ commands: Command[]; upToDate: number[] }>(
      '/upgrade/send',
      { houseIds: [houseId], sha256: file.sha256 },
      locale,
    );

  beforeAll(async () => {
    t = await startTestRoost(target);
    admin = await t.signIn('admin');
    const gateways = t.roost.boot.demoGateways!.filter(
      (g) => g.farmName === 'Weifang Broiler Farm',
    );
    weifang = gateways.map((g) => ({
      houseId: g.houseId,
      networkId: g.networkId,
      typeKey: g.typeKey,
    }));
    const quiet = { applyDelayMs: [20, 50] as const, localChangeChance: 0 };
    sim = await startSimulator({
      url: t.mqttUrl,
      gateways: gateways.slice(0, 2),
      intervalMs: 1_000,
      seed: 7,
      controller: quiet,
      upgrade: QUICK,
    });
    // A gateway whose downloads always arrive damaged.
    damaged = await startSimulator({
      url: t.mqttUrl,
      gateways: gateways.slice(2, 3),
      intervalMs: 1_000,
      seed: 8,
      controller: quiet,
      upgrade: { ...QUICK, corruptChance: 1 },
    });
    // For every type of the demo's gateways: these tests are about sending, not types.
    const types = new Set(t.roost.boot.demoGateways!.map((g) => g.typeKey));
    file = await uploadFor(bytes, '2.9.0', [...types]);
    for (const g of weifang.slice(0, 3))
      await waitFor(async () => ((await house(g.houseId)).gateway?.online ? 1 : undefined));
  }, 180_000);
  afterAll(async () => {
    await sim?.stop();
    await damaged?.stop();
    await t?.stop();
  });

  it('moves a gateway to the new version, with its progress shown live on the way', async () => {
    const g = weifang[0]!;
    const socket = await t.socket(admin);
    const seen: Command[] = [];
    socket.on('command:updated', (c) => {
      if (c.houseId === g.houseId) seen.push(c);
    });
    const sent = await upgrade(g.houseId);
    expect(sent.status).toBe(200);
    const [command] = sent.body.data.commands;
    expect(command).toMatchObject({ kind: 'upgrade', state: 'queued' });
    expect(command!.upgrade).toMatchObject({ version: '2.9.0', fromVersion: '2.8.4' });
    const done = await finished(g.houseId, command!.id);
    expect(done.state).toBe('applied');
    expect(sim.gateway(g.networkId)!.version).toBe('2.9.0');
    expect((await house(g.houseId)).gateway?.version).toBe('2.9.0');
    await waitFor(() => (seen.some((c) => c.state === 'applied') ? 1 : undefined));
    const stages = seen.map((c) => c.upgrade?.stage);
    expect(stages).toEqual(
      expect.arrayContaining(['downloading', 'installing', 'restarting', 'done']),
    );
    const log = await t.roost.database.query<{ n: number }>(
      `select count(*)::int as n from operation_logs where function = 'upgrade.send' and params->>'command' = $1`,
      [command!.id],
    );
    expect(Number(log[0]!.n)).toBe(1);
    // The same file again: nothing to do.
    const again = await upgrade(g.houseId);
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/No updates detected/);
    expect((await upgrade(g.houseId, 'zh')).body.msg).toMatch(/未检测到更新/);
  });

  it('refuses to send a file made for another gateway type, in the caller’s language', async () => {
    const g = weifang[1]!;
    const other = g.typeKey === 60 ? 25 : 60;
    const foreign = await uploadFor(Buffer.from('ROOST-FIRMWARE OTHER\n'), '3.0.0', [other]);
    expect(foreign.typeKeys).toEqual([other]);
    const send = (locale: string) =>
      api('/upgrade/send', { houseIds: [g.houseId], sha256: foreign.sha256 }, locale);
    const count = async () =>
      (
        await t.roost.database.query<{ n: number }>(
          `select count(*)::int as n from gateway_commands c join gateways w on w.id = c.gateway_id
           where w.network_id = $1 and c.kind = 'upgrade'`,
          [g.networkId],
        )
      )[0]!.n;
    const before = await count();
    const en = await send('en');
    expect(en.status).toBe(400);
    expect(en.body.msg).toMatch(/This file is not for the gateway of House \d+/);
    const zh = await send('zh');
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toMatch(/该文件不适用于/);
    // Nothing was queued, and the gateway still runs what it ran.
    expect(await count()).toBe(before);
    expect(sim.gateway(g.networkId)!.version).toBe('2.8.4');
    // The dialog's list says which types each file is for.
    const choices = await api<UpgradeFile[]>('/upgrade/choices');
    expect(choices.body.data.find((f) => f.sha256 === foreign.sha256)?.typeKeys).toEqual([other]);
  });

  it('fails with the reason when the downloaded bytes do not match the checksum', async () => {
    const g = weifang[2]!;
    const sent = await upgrade(g.houseId);
    const done = await finished(g.houseId, sent.body.data.commands[0]!.id);
    expect(done.state).toBe('rejected');
    expect(done.reason).toMatch(/checksum mismatch/);
    expect(done.upgrade?.stage).toBe('failed');
    expect(damaged.gateway(g.networkId)!.version).toBe('2.8.4');
    expect((await house(g.houseId)).gateway?.version).toBe('2.8.4');
  });

  it("stores and announces a gateway's progress reports in the order they came, even when they come together", async () => {
    // A gateway the simulator does not run: its reports are handed over as the broker does,
    // the next before the last is stored.
    const g = weifang[4]!;
    const sent = await upgrade(g.houseId);
    expect(sent.status).toBe(200);
    const id = sent.body.data.commands[0]!.id;
    const announced: Array<string | null | undefined> = [];
    const stop = t.roost.events.on('commandsChanged', (commands) => {
      for (const c of commands) if (c.id === id) announced.push(c.upgrade?.stage);
    });
    const report = (status: string, percent: number) =>
      t.roost.replies.submit(
        g.networkId,
        'upgrade/progress',
        Buffer.from(JSON.stringify({ id, status, percent })),
      );
    await Promise.all([report('installing', 100), report('restarting', 100)]);
    stop();
    expect(announced).toEqual(['installing', 'restarting']);
    const stored = (await house(g.houseId)).commands.find((c) => c.id === id);
    expect(stored?.upgrade?.stage).toBe('restarting');
  });

  describe('download links', () => {
    let a: { networkId: string; houseId: number; token: string; client: MqttClient };
    let b: { networkId: string; token: string };
    const orders: UpgradeOrder[] = [];
    const download = (url: string, deviceToken: string) =>
      fetch(url, { headers: { authorization: `Bearer ${deviceToken}` } });
    const nextOrder = async (houseId: number) => {
      const before = orders.length;
      const sent = await upgrade(houseId);
      expect(sent.status).toBe(200);
      return waitFor(() => (orders.length > before ? orders.at(-1) : undefined));
    };

    beforeAll(async () => {
      const ga = await t.gatewayOf('Gaocheng Broiler Farm', 'House 1', 'token-gateway-a');
      const gb = await t.gatewayOf('Gaocheng Broiler Farm', 'House 2', 'token-gateway-b');
      const client = await t.gateway(ga.networkId, 'token-gateway-a');
      await client.subscribeAsync(gatewayTopic(ga.networkId, 'upgrade'), { qos: 1 });
      client.on('message', (_topic, payload) => orders.push(JSON.parse(payload.toString())));
      await client.publishAsync(
        gatewayTopic(ga.networkId, 'status'),
        JSON.stringify({ online: true, network: 'wired', version: '2.8.4' }),
        { qos: 1, retain: true },
      );
      a = { ...ga, token: 'token-gateway-a', client };
      b = { networkId: gb.networkId, token: 'token-gateway-b' };
      await waitFor(async () => ((await house(ga.houseId)).gateway?.online ? 1 : undefined));
    });

    it('works once, for its own gateway, and serves the stored bytes', async () => {
      const order = await nextOrder(a.houseId);
      expect(order).toMatchObject({ version: '2.9.0', sha256: file.sha256, size: bytes.length });
      // Another gateway presenting this link, under its own name or this one's, is refused.
      const foreign = order.url.replace(`/${a.networkId}/`, `/${b.networkId}/`);
      expect((await download(foreign, b.token)).status).toBe(404);
      expect((await download(order.url, b.token)).status).toBe(401);
      const res = await download(order.url, a.token);
      expect(res.status).toBe(200);
      const got = Buffer.from(await res.arrayBuffer());
      expect(createHash('sha256').update(got).digest('hex')).toBe(file.sha256);
      const second = await download(order.url, a.token);
      expect(second.status).toBe(403);
      expect(((await second.json()) as { msg: string }).msg).toMatch(/already used/);
    });

    it('refuses an expired link', async () => {
      const order = await nextOrder(a.houseId);
      await t.roost.database.query(
        `update upgrade_tokens set expires_at = now() - interval '1 second' where command_id = $1`,
        [order.id],
      );
      const res = await download(order.url, a.token);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { msg: string }).msg).toMatch(/expired/);
    });
  });
});
