import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningRoost } from '../../server/roost';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';

const { TEST_MQTT_URL } = process.env;

/**
 * Ingest from an external broker (a real Mosquitto, TEST_MQTT_URL), on the embedded database:
 * how many readings a process takes in at once, and that one whose store failed comes again.
 */
describe.runIf(TEST_MQTT_URL)('ingest from an external broker', () => {
  let test: TestRoost;
  let roost: RunningRoost;
  let networkIds: string[];
  let houseIds: number[];
  const gateways: MqttClient[] = [];
  /** Every batch written: its readings and whether it committed. */
  const batches: Array<{ size: number; committed: boolean }> = [];

  beforeAll(async () => {
    test = await startTestRoost(
      testDatabaseTargets().find((t) => t.name === 'pglite')!,
      {
        mqttUrl: TEST_MQTT_URL!,
        mqttPort: null,
        // A group of this run's own: other runs' sessions on the same broker get their own copies.
        mqttShareGroup: `roost-test-${randomBytes(4).toString('hex')}`,
      },
    );
    roost = test.roost;
    const rows = await roost.database.query<{ network_id: string; house_id: number }>(
      'select network_id, house_id from gateways order by house_id limit 40',
    );
    networkIds = rows.map((r) => r.network_id);
    houseIds = rows.map((r) => Number(r.house_id));
    roost.ingest.counters.onBatch = (size, _seconds, committed) =>
      batches.push({ size, committed });
    for (let i = 0; i < networkIds.length; i += 1) {
      const gateway = mqtt.connect(TEST_MQTT_URL!, {
        clientId: `gw-${randomBytes(4).toString('hex')}`,
      });
      await new Promise((resolve) => gateway.once('connect', resolve));
      gateways.push(gateway);
    }
  });
  afterAll(async () => {
    await Promise.allSettled(gateways.map((g) => g.endAsync(true)));
    await test?.stop();
  });

  const stored = async (since: number) =>
    Number(
      (
        await roost.database.query<{ n: string }>(
          'select count(*) as n from telemetry where house_id = any($1) and ts >= $2',
          [houseIds, new Date(since)],
        )
      )[0]!.n,
    );

  it('stores readings of many gateways arriving at once in batches larger than its connections', async () => {
    const base = Date.now() - 600_000;
    batches.length = 0;
    // 40 gateways, 5 readings each, all sent at once.
    await Promise.all(
      gateways.flatMap((gateway, g) =>
        Array.from({ length: 5 }, (_, i) =>
          gateway.publishAsync(
            `roost/v1/${networkIds[g]}/telemetry`,
            JSON.stringify({ ts: base + i * 1000, metrics: { temperature: 20 + i } }),
            { qos: 1 },
          ),
        ),
      ),
    );
    await waitFor(async () => (await stored(base)) >= 200 || undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect(await stored(base)).toBe(200);
    // Each of the 8 connections once took its next reading only after acknowledging the last,
    // so no batch held more than 8 readings and the backlog grew at 1,000 readings a second.
    expect(Math.max(...batches.map((b) => b.size))).toBeGreaterThan(8);
    expect(batches.reduce((n, b) => n + b.size, 0)).toBe(200);
  });

  it('receives a reading whose store failed again from the broker, and stores it once', async () => {
    const base = Date.now() - 300_000;
    batches.length = 0;
    await roost.database.query('alter table telemetry rename to telemetry_away');
    try {
      await gateways[0]!.publishAsync(
        `roost/v1/${networkIds[0]}/telemetry`,
        JSON.stringify({ ts: base, metrics: { temperature: 31.5 } }),
        { qos: 1 },
      );
      await waitFor(() => batches.some((b) => !b.committed) || undefined);
    } finally {
      await roost.database.query('alter table telemetry_away rename to telemetry');
    }
    // Not acknowledged, so the broker sends it again once the connection is back.
    await waitFor(async () => (await stored(base)) === 1 || undefined, 20_000);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await stored(base)).toBe(1);
  });
});
