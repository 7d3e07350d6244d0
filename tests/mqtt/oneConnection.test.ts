import { eq, and } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command, GatewayDetails } from '../../src/contract/envcontrol';
import { gatewayTopic } from '../../src/contract/gateway';
import { gatewayOnlineLog } from '../../server/db/telemetrySchema';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';

/*
 * One connection per gateway receives its commands, the newest. A real
 * server and its embedded broker; plain mqtt.js clients play the gateway as its README says:
 * a will on the retained status topic, the command subscription, then "online".
 */

const FARM = 'Gaocheng Broiler Farm';
const TOKEN = 'token-twice';

interface Connection {
  client: MqttClient;
  received: string[];
  closed: Promise<void>;
}

describe.each(testDatabaseTargets())('one connection per gateway on $name', (target) => {
  let t: TestRoost;
  let admin: string;
  let gw: { networkId: string; houseId: number; gatewayId: number };
  const clients: MqttClient[] = [];

  const house = (houseId: number) =>
    t.api<GatewayDetails>(admin, `/envcontrol/house?houseId=${houseId}`).then((r) => r.body.data);
  /** Signs in as the gateway under `clientId`, subscribes to its changes and says online. */
  const connect = async (clientId: string): Promise<Connection> => {
    const status = gatewayTopic(gw.networkId, 'status');
    const client = mqtt.connect(t.mqttUrl, {
      username: gw.networkId,
      password: TOKEN,
      clientId,
      reconnectPeriod: 0,
      will: { topic: status, payload: Buffer.from('{"online":false}'), qos: 1, retain: true },
    });
    clients.push(client);
    const received: string[] = [];
    client.on('message', (_topic, payload) =>
      received.push((JSON.parse(payload.toString()) as { id: string }).id),
    );
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    await client.subscribeAsync(gatewayTopic(gw.networkId, 'config/set'), { qos: 1 });
    await client.publishAsync(status, '{"online":true,"network":"wired"}', {
      qos: 1,
      retain: true,
    });
    return { client, received, closed };
  };
  /** Queues a change and has `to` apply it; answers the command's id once it is applied. */
  const changeAppliedBy = async (to: Connection, value: number) => {
    const sent = await t.api<{ commands: Command[] }>(admin, '/envcontrol/send', {
      houseIds: [gw.houseId],
      params: { heat_offset: value },
    });
    expect(sent.status).toBe(200);
    const id = sent.body.data.commands[0]!.id;
    await waitFor(() => (to.received.includes(id) ? true : undefined));
    await to.client.publishAsync(
      gatewayTopic(gw.networkId, 'config/ack'),
      JSON.stringify({ id, status: 'applied', values: { heat_offset: value } }),
      { qos: 1 },
    );
    await waitFor(async () =>
      (await house(gw.houseId)).commands.find((c) => c.id === id)?.state === 'applied'
        ? true
        : undefined,
    );
    return id;
  };
  /** The gateway's online log has no "offline": no connection's will was published. */
  const neverOffline = async () => {
    const offline = await t.roost.database.db
      .select({ id: gatewayOnlineLog.id })
      .from(gatewayOnlineLog)
      .where(and(eq(gatewayOnlineLog.gatewayId, gw.gatewayId), eq(gatewayOnlineLog.online, false)));
    expect(offline).toEqual([]);
    expect((await house(gw.houseId)).gateway?.online).toBe(true);
  };

  beforeAll(async () => {
    t = await startTestRoost(target);
    admin = await t.signIn('admin');
    gw = await t.gatewayOf(FARM, 'House 4', TOKEN);
  }, 180_000);
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await t?.stop();
  });

  it('closes the older connection when the gateway signs in under another client id', async () => {
    const older = await connect(`first-${gw.networkId}`);
    await waitFor(async () => ((await house(gw.houseId)).gateway?.online ? true : undefined));
    const newer = await connect(`second-${gw.networkId}`);
    // Old code: both stayed connected and both received every command.
    await older.closed;
    const id = await changeAppliedBy(newer, 1.5);
    expect(older.received).not.toContain(id);
    expect(newer.client.connected).toBe(true);
    // The gateway did not go offline: the older connection's will was not published.
    await neverOffline();
  });

  it('takes over under the same client id too, without the older connection’s will', async () => {
    const before = await connect(`same-${gw.networkId}`);
    const after = await connect(`same-${gw.networkId}`);
    await before.closed;
    const id = await changeAppliedBy(after, 2);
    expect(before.received).not.toContain(id);
    // Old code: aedes published the closed connection's will, "offline".
    await neverOffline();
  });
});
