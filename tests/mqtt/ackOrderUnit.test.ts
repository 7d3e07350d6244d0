import { PassThrough } from 'node:stream';
import type { Client, PublishPacket } from 'aedes';
import mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { acknowledgeInOrder } from '../../server/mqtt/ackInOrder';

/**
 * acknowledgeInOrder on its own, with commits that finish in any order: what reaches the
 * gateway's socket, parsed as MQTT. (ackInOrder.test.ts covers it through a real broker.)
 */
function gateway() {
  const conn = new PassThrough();
  const writes: number[] = [];
  const acked: number[] = [];
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  parser.on('packet', (p: { cmd: string; messageId?: number }) => {
    if (p.cmd === 'puback') acked.push(p.messageId!);
  });
  conn.on('data', (chunk: Buffer) => {
    writes.push(chunk.length);
    parser.parse(chunk);
  });
  const client = {
    connected: true,
    conn,
    close() {
      this.connected = false;
    },
  };
  const deferred = () => {
    let settle!: { resolve(): void; reject(e: Error): void };
    const work = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    return { work, ...settle };
  };
  const handledIds: number[] = [];
  const publish = (messageId: number) => {
    const d = deferred();
    const packet = { cmd: 'publish', qos: 1, messageId } as unknown as PublishPacket;
    acknowledgeInOrder(client as unknown as Client, packet, d.work, () =>
      handledIds.push(messageId),
    );
    expect(packet.qos).toBe(0); // aedes must not send a PUBACK of its own
    return d;
  };
  const flush = () => new Promise((r) => setImmediate(r));
  return { client, acked, writes, handledIds, publish, flush };
}

describe('acknowledging QoS 1 messages in order', () => {
  it('acknowledges each only once it and every earlier one are stored, the due ones in one write', async () => {
    const g = gateway();
    const [a, b, c, d] = [1, 2, 3, 4].map(g.publish) as [
      ReturnType<typeof g.publish>,
      ReturnType<typeof g.publish>,
      ReturnType<typeof g.publish>,
      ReturnType<typeof g.publish>,
    ];
    c.resolve();
    b.resolve();
    await g.flush();
    expect(g.acked).toEqual([]); // the first is not stored yet
    a.resolve();
    await g.flush();
    expect(g.acked).toEqual([1, 2, 3]);
    expect(g.writes).toEqual([12]);
    d.resolve();
    await g.flush();
    expect(g.acked).toEqual([1, 2, 3, 4]);
    expect(g.handledIds).toEqual([1, 2, 3, 4]);
  });

  it('closes the connection at a failed message, after acknowledging those before it', async () => {
    const g = gateway();
    const [a, b, c] = [7, 8, 9].map(g.publish) as [
      ReturnType<typeof g.publish>,
      ReturnType<typeof g.publish>,
      ReturnType<typeof g.publish>,
    ];
    c.resolve();
    b.reject(new Error('database down'));
    a.resolve();
    await g.flush();
    expect(g.acked).toEqual([7]);
    expect(g.client.connected).toBe(false);
  });

  it('lets the broker read on up to 1,000 unacknowledged messages, then holds the next until it is acknowledged', async () => {
    const g = gateway();
    const all = Array.from({ length: 1_001 }, (_, i) => g.publish(i + 1));
    expect(g.handledIds).toHaveLength(1_000);
    all[1_000]!.resolve();
    await g.flush();
    expect(g.handledIds).toHaveLength(1_000);
    for (const d of all.slice(0, 1_000)) d.resolve();
    await g.flush();
    expect(g.handledIds).toHaveLength(1_001);
    expect(g.acked).toEqual(Array.from({ length: 1_001 }, (_, i) => i + 1));
  });
});
