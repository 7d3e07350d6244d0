import { describe, expect, it } from 'vitest';
import { Outbox } from '../../server/simulator/outbox';

function fill(outbox: Outbox, n: number, from = 0): void {
  for (let i = from; i < from + n; i += 1) outbox.push('t', String(i), true);
}
const payloads = (items: Array<{ payload: string }>) => items.map((i) => i.payload);

describe('outbox', () => {
  it('hands out messages in order, at most maxInflight at a time', () => {
    const outbox = new Outbox(100);
    fill(outbox, 5);
    const a = outbox.take(2)!;
    const b = outbox.take(2)!;
    expect(outbox.take(2)).toBeUndefined();
    expect(payloads([a, b])).toEqual(['0', '1']);
    outbox.ack(a);
    expect(outbox.take(2)!.payload).toBe('2');
    expect(outbox.size).toBe(4);
  });

  it('puts failed messages back in their place and sends them again first', () => {
    const outbox = new Outbox(100);
    fill(outbox, 6);
    const taken = [0, 1, 2, 3].map(() => outbox.take(10)!);
    outbox.ack(taken[0]!);
    outbox.ack(taken[2]!);
    // The connection drops with 1 and 3 in flight: "Connection closed".
    outbox.failInflight();
    const again: string[] = [];
    for (let item = outbox.take(10); item; item = outbox.take(10)) {
      again.push(item.payload);
      outbox.ack(item);
    }
    expect(again).toEqual(['1', '3', '4', '5']);
    expect(outbox.size).toBe(0);
  });

  it('ignores a failure after the acknowledgement, and counts a late acknowledgement once', () => {
    const outbox = new Outbox(10);
    fill(outbox, 2);
    const a = outbox.take(10)!;
    outbox.ack(a);
    outbox.fail(a);
    expect(payloads(outbox.pendingItems())).toEqual(['1']);
    const b = outbox.take(10)!;
    outbox.failInflight();
    outbox.ack(b);
    expect(outbox.size).toBe(0);
    expect(outbox.take(10)).toBeUndefined();
  });

  it('drops the oldest message when full, counting dropped readings', () => {
    const outbox = new Outbox(3);
    fill(outbox, 3);
    const first = outbox.take(10)!;
    fill(outbox, 2, 3);
    expect(outbox.size).toBe(3);
    expect(outbox.droppedReadings).toBe(2);
    expect(payloads(outbox.pendingItems())).toEqual(['2', '3', '4']);
    // The dropped message was in flight: its late failure does not bring it back.
    outbox.fail(first);
    expect(payloads(outbox.pendingItems())).toEqual(['2', '3', '4']);
  });

  it('stays in order across compaction of a long backlog', () => {
    const outbox = new Outbox(10_000);
    fill(outbox, 5_000);
    const seen: number[] = [];
    for (let round = 0; round < 5_000; round += 1) {
      const item = outbox.take(50)!;
      if (round % 7 === 3) outbox.fail(item);
      else {
        seen.push(Number(item.payload));
        outbox.ack(item);
      }
    }
    for (let item = outbox.take(50); item; item = outbox.take(50)) {
      seen.push(Number(item.payload));
      outbox.ack(item);
    }
    // A failed message is the next one handed out again: the order never changes.
    expect(seen).toEqual(Array.from({ length: 5_000 }, (_, i) => i));
    expect(outbox.size).toBe(0);
  });
});
