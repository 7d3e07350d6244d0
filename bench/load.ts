import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DemoGateway } from '../server/demo/seed';
import { METRICS } from '../src/contract/metrics';
import { BenchGateway } from './gatewayClient';

/** A reading with every catalogue metric (25) and five devices: 30 values, as a full controller sends. */
export function fullReading(ts: number, seq: number): string {
  return JSON.stringify({ ts, seq, ...readingBody(seq) });
}

function readingBody(seq: number) {
  const metrics: Record<string, number> = {};
  for (const m of METRICS)
    metrics[m.key] =
      Math.round((m.min + (m.max - m.min) * (0.3 + ((seq * 7 + m.key.length) % 40) / 100)) * 10) /
      10;
  metrics.ventilation_level = seq % 10;
  return {
    mode: 1,
    metrics,
    devices: {
      fan_1: { state: 1 },
      fan_2: { state: seq % 2 },
      inlet_1: { state: 1, opening: 40 },
      heater_1: { state: 0 },
      light_1: { state: 1 },
    },
  };
}

/** fullReading's values repeat every 40 readings (seq % 40, % 10, % 2). */
const BODY_PERIOD = 40;
/** Everything after `"seq":n`, for each seq % BODY_PERIOD. */
const bodyTails = Array.from(
  { length: BODY_PERIOD },
  (_, seq) => `,${JSON.stringify(readingBody(seq)).slice(1)}`,
);

/**
 * fullReading's very bytes, without building and serialising its 30 values each time: the
 * bench's gateways share the server's two cores, and what they spend the server under
 * measurement lacks (real gateways bring their own CPU).
 */
export function fullReadingFast(ts: number, seq: number): string {
  return `{"ts":${ts},"seq":${seq}${bodyTails[seq % BODY_PERIOD]!}`;
}

// A bench that sent other bytes than it claims would measure something else: check at load.
for (let seq = 0; seq < 3 * BODY_PERIOD; seq += 1)
  if (fullReadingFast(1_764_000_000_000 + seq, seq) !== fullReading(1_764_000_000_000 + seq, seq))
    throw new Error(`fullReadingFast differs from fullReading at seq ${seq}`);

export function readDemoGateways(dataDir: string): DemoGateway[] {
  return JSON.parse(
    readFileSync(path.join(dataDir, 'demo-gateways.json'), 'utf8'),
  ) as DemoGateway[];
}

export async function connectGateways(
  port: number,
  gateways: DemoGateway[],
): Promise<BenchGateway[]> {
  return Promise.all(gateways.map((gw) => BenchGateway.connect(port, gw.networkId, gw.token)));
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[index] ?? 0) * 100) / 100;
}

/**
 * Publishes QoS 1 readings at `ratePerSecond` (or as fast as acknowledgements allow when null)
 * for `seconds`, round-robin over the gateways, each with its own clock-unique timestamps.
 * Answers how many were acknowledged.
 */
export async function publishLoad(
  clients: BenchGateway[],
  gateways: DemoGateway[],
  options: {
    ratePerSecond: number | null;
    seconds: number;
    window?: number;
    onPublish?: (gatewayIndex: number, ts: number) => void;
  },
): Promise<{ acked: number; failed: number; elapsedMs: number }> {
  const window = options.window ?? 2_000;
  let acked = 0;
  let failed = 0;
  let inFlight = 0;
  let sent = 0;
  // One waiter for every message: the bench counts, it does not tell them apart.
  const waiter = {
    resolve: () => {
      acked += 1;
      inFlight -= 1;
    },
    reject: () => {
      failed += 1;
      inFlight -= 1;
    },
  };
  const seqs = gateways.map(() => 0);
  const topics = gateways.map((gw) => `roost/v1/${gw.networkId}/telemetry`);
  const lastTs = gateways.map(() => 0);
  const start = performance.now();
  const end = start + options.seconds * 1000;
  const publishOne = () => {
    const g = sent % gateways.length;
    sent += 1;
    // Unique per gateway: a reading is identified by (gateway, ts).
    const ts = Math.max(Date.now(), lastTs[g]! + 1);
    lastTs[g] = ts;
    seqs[g]! += 1;
    inFlight += 1;
    options.onPublish?.(g, ts);
    clients[g]!.publish(topics[g]!, fullReadingFast(ts, seqs[g]!), waiter);
  };
  while (performance.now() < end) {
    const due =
      options.ratePerSecond === null
        ? Number.POSITIVE_INFINITY
        : Math.floor(((performance.now() - start) / 1000) * options.ratePerSecond);
    while (sent < due && inFlight < window) publishOne();
    await new Promise((r) =>
      setTimeout(r, options.ratePerSecond === null && inFlight >= window ? 1 : 2),
    );
  }
  const drainUntil = performance.now() + 30_000;
  while (inFlight > 0 && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 5));
  return { acked, failed, elapsedMs: performance.now() - start };
}
