import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AedesPublishPacket, type Client } from 'aedes';
import { type FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gatewayStatusSchema,
  parseGatewayTopic,
  telemetrySchema,
} from '../../src/contract/gateway';
import { type Database } from '../../server/db/client';
import { openDatabase } from '../../server/db/open';
import { seedDemo, type DemoGateway } from '../../server/demo/seed';
import { ServerEvents } from '../../server/events';
import { GatewayDirectory } from '../../server/ingest/gatewayDirectory';
import { IngestPipeline } from '../../server/ingest/pipeline';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../server/mqtt/broker';
import { CommandReplyPort } from '../../server/mqtt/replyPort';
import { GatewayLink } from '../../server/simulator/gatewayLink';
import { startSimulator } from '../../server/simulator/simulator';
import { startTcpProxy } from './tcpProxy';

/**
 * What the broker saw, per gateway: telemetry sequence numbers and status messages; and what
 * the server stored (a broker closing down may acknowledge a stored reading without telling
 * its own 'publish' listeners, so gaps are checked against the store).
 */
class Received {
  readonly seqs = new Map<string, number[]>();
  readonly stored = new Map<string, number[]>();
  readonly statuses = new Map<string, Array<{ online: boolean; retain: boolean }>>();
  readonly clients = new Map<string, Client>();

  attach(broker: EmbeddedBroker): void {
    broker.aedes.on('clientReady', (client) => this.clients.set(client.id, client));
    broker.aedes.on('publish', (packet: AedesPublishPacket) => {
      const topic = parseGatewayTopic(packet.topic);
      if (!topic) return;
      const body: unknown = JSON.parse(packet.payload.toString());
      if (topic.kind === 'telemetry') {
        const reading = telemetrySchema.parse(body);
        const list = this.seqs.get(topic.networkId) ?? [];
        list.push(reading.seq!);
        this.seqs.set(topic.networkId, list);
      } else if (topic.kind === 'status') {
        const status = gatewayStatusSchema.parse(body);
        const list = this.statuses.get(topic.networkId) ?? [];
        list.push({ online: status.online, retain: packet.retain });
        this.statuses.set(topic.networkId, list);
      }
    });
  }

  listen(events: ServerEvents): void {
    events.on('batchStored', ({ readings }) => {
      for (const r of readings) {
        const list = this.stored.get(r.networkId) ?? [];
        list.push(r.seq!);
        this.stored.set(r.networkId, list);
      }
    });
  }

  storedOf(g: DemoGateway): number[] {
    return this.stored.get(g.networkId) ?? [];
  }

  seqsOf(g: DemoGateway): number[] {
    return this.seqs.get(g.networkId) ?? [];
  }

  statusesOf(g: DemoGateway): Array<{ online: boolean; retain: boolean }> {
    return this.statuses.get(g.networkId) ?? [];
  }
}

/** The pipeline logs refusals; the test reads its counters instead. */
const silentLog = {
  level: 'silent',
  fatal: () => undefined,
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
  silent: () => undefined,
  child: () => silentLog,
} as unknown as FastifyBaseLogger;

async function waitFor(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every number from 0 to the highest received, each at least once (duplicates allowed). */
function gapsIn(seqs: number[]): number[] {
  const seen = new Set(seqs);
  const max = Math.max(-1, ...seqs);
  return Array.from({ length: max + 1 }, (_, i) => i).filter((i) => !seen.has(i));
}

describe('simulator over MQTT (embedded broker)', () => {
  let database: Database;
  let dataDir: string;
  let gateways: DemoGateway[];
  let broker: EmbeddedBroker;
  let pipeline: IngestPipeline;
  let received: Received;
  let url: string;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
    dataDir = mkdtempSync(path.join(tmpdir(), 'roost-sim-'));
    gateways = await seedDemo(database.db, dataDir, 'unused-admin-hash');
    // The real ingest path: a reading is acknowledged only once it is stored.
    const events = new ServerEvents(silentLog);
    pipeline = new IngestPipeline(database, new GatewayDirectory(database.db), events, silentLog);
    broker = await startEmbeddedBroker(inboxOf(pipeline), 0, '127.0.0.1');
    received = new Received();
    received.attach(broker);
    received.listen(events);
    url = `mqtt://127.0.0.1:${broker.port}`;
  });

  afterAll(async () => {
    await broker?.close();
    await pipeline?.drain();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('publishes readings with rising seq, a retained online status, and says goodbye on stop', async () => {
    const three = gateways.slice(0, 3);
    const errors: Error[] = [];
    const sim = await startSimulator({
      url,
      gateways: three,
      intervalMs: 50,
      seed: 1,
      onError: (e) => errors.push(e),
    });
    await waitFor('10 readings from each gateway', () =>
      three.every((g) => received.seqsOf(g).length >= 10),
    );
    expect(sim.stats().connected).toBe(3);
    for (const g of three) {
      const seqs = received.seqsOf(g);
      expect(seqs.slice(0, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(received.statusesOf(g)[0]).toEqual({ online: true, retain: true });
    }
    await sim.stop();
    for (const g of three)
      expect(received.statusesOf(g).at(-1)).toEqual({ online: false, retain: true });
    expect(sim.stats()).toMatchObject({ gateways: 3, connected: 0, refused: 0 });
    expect(errors).toEqual([]);
    // The server's ingest stored them and refused none.
    const counters = pipeline.counters.snapshot();
    expect(counters.stored).toBeGreaterThanOrEqual(30);
    expect(Object.values(counters.rejected).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('reconnects after the broker drops a gateway and resends what was not acknowledged', async () => {
    const three = gateways.slice(3, 6);
    const victim = three[1]!;
    const sim = await startSimulator({
      url,
      gateways: three,
      intervalMs: 50,
      seed: 2,
      onError: () => undefined,
    });
    await waitFor('readings', () => received.seqsOf(victim).length >= 10);
    const before = received.statusesOf(victim).length;
    received.clients.get(`sim-${victim.networkId}`)!.conn.destroy();
    // The broker publishes the will: the gateway is offline.
    await waitFor('the will', () =>
      received
        .statusesOf(victim)
        .slice(before)
        .some((s) => !s.online),
    );
    const cutAt = Math.max(...received.seqsOf(victim));
    await waitFor(
      'the reconnect and 20 more readings',
      () => Math.max(...received.seqsOf(victim)) > cutAt + 20,
    );
    expect(received.statusesOf(victim).at(-1)).toEqual({ online: true, retain: true });
    expect(gapsIn(received.storedOf(victim))).toEqual([]);
    await sim.stop();
  });

  it('resends readings whose acknowledgement never came when the link fails', async () => {
    const g = gateways[11]!;
    const proxy = await startTcpProxy(broker.port);
    const sim = await startSimulator({
      url: `mqtt://127.0.0.1:${proxy.port}`,
      gateways: [g],
      intervalMs: 50,
      seed: 5,
      onError: () => undefined,
    });
    await waitFor('readings', () => received.seqsOf(g).length >= 5);
    // The broker stores what arrives, but its PUBACKs no longer reach the gateway ...
    proxy.holdReplies();
    const heldFrom = received.seqsOf(g).length;
    await waitFor('unacknowledged readings', () => received.seqsOf(g).length >= heldFrom + 5);
    // ... and then the link fails: the gateway must send them all again.
    proxy.cut();
    const lastBeforeCut = Math.max(...received.seqsOf(g));
    await waitFor('the reconnect', () => Math.max(...received.seqsOf(g)) > lastBeforeCut + 10);
    const seqs = received.seqsOf(g);
    expect(gapsIn(received.storedOf(g))).toEqual([]);
    // Sent twice, stored once: the server drops the duplicates.
    expect(seqs.length).toBeGreaterThan(new Set(seqs).size);
    expect(received.storedOf(g).length).toBe(new Set(received.storedOf(g)).size);
    expect(sim.stats().requeued).toBeGreaterThanOrEqual(5);
    await sim.stop();
    await proxy.close();
  });

  it('keeps readings through a broker restart on the same port and delivers them all', async () => {
    const three = gateways.slice(6, 9);
    const sim = await startSimulator({
      url,
      gateways: three,
      intervalMs: 50,
      seed: 3,
      onError: () => undefined,
    });
    await waitFor('readings', () => three.every((g) => received.seqsOf(g).length >= 5));
    await broker.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sim.stats().queued).toBeGreaterThan(0);
    broker = await startEmbeddedBroker(inboxOf(pipeline), Number(new URL(url).port), '127.0.0.1');
    received.attach(broker);
    const made = sim.stats().readings;
    await waitFor('every gateway back', () => sim.stats().connected === 3, 20_000);
    await waitFor('the backlog', () => sim.stats().sent >= made);
    for (const g of three) expect(gapsIn(received.storedOf(g))).toEqual([]);
    await sim.stop();
  });

  it('reports a refused token through onError, without retrying or crashing', async () => {
    const errors: Error[] = [];
    const wrong = { ...gateways[9]!, token: 'not-the-token' };
    const sim = await startSimulator({
      url,
      gateways: [wrong],
      intervalMs: 50,
      seed: 4,
      onError: (e) => errors.push(e),
    });
    await waitFor('the refusal', () => sim.stats().refused === 1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(errors.map((e) => e.message)).toEqual([
      `${wrong.networkId}: Connection refused: Bad username or password`,
    ]);
    expect(sim.stats()).toMatchObject({ connected: 0, refused: 1, sent: 0, errors: 1 });
    expect(sim.stats().queued).toBeGreaterThan(10);
    expect(received.seqsOf(wrong)).toEqual([]);
    await sim.stop();
  });

  it('goes offline abruptly for an offline fault (the will says so) and delivers the readings made meanwhile', async () => {
    const g = gateways[10]!;
    const link = new GatewayLink(
      url,
      { networkId: g.networkId, token: g.token, network: 'wired', version: 'test' },
      () => undefined,
    );
    link.start();
    await waitFor('connect', () => link.connected);
    const reading = (seq: number) => ({ ts: Date.now() + seq, seq, metrics: { temperature: 20 } });
    for (let seq = 0; seq < 3; seq += 1) link.enqueue('telemetry', reading(seq));
    await waitFor('three readings acknowledged', () => link.outbox.size === 0);
    expect(received.seqsOf(g)).toEqual([0, 1, 2]);
    link.setOfflineFault(true);
    await waitFor('the will', () => received.statusesOf(g).at(-1)?.online === false);
    for (let seq = 3; seq < 8; seq += 1) link.enqueue('telemetry', reading(seq));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received.seqsOf(g)).toEqual([0, 1, 2]);
    link.setOfflineFault(false);
    await waitFor('the backlog', () => link.outbox.size === 0 && received.seqsOf(g).length >= 8);
    expect(received.seqsOf(g)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(received.statusesOf(g).at(-1)).toEqual({ online: true, retain: true });
    await link.stop();
  });
});

/** The pipeline as the broker's inbox; no command side listens to the gateways' answers here. */
function inboxOf(pipeline: IngestPipeline) {
  return { ingest: pipeline, replies: new CommandReplyPort(() => undefined) };
}
