import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARAMS, paramsOfType } from '../../src/contract/envcontrol';
import type { DemoGateway } from '../../server/demo/seed';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';

/** Honest gateways publishing telemetry while one gateway floods its config/report. */
const HONEST = 8;
const PHASE_MS = 4_000;
const PUBLISH_EVERY_MS = 50;
const CATALOGUE = PARAMS.map((s) => s.key);
const METRICS_TOKEN = 'metrics-token-report-flood';

const p99 = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
};

/**
 * The hostile gateway, in its own process so that its 4 MB of JSON cost this (the server's)
 * thread nothing: it signs in, says `ready`, and on a line from the test publishes 20
 * `{"params":{"k00000":n,…,"k17999":n},"source":"local"}` (198 KB of keys nobody knows) at
 * QoS 1 at once, then says `done` when all are acknowledged.
 */
const FLOOD = `
import mqtt from 'mqtt';
const [url, networkId, token] = process.argv.slice(1);
const topic = 'roost/v1/' + networkId + '/config/report';
const reports = Array.from({ length: 20 }, (_, n) => JSON.stringify({
  params: Object.fromEntries(Array.from({ length: 18000 }, (_, i) => ['k' + String(i).padStart(5, '0'), n])),
  source: 'local',
}));
const client = await mqtt.connectAsync(url, { username: networkId, password: token, reconnectPeriod: 0 });
console.log('ready');
process.stdin.once('data', async () => {
  await Promise.all(reports.map((report) => client.publishAsync(topic, report, { qos: 1 })));
  console.log('done');
  await client.endAsync();
});
`;

function startFlood(url: string, networkId: string, token: string) {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', FLOOD, url, networkId, token],
    { cwd: path.resolve(import.meta.dirname, '../..'), stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const said = (word: string) =>
    new Promise<void>((resolve) => lines.on('line', (line) => line === word && resolve()));
  const ready = said('ready');
  return {
    ready,
    /** Sends the 20 reports; resolves once all are acknowledged. */
    async fire() {
      const done = said('done');
      child.stdin.write('go\n');
      await done;
    },
    stop: () => child.kill(),
  };
}

describe.each(testDatabaseTargets())('config/report flood on $name', (target) => {
  let r: TestRoost;
  let honest: mqtt.MqttClient[];
  let hostile: { gateway: DemoGateway; client: mqtt.MqttClient };

  beforeAll(async () => {
    r = await startTestRoost(target, { metricsToken: METRICS_TOKEN });
    const gateways = r.roost.boot.demoGateways!;
    honest = await Promise.all(
      gateways.slice(0, HONEST).map((g) => r.gateway(g.networkId, g.token)),
    );
    const g = gateways[HONEST]!;
    hostile = { gateway: g, client: await r.gateway(g.networkId, g.token) };
  }, 180_000);
  afterAll(() => r?.stop());

  const rejected = () => ({ ...r.roost.ingest.counters.rejected });

  /** Publishes readings from every honest gateway for `ms`; answers each PUBACK's latency. */
  const measure = async (ms: number, during?: () => Promise<unknown>) => {
    const latencies: number[] = [];
    const until = performance.now() + ms;
    const loops = honest.map(async (client, i) => {
      const networkId = r.roost.boot.demoGateways![i]!.networkId;
      while (performance.now() < until) {
        const payload = JSON.stringify({ ts: Date.now(), metrics: { temperature: 22 } });
        const start = performance.now();
        await client.publishAsync(`roost/v1/${networkId}/telemetry`, payload, { qos: 1 });
        latencies.push(performance.now() - start);
        await new Promise((done) => setTimeout(done, PUBLISH_EVERY_MS));
      }
    });
    await Promise.all([...loops, during?.()]);
    return latencies;
  };

  it("20 hostile 200 KB reports at once leave the others' acknowledgements alone and store nothing", async () => {
    const { gateway, client } = hostile;
    const topic = `roost/v1/${gateway.networkId}/config/report`;
    // Its honest report first: from then on a change would be a stored change row.
    const own = Object.fromEntries(paramsOfType(gateway.typeKey).map((s) => [s.key, s.min]));
    await client.publishAsync(topic, JSON.stringify({ params: own, source: 'device' }), {
      qos: 1,
    });
    const before = rejected();
    const flood = startFlood(r.mqttUrl, gateway.networkId, gateway.token);
    let baseline: number[], attack: number[];
    try {
      await flood.ready;
      await measure(PHASE_MS / 2); // every house's first reading looks its house up
      baseline = await measure(PHASE_MS);
      attack = await measure(PHASE_MS, () => flood.fire());
    } finally {
      flood.stop();
    }
    const [calm, underAttack] = [p99(baseline), p99(attack)];
    console.log(
      `report flood on ${target.name}: PUBACK p99 baseline ${calm.toFixed(1)} ms ` +
        `(${baseline.length} readings), under attack ${underAttack.toFixed(1)} ms (${attack.length})`,
    );
    expect(underAttack - calm).toBeLessThan(100);
    // Each refused, counted and nothing of them stored.
    expect(rejected().tooLarge - before.tooLarge).toBe(20);
    const [unknown] = await r.roost.database.query<{ changes: number; params: number }>(
      `select (select count(*)::int from param_changes where key <> all($1::text[])) as changes,
              (select count(*)::int from gateway_params p, jsonb_object_keys(p.params) k
                 where k <> all($1::text[])) as params`,
      [CATALOGUE],
    );
    expect(unknown).toEqual({ changes: 0, params: 0 });
  }, 120_000);

  it('a small report with a key outside the catalogue is refused whole and counted', async () => {
    const { gateway, client } = hostile;
    const before = rejected();
    const [first] = CATALOGUE;
    const params = { [first!]: 30, made_up_key: 1 };
    await client.publishAsync(
      `roost/v1/${gateway.networkId}/config/report`,
      JSON.stringify({ params, source: 'local' }),
      { qos: 1 },
    );
    await waitFor(() => (rejected().unknownParam > before.unknownParam ? true : undefined));
    const rows = await r.roost.database.query<{ n: number }>(
      `select count(*)::int as n from param_changes where gateway_id = (
         select id from gateways where network_id = $1)`,
      [gateway.networkId],
    );
    expect(Number(rows[0]!.n)).toBe(0);
    // The refusal shows in /metrics' refused-message counters.
    const metrics = await (
      await fetch(`${r.url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      })
    ).text();
    expect(metrics).toMatch(/roost_readings_refused_total\{reason="unknownParam"\} [1-9]/);
  });
});
