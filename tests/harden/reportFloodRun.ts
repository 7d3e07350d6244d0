import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type mqtt from 'mqtt';
import { paramsOfType } from '../../src/contract/envcontrol';
import type { TestRoost } from '../helpers/testRoost';

/**
 * One gateway floods its config/report while honest gateways publish telemetry: the attack of
 * the report flood test (behaviour) and of the `reportFlood` bench (the latency figure).
 */
const HONEST = 8;
const PHASE_MS = 4_000;
const PUBLISH_EVERY_MS = 50;

/**
 * The hostile gateway, in its own process so that its 4 MB of JSON cost the server's thread
 * nothing: it signs in, says `ready`, and at each line from its parent publishes 20
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
process.stdin.on('data', async () => {
  await Promise.all(reports.map((report) => client.publishAsync(topic, report, { qos: 1 })));
  console.log('done');
});
`;

export const FLOOD_REPORTS = 20;

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

export const p99 = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
};

export interface FloodFigures {
  /** PUBACK latencies of the honest gateways' readings, calm and while the flood arrived. */
  baseline: number[];
  attack: number[];
}

/**
 * Calm and attacked phases alternate `rounds` times and each side's latencies are pooled, so a
 * burst of the machine's other work falls on both sides alike. The hostile gateway is the demo
 * gateway after the honest ones; it first sends its honest report, so that from then on a
 * change would be a stored change row.
 */
export async function runReportFlood(r: TestRoost, rounds: number): Promise<FloodFigures> {
  const gateways = r.roost.boot.demoGateways!;
  const honest: mqtt.MqttClient[] = await Promise.all(
    gateways.slice(0, HONEST).map((g) => r.gateway(g.networkId, g.token)),
  );
  const hostile = gateways[HONEST]!;
  const own = Object.fromEntries(paramsOfType(hostile.typeKey).map((s) => [s.key, s.min]));
  const client = await r.gateway(hostile.networkId, hostile.token);
  await client.publishAsync(
    `roost/v1/${hostile.networkId}/config/report`,
    JSON.stringify({ params: own, source: 'device' }),
    { qos: 1 },
  );

  /** Publishes readings from every honest gateway for `ms`; answers each PUBACK's latency. */
  const measure = async (ms: number, during?: () => Promise<unknown>) => {
    const latencies: number[] = [];
    const until = performance.now() + ms;
    const loops = honest.map(async (gateway, i) => {
      const topic = `roost/v1/${gateways[i]!.networkId}/telemetry`;
      while (performance.now() < until) {
        const payload = JSON.stringify({ ts: Date.now(), metrics: { temperature: 22 } });
        const start = performance.now();
        await gateway.publishAsync(topic, payload, { qos: 1 });
        latencies.push(performance.now() - start);
        await new Promise((done) => setTimeout(done, PUBLISH_EVERY_MS));
      }
    });
    await Promise.all([...loops, during?.()]);
    return latencies;
  };

  const flood = startFlood(r.mqttUrl, hostile.networkId, hostile.token);
  const figures: FloodFigures = { baseline: [], attack: [] };
  try {
    await flood.ready;
    await measure(PHASE_MS / 2); // every house's first reading looks its house up
    for (let round = 0; round < rounds; round += 1) {
      figures.baseline.push(...(await measure(PHASE_MS)));
      figures.attack.push(...(await measure(PHASE_MS, () => flood.fire())));
    }
  } finally {
    flood.stop();
    for (const c of [...honest, client]) c.end(true);
  }
  return figures;
}
