import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayTopic, type GatewayReplyTopic } from '../../src/contract/gateway';
import type { Database } from '../../server/db/client';
import { openDatabase } from '../../server/db/open';
import { seedDemo, type DemoGateway } from '../../server/demo/seed';
import { ServerEvents } from '../../server/events';
import { GatewayDirectory } from '../../server/ingest/gatewayDirectory';
import { IngestPipeline } from '../../server/ingest/pipeline';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../server/mqtt/broker';
import { CommandReplyPort, type ReplyRefusal } from '../../server/mqtt/replyPort';
import { waitFor } from '../helpers/waitFor';

/**
 * A gateway's answers to commands go from the broker straight to the command side through the
 * reply port: ingest sees none of them, the PUBACK waits for the command side, and a refused
 * answer is counted with the refused readings.
 */
describe('command replies through the reply port (embedded broker)', () => {
  const log = pino({ level: 'silent' });
  let database: Database;
  let dataDir: string;
  let gateway: DemoGateway;
  let pipeline: IngestPipeline;
  let broker: EmbeddedBroker;
  let client: MqttClient;
  const replies = new CommandReplyPort((networkId, reason, detail) =>
    pipeline.rejected(networkId, reason, detail),
  );
  /** What the command side was handed, and the answers it holds back until released. */
  const handed: Array<{ networkId: string; kind: GatewayReplyTopic; body: unknown }> = [];
  const held: Array<(refusal: ReplyRefusal | null) => void> = [];
  const readings: unknown[] = [];

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
    mkdirSync('.tmp', { recursive: true });
    dataDir = mkdtempSync(path.join('.tmp', 'reply-port-'));
    [gateway] = (await seedDemo(database.db, dataDir, 'unused-admin-hash')) as [DemoGateway];
    const events = new ServerEvents(log);
    events.on('readingAccepted', (reading) => void readings.push(reading));
    pipeline = new IngestPipeline(database, new GatewayDirectory(database.db), events, log);
    replies.attach((networkId, kind, payload) => {
      handed.push({ networkId, kind, body: JSON.parse(payload.toString('utf8')) });
      return new Promise((resolve) => held.push(resolve));
    });
    broker = await startEmbeddedBroker({ ingest: pipeline, replies }, 0, '127.0.0.1', events);
    client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      username: gateway.networkId,
      password: gateway.token,
      clientId: `reply-port-${gateway.networkId}`,
    });
  });

  afterAll(async () => {
    await client?.endAsync(true);
    await broker?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('hands an answer to the command side, not to ingest, and acknowledges it once handled', async () => {
    const ack = { id: 'c-1', status: 'applied', values: { heat_offset: 1.5 } };
    let acknowledged = false;
    const sent = client
      .publishAsync(gatewayTopic(gateway.networkId, 'config/ack'), JSON.stringify(ack), { qos: 1 })
      .then(() => (acknowledged = true));
    await waitFor(() => (held.length === 1 ? true : undefined));
    expect(handed).toEqual([{ networkId: gateway.networkId, kind: 'config/ack', body: ack }]);
    // Still being handled: the gateway must keep it (and send it again after a crash).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(acknowledged).toBe(false);
    held.shift()!(null);
    await sent;
    expect(acknowledged).toBe(true);
    expect(readings).toEqual([]);
    expect(pipeline.counters.accepted).toBe(0);
  });

  it('counts an answer the command side refused like a refused reading', async () => {
    const before = pipeline.counters.rejected.schema;
    const sent = client.publishAsync(
      gatewayTopic(gateway.networkId, 'upgrade/progress'),
      JSON.stringify({ id: 'c-2', status: 'sideways' }),
      { qos: 1 },
    );
    await waitFor(() => (held.length === 1 ? true : undefined));
    held.shift()!({ reason: 'schema', detail: 'upgrade/progress: invalid status' });
    // Refused messages are acknowledged too: a gateway must not resend a bad one forever.
    await sent;
    expect(handed.at(-1)?.kind).toBe('upgrade/progress');
    expect(pipeline.counters.rejected.schema).toBe(before + 1);
  });

  it('refuses an answer over its topic cap before the command side sees it', async () => {
    const before = { handed: handed.length, tooLarge: pipeline.counters.rejected.tooLarge };
    const lines = Array.from({ length: 400 }, () => 'x'.repeat(400));
    await client.publishAsync(
      gatewayTopic(gateway.networkId, 'log'),
      JSON.stringify({ id: 'c-3', lines }),
      { qos: 1 },
    );
    expect(pipeline.counters.rejected.tooLarge).toBe(before.tooLarge + 1);
    expect(handed.length).toBe(before.handed);
  });
});
