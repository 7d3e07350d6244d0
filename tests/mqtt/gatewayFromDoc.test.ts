import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import type { Command, GatewayDetails } from '../../src/contract/envcontrol';
import type { DeviceLog } from '../../src/contract/deviceLog';
import type { UpgradeFile } from '../../src/contract/upgrade';
import { testDatabaseTargets, type TestDatabaseTarget } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';
import { startAclMosquitto, type AclMosquitto } from './aclMosquitto';
import { readGatewayDoc, topicFor, type GatewayDoc } from './gatewayDoc';

/**
 * A gateway written from docs/gateway-protocol.md alone (topics, flags,
 * example payloads, will, subscription and download request all read from the page, no
 * import of the contract module) connects to a real Roost, reports, takes a command and
 * acknowledges it, downloads an upgrade with its device token and answers a log request: on
 * Roost's embedded broker, and on a Mosquitto that signs it in and holds it to the ACL the page
 * gives for an external broker.
 */

const FARM = 'Weifang Broiler Farm';
const TOKEN = 'token-from-the-page';

/** Messages the gateway received, by topic, waited for one at a time. */
class Inbox {
  readonly topics: string[] = [];
  private readonly waiting = new Map<string, Array<(body: Record<string, unknown>) => void>>();
  private readonly kept = new Map<string, Array<Record<string, unknown>>>();

  constructor(client: MqttClient) {
    client.on('message', (topic, payload) => {
      this.topics.push(topic);
      const body = JSON.parse(payload.toString()) as Record<string, unknown>;
      const waiter = this.waiting.get(topic)?.shift();
      if (waiter) waiter(body);
      else this.kept.set(topic, [...(this.kept.get(topic) ?? []), body]);
    });
  }

  next(topic: string): Promise<Record<string, unknown>> {
    const kept = this.kept.get(topic)?.shift();
    if (kept) return Promise.resolve(kept);
    return new Promise((resolve) =>
      this.waiting.set(topic, [...(this.waiting.get(topic) ?? []), resolve]),
    );
  }
}

/** Where the gateway connects, and how it subscribes there. */
interface Broker {
  roost: TestRoost;
  url: string;
  /** The filters the page says to use on this broker. */
  filters(doc: GatewayDoc, networkId: string): string[];
  /** Makes the gateway known to the broker (an external broker's password file). */
  admit(networkId: string, token: string): void;
  stop(): Promise<void>;
}

const embedded = async (target: TestDatabaseTarget): Promise<Broker> => {
  const roost = await startTestRoost(target);
  return {
    roost,
    url: roost.mqttUrl,
    // The page's wildcard below the gateway's own id, which the embedded broker accepts.
    filters: (doc, id) => [doc.wildcard.replace('{networkId}', id)],
    admit: () => undefined,
    stop: () => roost.stop(),
  };
};

const mosquitto = async (target: TestDatabaseTarget): Promise<Broker> => {
  const broker: AclMosquitto = await startAclMosquitto(readGatewayDoc().acl);
  // Roost's own user, as the page's ACL names it.
  broker.addUser('roost', 'roost-password');
  const url = `mqtt://roost:roost-password@127.0.0.1:${broker.port}`;
  // Mosquitto reads its password file again a moment after it is told to.
  await waitFor(() =>
    mqtt.connectAsync(url, { reconnectPeriod: 0 }).then(
      async (c) => {
        await c.endAsync();
        return true;
      },
      () => undefined,
    ),
  );
  const roost = await startTestRoost(target, { mqttUrl: url, mqttPort: null });
  return {
    roost,
    url: `mqtt://127.0.0.1:${broker.port}`,
    // On an external broker, the page says: the command topics themselves.
    filters: (doc, id) =>
      [...doc.topics.values()]
        .filter((s) => !s.toServer)
        .map((s) => s.topic.replace('{networkId}', id)),
    admit: (networkId, token) => broker.addUser(networkId, token),
    async stop() {
      await roost.stop();
      await broker.stop();
    },
  };
};

const BROKERS = [
  { name: 'the embedded broker', start: embedded },
  { name: 'a Mosquitto with the page’s ACL', start: mosquitto },
];
const CASES = testDatabaseTargets().flatMap((target) =>
  BROKERS.map((broker) => ({ ...broker, target, label: `${broker.name} on ${target.name}` })),
);

describe.each(CASES)('a gateway built from the protocol page, $label', ({ start, target }) => {
  let broker: Broker;
  let t: TestRoost;
  let doc: GatewayDoc;
  let admin: string;
  let client: MqttClient;
  let inbox: Inbox;
  let gw: { networkId: string; houseId: number };

  const topic = (kind: string) => topicFor(doc, kind, gw.networkId);
  /** Publishes a documented message with the page's QoS and retain flag. */
  const send = (kind: string, body: Record<string, unknown>) => {
    const spec = doc.topics.get(kind)!;
    expect(spec.toServer, `${kind} goes to the server`).toBe(true);
    return client.publishAsync(topic(kind), JSON.stringify(body), {
      qos: spec.qos as 0 | 1,
      retain: spec.retained,
    });
  };
  const example = (kind: string) => structuredClone(doc.topics.get(kind)!.example);
  const api = <T>(path: string, body?: unknown) => t.api<T>(admin, path, body);
  const house = () =>
    api<GatewayDetails>(`/envcontrol/house?houseId=${gw.houseId}`).then((r) => r.body.data);

  beforeAll(async () => {
    doc = readGatewayDoc();
    broker = await start(target);
    t = broker.roost;
    admin = await t.signIn('admin');
    gw = await t.gatewayOf(FARM, 'House 7', TOKEN);
    broker.admit(gw.networkId, TOKEN);
    // As the page says: client id = network id, user name = network id, password = token, the will.
    const options: mqtt.IClientOptions = {
      clientId: gw.networkId,
      username: gw.networkId,
      password: TOKEN,
      protocolVersion: 4,
      reconnectPeriod: 0,
      will: {
        topic: doc.will.topic.replace('{networkId}', gw.networkId),
        payload: Buffer.from(doc.will.payload),
        qos: doc.will.qos as 0 | 1,
        retain: doc.will.retain,
      },
    };
    // An external broker reads its password file again a moment after it is told to.
    client = await waitFor(() => mqtt.connectAsync(broker.url, options).catch(() => undefined));
    inbox = new Inbox(client);
  }, 180_000);
  afterAll(async () => {
    await client?.endAsync(true);
    await broker?.stop();
  });

  it('connects, subscribes as the page says and reports', async () => {
    const filters = broker.filters(doc, gw.networkId);
    const granted = await client.subscribeAsync(filters, { qos: 1 });
    expect(granted.map((g) => g.qos)).toEqual(filters.map(() => 1));
    await send('status', example('status'));
    await send('config/report', { ...example('config/report'), ts: Date.now() });
    await send('telemetry', { ...example('telemetry'), ts: Date.now() });
    const details = await waitFor(async () => {
      const d = await house();
      return d.gateway?.online && Object.keys(d.params).length > 0 ? d : undefined;
    });
    expect(details.params).toEqual((example('config/report') as { params: object }).params);
    expect(details.gateway?.version).toBe((example('status') as { version: string }).version);
  });

  it('receives a command and acknowledges it', async () => {
    const setTopic = topic('config/set');
    const sent = await api<{ commands: Command[] }>('/envcontrol/send', {
      houseIds: [gw.houseId],
      // A limit every gateway type holds (controllers, collectors, alarm units).
      params: { alarm_temp_high: 34 },
    });
    expect(sent.status).toBe(200);
    const command = await inbox.next(setTopic);
    expect(Object.keys(command).sort()).toEqual(Object.keys(example('config/set')).sort());
    await send('config/ack', { ...example('config/ack'), id: command.id, values: command.params });
    const applied = await waitFor(async () =>
      (await house()).commands.find((c) => c.id === command.id && c.state === 'applied'),
    );
    expect(applied.readBack).toEqual({ alarm_temp_high: 34 });
  });

  it('downloads an upgrade with its device token and reports coming back on it', async () => {
    const typeKey = (await house()).gateway!.typeKey;
    const firmware = Buffer.from('FIRMWARE FROM THE PAGE\n'.repeat(512));
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(firmware)]), 'gw');
    const uploaded = await fetch(
      `${t.url}/api/upgrade/uploadFile?version=3.1.0&typeKeys=${typeKey}`,
      {
        method: 'POST',
        headers: { authorization: admin },
        body: form,
      },
    );
    const file = ((await uploaded.json()) as { data: UpgradeFile }).data;
    await api('/upgrade/send', { houseIds: [gw.houseId], sha256: file.sha256 });
    const order = (await inbox.next(topic('upgrade'))) as {
      id: string;
      url: string;
      sha256: string;
      size: number;
      version: string;
    };
    expect(Object.keys(order).sort()).toEqual(Object.keys(example('upgrade')).sort());
    // Without the documented header the link is refused; with it, the file comes once.
    expect((await fetch(order.url)).status).toBe(401);
    const header = doc.downloadHeader;
    const download = await fetch(order.url, {
      headers: { [header.name]: header.value.replace('<device token>', TOKEN) },
    });
    expect(download.status).toBe(200);
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(order.size);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(order.sha256);
    await send('upgrade/progress', { ...example('upgrade/progress'), id: order.id });
    await send('upgrade/progress', { id: order.id, status: 'done', version: order.version });
    await waitFor(async () => {
      const d = await house();
      const done = d.commands.find((c) => c.id === order.id)?.state === 'applied';
      return done && d.gateway?.version === order.version ? 1 : undefined;
    });
  });

  it('answers a log request', async () => {
    const answered = api<DeviceLog[]>('/envcontrol/deviceLog', { houseId: gw.houseId });
    const request = await inbox.next(topic('log/get'));
    const lines = (example('log') as { lines: string[] }).lines;
    await send('log', { ...example('log'), id: request.id });
    const logs = await answered;
    expect(logs.status).toBe(200);
    expect(logs.body.data[0]?.lines).toEqual(lines);
  });

  it('heard only its commands through its subscription', async () => {
    const commands = [...doc.topics.values()]
      .filter((s) => !s.toServer)
      .map((s) => s.topic.replace('{networkId}', gw.networkId));
    expect(inbox.topics.length).toBeGreaterThan(0);
    expect(inbox.topics.filter((tp) => !commands.includes(tp))).toEqual([]);
  });
});
