import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';
import { gateways, houses } from '../../server/db/schema';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import { startRoost, type RunningRoost } from '../../server/roost';
import { testDatabaseTargets } from '../helpers/databases';
import { waitFor } from '../helpers/waitFor';
import { DYNSEC_ADMIN, startDynsecMosquitto, type DynsecMosquitto } from './dynsecMosquitto';

/**
 * With an external Mosquitto and its dynamic security plugin, Roost keeps one account per
 * gateway there: made, given a new password and removed as the console changes the gateway,
 * and mended at start when someone changed Mosquitto behind Roost's back.
 */
describe.each(testDatabaseTargets())(
  'Mosquitto accounts follow Roost gateways, $name',
  (target) => {
    let broker: DynsecMosquitto;
    let roost: RunningRoost;
    let dataDir: string;
    let databaseUrl: string | null;
    let drop: () => Promise<void>;
    let admin: string;
    const clients: MqttClient[] = [];

    const start = () =>
      startRoost({
        ...readConfig({
          PORT: '0',
          DATA_DIR: dataDir,
          ROOST_DEMO: '1',
          ROOST_DEMO_HISTORY: 'off',
          ROOST_SIMULATOR: 'off',
          ROOST_CAPTCHA: 'off',
          LOG_LEVEL: 'silent',
          MQTT_URL: broker.roostUrl,
          ROOST_DYNSEC_USER: DYNSEC_ADMIN.username,
          ROOST_DYNSEC_PASSWORD: DYNSEC_ADMIN.password,
        }),
        databaseUrl,
      });

    const call = async <T>(method: string, route: string, body: unknown) => {
      const res = await fetch(`${roost.url}/api${route}`, {
        method,
        headers: { authorization: admin, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { data: T; msg: string };
      if (res.status !== 200) throw new Error(`${route}: ${res.status} ${answer.msg}`);
      return answer.data;
    };

    /** A gateway's connection to Mosquitto; rejects with the broker's refusal. */
    const connectGateway = async (networkId: string, token: string) => {
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
        username: networkId,
        password: token,
        clientId: `${networkId}-${Math.random().toString(36).slice(2, 8)}`,
        reconnectPeriod: 0,
      });
      clients.push(client);
      return client;
    };
    /** The SUBACK's code for one filter: 1 granted, 128 refused (mqtt.js rejects on a refusal). */
    const grant = (client: MqttClient, filter: string) =>
      client.subscribeAsync(filter, { qos: 1 }).then(
        (granted) => granted[0]!.qos,
        (error: Error) => (/subscribe error/i.test(error.message) ? 128 : Promise.reject(error)),
      );
    const refused = (networkId: string, token: string) =>
      connectGateway(networkId, token).then(
        () => 'connected',
        (error: Error) => error.message,
      );

    /** A house of the demo whose gateway is removed, for a new one to be created in the console. */
    const emptyHouse = async (name: string) => {
      const [row] = await roost.database.db
        .select({ houseId: houses.id, gatewayId: gateways.id })
        .from(houses)
        .innerJoin(gateways, eq(gateways.houseId, houses.id))
        .where(eq(houses.name, name))
        .limit(1);
      await call('DELETE', '/gateway/delete', { id: row!.gatewayId });
      return row!.houseId;
    };
    const createGateway = (houseId: number, networkId: string) =>
      call<{ id: number; networkId: string; token: string }>('POST', '/gateway/save', {
        houseId,
        networkId,
        typeKey: 11,
        number: '',
        version: '',
        simCard: '',
      });

    beforeAll(async () => {
      broker = await startDynsecMosquitto();
      dataDir = mkdtempSync(path.join(tmpdir(), 'roost-dynsec-data-'));
      const created = await target.create();
      databaseUrl = created.target.kind === 'postgres' ? created.target.url : null;
      drop = created.drop;
      roost = await start();
      const res = await fetch(`${roost.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
      });
      admin = ((await res.json()) as { data: { token: string } }).data.token;
    }, 180_000);

    afterAll(async () => {
      for (const c of clients) c.end(true);
      await roost?.close();
      await drop?.();
      await broker?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('admits a gateway created in the console with its token, to its own topics only', async () => {
      const gw = await createGateway(await emptyHouse('House 1'), 'kit-gw-one');
      const client = await connectGateway(gw.networkId, gw.token);
      expect(await grant(client, 'roost/v1/kit-gw-one/config/set')).toBe(1);
      expect(await grant(client, 'roost/v1/kit-gw-two/config/set')).toBe(128);
      expect(await refused(gw.networkId, 'a-wrong-token')).toMatch(/not authori[sz]ed/i);
      client.end(true);
    });

    it('ends the session of a rotated token within 5 s and refuses the old password', async () => {
      const gw = await createGateway(await emptyHouse('House 2'), 'kit-gw-rotate');
      const client = await connectGateway(gw.networkId, gw.token);
      const closed = new Promise<number>((resolve) =>
        client.once('close', () => resolve(Date.now())),
      );
      const asked = Date.now();
      const rotated = await call<{ token: string }>('PUT', '/gateway/rotateToken', { id: gw.id });
      expect(await closed).toBeLessThan(asked + 5_000);
      expect(await refused(gw.networkId, gw.token)).toMatch(/not authori[sz]ed/i);
      expect(await refused(gw.networkId, rotated.token)).toBe('connected');
    });

    it('cuts and refuses a deleted gateway', async () => {
      const gw = await createGateway(await emptyHouse('House 3'), 'kit-gw-delete');
      const client = await connectGateway(gw.networkId, gw.token);
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      await call('DELETE', '/gateway/delete', { id: gw.id });
      await closed;
      expect(await refused(gw.networkId, gw.token)).toMatch(/not authori[sz]ed/i);
    });

    it('mends at start what was changed at Mosquitto behind its back', async () => {
      const kept = await createGateway(await emptyHouse('House 4'), 'kit-gw-kept');
      const held = await createGateway(await emptyHouse('House 5'), 'kit-gw-held');
      await roost.close();
      // Behind Roost's back: a gateway's account removed, a stranger given a gateway's role,
      // another gateway disabled and given more rights.
      await broker.control.run({ command: 'deleteClient', username: kept.networkId });
      await broker.control.run({
        command: 'createRole',
        rolename: 'roost-gateway-intruder',
        acls: [{ acltype: 'publishClientSend', topic: 'roost/v1/#', allow: true }],
      });
      await broker.control.run({
        command: 'createClient',
        username: 'intruder',
        password: 'intruder-password',
        roles: [{ rolename: 'roost-gateway-intruder' }],
      });
      await broker.control.run({ command: 'disableClient', username: held.networkId });
      await broker.control.run({
        command: 'addClientRole',
        username: held.networkId,
        rolename: 'roost-server',
      });
      expect(await refused(kept.networkId, kept.token)).toMatch(/not authori[sz]ed/i);
      expect(await refused('intruder', 'intruder-password')).toBe('connected');

      roost = await start();
      expect(roost.brokerDrift?.created).toEqual(['kit-gw-kept']);
      expect(roost.brokerDrift?.removed).toEqual(['intruder']);
      expect(roost.brokerDrift?.repaired).toEqual(['kit-gw-held']);
      expect(await refused(kept.networkId, kept.token)).toBe('connected');
      expect(await refused('intruder', 'intruder-password')).toMatch(/not authori[sz]ed/i);
      const client = await waitFor(() =>
        connectGateway(held.networkId, held.token).catch(() => undefined),
      );
      // Its extra role is gone: it may not read what Roost's own user may.
      expect(await grant(client, 'roost/v1/kit-gw-kept/telemetry')).toBe(128);
    });
  },
);
