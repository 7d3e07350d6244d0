import { randomBytes } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost } from '../helpers/testRoost';

const { TEST_MQTT_URL } = process.env;

const INTERVAL_S = 2;
const ALLOWANCE_MS = 3 * INTERVAL_S * 1000;
/** The server cannot reach its broker for longer than a gateway's allowance. */
const OUTAGE_MS = ALLOWANCE_MS + 3_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A loopback proxy to the broker that can refuse every connection for a while. */
async function startBlockableProxy(target: URL) {
  const sockets = new Set<Socket>();
  let blocked = false;
  const server = createServer((client) => {
    if (blocked) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 1883), target.hostname);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', end);
      s.on('error', end);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    block() {
      blocked = true;
      for (const s of [...sockets]) s.destroy();
    },
    unblock() {
      blocked = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A gateway on the external broker sending a reading a second until it is silenced. */
function runGateway(networkId: string) {
  const client: MqttClient = mqtt.connect(TEST_MQTT_URL!, {
    clientId: `grace-gw-${networkId}`,
    reconnectPeriod: 500,
  });
  client.on('error', () => undefined);
  let silent = false;
  const timer = setInterval(() => {
    if (silent || !client.connected) return;
    const reading = JSON.stringify({ ts: Date.now(), metrics: { temperature: 21 } });
    client.publish(`roost/v1/${networkId}/telemetry`, reading, { qos: 1 }, () => undefined);
  }, 1_000);
  return {
    silence: () => (silent = true),
    stop() {
      clearInterval(timer);
      client.end(true);
    },
  };
}

const pglite = testDatabaseTargets().find((t) => t.name === 'pglite')!;

describe.runIf(TEST_MQTT_URL)('the external broker link', () => {
  it('gives every gateway its allowance again after the link comes back, and only then sweeps', async () => {
    const proxy = await startBlockableProxy(new URL(TEST_MQTT_URL!));
    const t = await startTestRoost(pglite, {
      mqttUrl: `mqtt://127.0.0.1:${proxy.port}`,
      mqttPort: null,
      // A group of this run's own: other runs on the same broker get their own copies.
      mqttShareGroup: `grace-${randomBytes(4).toString('hex')}`,
    });
    const run = randomBytes(4).toString('hex');
    const gateways: Array<ReturnType<typeof runGateway>> = [];
    try {
      const db = t.roost.database;
      // Network ids of this run's own, so no other run's readings reach these houses.
      const rows = await db.query<{ id: number; network_id: string; house_id: number }>(
        `update gateways set network_id = 'grace-' || $1 || '-' || id, interval_seconds = $2
         where id in (select id from gateways where house_id is not null order by id limit 2)
         returning id, network_id, house_id`,
        [run, INTERVAL_S],
      );
      const [talker, silent] = rows.sort((x, y) => x.id - y.id) as [
        (typeof rows)[0],
        (typeof rows)[0],
      ];
      for (const r of rows) gateways.push(runGateway(r.network_id));
      const online = async () =>
        (
          await db.query<{ house_id: number }>(
            'select house_id from house_state where online and house_id = any($1::int[]) order by house_id',
            [rows.map((r) => r.house_id)],
          )
        ).map((r) => r.house_id);
      const started = Date.now();
      while ((await online()).length < 2) {
        if (Date.now() - started > 20_000) throw new Error('gateways not online within 20 s');
        await sleep(100);
      }

      const [{ cut_at: cutAt }] = (await db.query<{ cut_at: Date }>('select now() as cut_at')) as [
        { cut_at: Date },
      ];
      proxy.block();
      gateways[1]!.silence();
      await sleep(OUTAGE_MS);
      // Not hearing the gateways is not their silence.
      expect(await online()).toEqual(rows.map((r) => r.house_id).sort((a, b) => a - b));
      proxy.unblock();
      const back = Date.now();

      await sleep(ALLOWANCE_MS - 2_000);
      expect((await online()).length).toBe(2);
      while ((await online()).includes(silent.house_id)) {
        if (Date.now() - back > ALLOWANCE_MS + 10_000) throw new Error('silent gateway online');
        await sleep(100);
      }
      expect(Date.now() - back).toBeGreaterThanOrEqual(ALLOWANCE_MS);
      expect(await online()).toEqual([talker.house_id]);
      const offlineLog = await db.query<{ gateway_id: number; reason: string }>(
        'select gateway_id, reason from gateway_online_log where not online and at >= $1',
        [cutAt],
      );
      expect(offlineLog).toEqual([{ gateway_id: silent.id, reason: 'silent' }]);
      const alarms = await db.query<{ house_id: number }>(
        `select house_id from alarms where cause = 'gatewayOffline'`,
      );
      expect(alarms).toEqual([{ house_id: silent.house_id }]);
    } finally {
      for (const g of gateways) g.stop();
      await t.stop();
      await proxy.close();
    }
  }, 120_000);
});
