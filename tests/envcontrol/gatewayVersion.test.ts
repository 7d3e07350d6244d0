import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { Command, GatewayDetails, GatewayReported } from '../../src/contract/envcontrol';
import type { HouseUpdated } from '../../src/contract/live';
import type { UpgradeFile } from '../../src/contract/upgrade';
import { gatewayTopic, type UpgradeOrder } from '../../src/contract/gateway';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';

const FARM = 'Weifang Broiler Farm';
const PARAMS = { heat_offset: 1, cool_offset: 2, alarm_temp_high: 35, alarm_temp_low: 15 };

/**
 * With a gateway written by hand on the real broker: the version a
 * gateway says it runs (an upgrade's `done`, a config/report) is the one version the API, the
 * admin lists and the live houses show; a change at the controller reaches, live, the consoles
 * that may see the house, and no other.
 */
describe.each(testDatabaseTargets())('what a gateway says of itself on $name', (target) => {
  let t: TestRoost;
  let admin: string;

  const api = <T>(path: string, body?: unknown) => t.api<T>(admin, path, body);
  const house = (houseId: number) =>
    api<GatewayDetails>(`/envcontrol/house?houseId=${houseId}`).then((r) => r.body.data);
  const publish = (
    client: MqttClient,
    networkId: string,
    kind: 'status' | 'config/report' | 'upgrade/progress',
    body: unknown,
    retain = false,
  ) => client.publishAsync(gatewayTopic(networkId, kind), JSON.stringify(body), { qos: 1, retain });

  /** A gateway on the broker, signed in, online with `version`, listening for upgrades. */
  async function connect(houseName: string, token: string, version: string) {
    const gw = await t.gatewayOf(FARM, houseName, token);
    const client = await t.gateway(gw.networkId, token, {
      will: {
        topic: gatewayTopic(gw.networkId, 'status'),
        payload: Buffer.from('{"online":false}'),
        qos: 1,
        retain: true,
      },
    });
    await client.subscribeAsync(gatewayTopic(gw.networkId, 'upgrade'), { qos: 1 });
    await publish(
      client,
      gw.networkId,
      'status',
      { online: true, network: 'wired', version },
      true,
    );
    await waitFor(async () =>
      (await house(gw.houseId)).gateway?.version === version ? 1 : undefined,
    );
    return { ...gw, client };
  }

  beforeAll(async () => {
    t = await startTestRoost(target);
    admin = await t.signIn('admin');
  }, 180_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('keeps the version the gateway came back on after an upgrade, and the one its report says', async () => {
    const gw = await connect('House 5', 'token-version-5', '2.8.4');
    const typeKey = (await house(gw.houseId)).gateway!.typeKey;
    const socket = await t.socket(admin);
    const liveVersions: Array<string | null> = [];
    const reported: GatewayReported[] = [];
    socket.on('house:updated', (batch: HouseUpdated) => {
      for (const d of batch.deltas)
        if (d.houseId === gw.houseId && d.gatewayVersion !== undefined)
          liveVersions.push(d.gatewayVersion);
    });
    socket.on('gateway:reported', (r) => {
      if (r.houseId === gw.houseId) reported.push(r);
    });

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(Buffer.from('ROOST-FIRMWARE 2.9.1\n'))]), 'gw');
    const uploaded = await fetch(
      `${t.url}/api/upgrade/uploadFile?version=2.9.1&typeKeys=${typeKey}`,
      { method: 'POST', headers: { authorization: admin }, body: form },
    );
    expect(uploaded.status).toBe(200);
    const file = ((await uploaded.json()) as { data: UpgradeFile }).data;
    const order = new Promise<UpgradeOrder>((resolve) =>
      gw.client.on('message', (topic, payload) => {
        if (topic === gatewayTopic(gw.networkId, 'upgrade'))
          resolve(JSON.parse(payload.toString()) as UpgradeOrder);
      }),
    );
    const sent = await api<{ commands: Command[] }>('/upgrade/send', {
      houseIds: [gw.houseId],
      sha256: file.sha256,
    });
    expect(sent.status).toBe(200);
    const { id } = await order;
    // The gateway restarts on the new firmware and says so on upgrade/progress only: its
    // retained status still says 2.8.4.
    await publish(gw.client, gw.networkId, 'upgrade/progress', {
      id,
      status: 'done',
      version: '2.9.1',
    });
    const applied = await waitFor(async () => {
      const details = await house(gw.houseId);
      return details.commands.find((c) => c.id === id)?.state === 'applied' ? details : undefined;
    });
    expect(applied.gateway?.version).toBe('2.9.1');
    const versionsNow = async () => {
      const overview = await api<{ rows: Array<{ live: { gatewayVersion: string | null } }> }>(
        `/overview/listOverview/?houseId=${gw.houseId}`,
      );
      const [farm] = await t.roost.database.query<{ farm_id: number }>(
        'select farm_id from houses where id = $1',
        [gw.houseId],
      );
      const listed = await api<{
        rows: Array<{ id: number; gateway: { version: string } | null }>;
      }>(`/house/listByFarm?farmId=${farm!.farm_id}`);
      return {
        envcontrol: (await house(gw.houseId)).gateway?.version,
        overview: overview.body.data.rows[0]?.live.gatewayVersion,
        admin: listed.body.data.rows.find((r) => r.id === gw.houseId)?.gateway?.version,
      };
    };
    expect(await versionsNow()).toEqual({ envcontrol: '2.9.1', overview: '2.9.1', admin: '2.9.1' });
    await waitFor(() => (liveVersions.includes('2.9.1') ? 1 : undefined));

    // A report with a version is the gateway saying what it runs, too.
    await publish(gw.client, gw.networkId, 'config/report', {
      ts: Date.now(),
      version: '2.9.2',
      params: PARAMS,
      source: 'device',
    });
    await waitFor(async () =>
      (await house(gw.houseId)).gateway?.version === '2.9.2' ? 1 : undefined,
    );
    expect(await versionsNow()).toEqual({ envcontrol: '2.9.2', overview: '2.9.2', admin: '2.9.2' });
    await waitFor(() => (liveVersions.includes('2.9.2') ? 1 : undefined));
    await waitFor(() => (reported.some((r) => r.version === '2.9.2') ? 1 : undefined));
  });

  it('sends a change made at the controller, live, to the consoles that may see the house and to no other', async () => {
    // The farm manager sees every Weifang house; the house manager only houses 1 to 3.
    const gw = await connect('House 6', 'token-version-6', '2.8.4');
    const [farm, shack] = [await t.signIn('farm'), await t.signIn('shack')];
    const farmSocket = await t.socket(farm);
    const shackSocket = await t.socket(shack);
    const farmHeard: GatewayReported[] = [];
    const shackHeard: GatewayReported[] = [];
    farmSocket.on('gateway:reported', (r) => farmHeard.push(r));
    shackSocket.on('gateway:reported', (r) => shackHeard.push(r));

    await publish(gw.client, gw.networkId, 'config/report', {
      ts: Date.now(),
      params: PARAMS,
      source: 'device',
    });
    await waitFor(async () =>
      (await house(gw.houseId)).params.alarm_temp_high === 35 ? 1 : undefined,
    );
    // Someone sets the high temperature alarm to 33 ℃ at the controller's keypad.
    await publish(gw.client, gw.networkId, 'config/report', {
      ts: Date.now(),
      params: { ...PARAMS, alarm_temp_high: 33 },
      source: 'local',
    });
    const heard = await waitFor(() =>
      farmHeard.find((r) => r.houseId === gw.houseId && r.params?.alarm_temp_high === 33),
    );
    expect(heard.params).toEqual({ ...PARAMS, alarm_temp_high: 33 });
    expect(heard.reportedAt).not.toBeNull();
    expect((await house(gw.houseId)).params.alarm_temp_high).toBe(33);
    // The house manager hears the reports of the houses it is given (House 1 to 3) …
    const own = await connect('House 2', 'token-version-2', '2.8.4');
    await publish(own.client, own.networkId, 'config/report', {
      ts: Date.now(),
      params: PARAMS,
      source: 'device',
    });
    await waitFor(() => shackHeard.find((r) => r.houseId === own.houseId));
    // … and nothing of House 6, though its socket was connected all along.
    expect(shackHeard.filter((r) => r.houseId === gw.houseId)).toEqual([]);
  });
});
