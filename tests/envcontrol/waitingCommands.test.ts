import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command, GatewayDetails } from '../../src/contract/envcontrol';
import type { UpgradeFile } from '../../src/contract/upgrade';
import { gatewayTopic, type GatewayTopic } from '../../src/contract/gateway';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';

/*
 * A command queued while the console showed its gateway offline goes out
 * as soon as the gateway is known online, whichever way it became known. A real server and its
 * embedded broker; a plain mqtt.js client plays the gateway, doing only what each case says.
 */

const FARM = 'Gaocheng Broiler Farm';
/** Long enough for a loaded machine; the old code never sent these commands at all. */
const ARRIVES_WITHIN_MS = 15_000;

interface Received {
  topic: string;
  id: string;
}

describe.each(testDatabaseTargets())('commands waiting for their gateway on $name', (target) => {
  let t: TestRoost;
  let admin: string;
  const clients: MqttClient[] = [];

  const house = (houseId: number) =>
    t.api<GatewayDetails>(admin, `/envcontrol/house?houseId=${houseId}`).then((r) => r.body.data);
  const online = (houseId: number, want: boolean) =>
    waitFor(async () => ((await house(houseId)).gateway?.online === want ? true : undefined));
  /** A gateway's connection, recording every command it receives from its first packet on. */
  const connect = async (
    networkId: string,
    token: string,
    options: mqtt.IClientOptions = {},
  ): Promise<{ client: MqttClient; received: Received[] }> => {
    const received: Received[] = [];
    const client = mqtt.connect(t.mqttUrl, {
      username: networkId,
      password: token,
      reconnectPeriod: 0,
      ...options,
    });
    clients.push(client);
    client.on('message', (topic, payload) => {
      const { id } = JSON.parse(payload.toString()) as { id: string };
      received.push({ topic, id });
    });
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    return { client, received };
  };
  const subscribe = (client: MqttClient, networkId: string, kind: GatewayTopic) =>
    client.subscribeAsync(gatewayTopic(networkId, kind), { qos: 1 });
  const arrives = (received: Received[], topic: string, id: string) =>
    waitFor(
      () => (received.some((r) => r.topic === topic && r.id === id) ? true : undefined),
      ARRIVES_WITHIN_MS,
    );
  const queueChange = async (houseId: number, params: Record<string, number>) => {
    const sent = await t.api<{ commands: Command[] }>(admin, '/envcontrol/send', {
      houseIds: [houseId],
      params,
    });
    expect(sent.status).toBe(200);
    const [command] = sent.body.data.commands;
    expect(command!.state).toBe('queued');
    return command!;
  };

  beforeAll(async () => {
    t = await startTestRoost(target);
    admin = await t.signIn('admin');
  }, 180_000);
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await t?.stop();
  });

  it('sends a change queued while the card said offline once a reading shows the gateway online', async () => {
    const gw = await t.gatewayOf(FARM, 'House 1', 'token-wait-1');
    const { client, received } = await connect(gw.networkId, 'token-wait-1');
    // Listening before anything is queued, and the console still shows the gateway offline.
    await subscribe(client, gw.networkId, 'config/set');
    await online(gw.houseId, false);
    const command = await queueChange(gw.houseId, { heat_offset: 1.5 });
    await client.publishAsync(
      gatewayTopic(gw.networkId, 'telemetry'),
      JSON.stringify({ ts: Date.now(), metrics: { temperature: 22 } }),
      { qos: 1 },
    );
    await online(gw.houseId, true);
    // Old code: nothing until the gateway reconnected or a newer change superseded this one.
    await arrives(received, gatewayTopic(gw.networkId, 'config/set'), command.id);
    const shown = (await house(gw.houseId)).commands.find((c) => c.id === command.id);
    expect(shown?.state).toBe('sent');
  });

  it('sends an upgrade queued while the card said offline once a reading shows the gateway online', async () => {
    const gw = await t.gatewayOf(FARM, 'House 2', 'token-wait-2');
    const types = new Set(t.roost.boot.demoGateways!.map((g) => g.typeKey));
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(Buffer.from('ROOST-FIRMWARE 2.9.1\n'))]),
      'roost-gw',
    );
    const uploaded = await fetch(
      `${t.url}/api/upgrade/uploadFile?version=2.9.1&typeKeys=${[...types].join(',')}`,
      { method: 'POST', headers: { authorization: admin }, body: form },
    );
    expect(uploaded.status).toBe(200);
    const file = ((await uploaded.json()) as { data: UpgradeFile }).data;
    const { client, received } = await connect(gw.networkId, 'token-wait-2');
    await subscribe(client, gw.networkId, 'upgrade');
    await online(gw.houseId, false);
    const sent = await t.api<{ commands: Command[] }>(admin, '/upgrade/send', {
      houseIds: [gw.houseId],
      sha256: file.sha256,
    });
    expect(sent.status).toBe(200);
    const [command] = sent.body.data.commands;
    expect(command!.state).toBe('queued');
    await client.publishAsync(
      gatewayTopic(gw.networkId, 'telemetry'),
      JSON.stringify({ ts: Date.now(), metrics: { temperature: 22 } }),
      { qos: 1 },
    );
    await online(gw.houseId, true);
    await arrives(received, gatewayTopic(gw.networkId, 'upgrade'), command!.id);
  });

  it('sends a change to a gateway whose kept session comes back, before it says anything', async () => {
    const gw = await t.gatewayOf(FARM, 'House 3', 'token-wait-3');
    const session = { clientId: `wait-${gw.networkId}`, clean: false };
    const first = await connect(gw.networkId, 'token-wait-3', session);
    await subscribe(first.client, gw.networkId, 'config/set');
    await first.client.endAsync();
    const command = await queueChange(gw.houseId, { alarm_temp_high: 36 });
    // The broker kept the subscription: the gateway neither subscribes nor publishes again.
    const back = await connect(gw.networkId, 'token-wait-3', session);
    // Old code: a restored session never counted as listening.
    await arrives(back.received, gatewayTopic(gw.networkId, 'config/set'), command.id);
  });
});
