import { connect as tcpConnect } from 'node:net';
import type mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';

const FARM = 'Weifang Broiler Farm';

const closed = (client: mqtt.MqttClient, withinMs: number) =>
  new Promise<boolean>((resolve) => {
    if (!client.connected) return resolve(true);
    const timer = setTimeout(() => resolve(false), withinMs);
    client.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

const reading = () => JSON.stringify({ ts: Date.now(), metrics: { temperature: 22 } });

describe.each(testDatabaseTargets())('hostile MQTT on $name', (target) => {
  let r: TestRoost;
  let admin: string;
  beforeAll(async () => {
    r = await startTestRoost(target);
    admin = await r.signIn('admin');
  }, 180_000);
  afterAll(() => r?.stop());

  const api = (method: string, path: string, body: object) =>
    fetch(`${r.url}/api${path}`, {
      method,
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it("rotating a gateway's token ends its open session at once; the new token signs in", async () => {
    const gw = await r.gatewayOf(FARM, 'House 1', 'old-token-1');
    const client = await r.gateway(gw.networkId, 'old-token-1');
    await client.publishAsync(`roost/v1/${gw.networkId}/telemetry`, reading(), { qos: 1 });
    const res = await api('PUT', '/gateway/rotateToken', { id: gw.gatewayId });
    expect(res.status).toBe(200);
    const { token } = ((await res.json()) as { data: { token: string } }).data;
    expect(await closed(client, 3_000)).toBe(true);
    await expect(r.gateway(gw.networkId, 'old-token-1')).rejects.toThrow();
    const renewed = await r.gateway(gw.networkId, token);
    await renewed.publishAsync(`roost/v1/${gw.networkId}/telemetry`, reading(), { qos: 1 });
    renewed.end(true);
  });

  it('deleting a gateway ends its open session', async () => {
    const gw = await r.gatewayOf(FARM, 'House 6', 'token-6');
    const client = await r.gateway(gw.networkId, 'token-6');
    expect((await api('DELETE', '/gateway/delete', { id: gw.gatewayId })).status).toBe(200);
    expect(await closed(client, 3_000)).toBe(true);
  });

  it("a gateway cannot take over another gateway's client id and session", async () => {
    const a = await r.gatewayOf(FARM, 'House 2', 'token-a');
    const b = await r.gatewayOf(FARM, 'House 3', 'token-b');
    const victim = await r.gateway(a.networkId, 'token-a', { clientId: 'shared-id', clean: false });
    await expect(
      r.gateway(b.networkId, 'token-b', { clientId: 'shared-id', clean: false }),
    ).rejects.toThrow();
    expect(victim.connected).toBe(true);
    await victim.publishAsync(`roost/v1/${a.networkId}/telemetry`, reading(), { qos: 1 });
    // Its persistent session stays its own after it leaves, too.
    victim.end(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(
      r.gateway(b.networkId, 'token-b', { clientId: 'shared-id', clean: false }),
    ).rejects.toThrow();
    const back = await r.gateway(a.networkId, 'token-a', { clientId: 'shared-id', clean: false });
    back.end(true);
  });

  it('garbage, oversized and unauthenticated packets leave the broker serving gateways', async () => {
    const hostile = [
      Buffer.from('GET / HTTP/1.1\r\n\r\n'),
      // CONNECT declaring a 200 MB remaining length.
      Buffer.from([0x10, 0xff, 0xff, 0xff, 0x7f]),
      // PUBLISH before CONNECT.
      Buffer.from([0x30, 0x05, 0x00, 0x01, 0x61, 0x62, 0x63]),
      Buffer.from([0xff, 0x00]),
    ];
    for (const bytes of hostile) {
      await new Promise<void>((resolve) => {
        const socket = tcpConnect(Number(new URL(r.mqttUrl).port), '127.0.0.1', () =>
          socket.write(bytes),
        );
        socket.on('error', () => resolve());
        socket.on('close', () => resolve());
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 2_000);
      });
    }
    // A NUL in the user name and a topic of another gateway are refused, not fatal.
    await expect(r.gateway('a\u0000b', 'x')).rejects.toThrow();
    const gw = await r.gatewayOf(FARM, 'House 4', 'token-4');
    const client = await r.gateway(gw.networkId, 'token-4');
    await client.publishAsync(`roost/v1/${gw.networkId}/telemetry`, reading(), { qos: 1 });
    const health = await fetch(`${r.url}/api/health`);
    expect(health.status).toBe(200);
    client.end(true);
  });
});
