import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { ServerEvents } from '../../server/events';
import type { HouseLiveState } from '../../server/houses/state';
import type { Reading } from '../../server/ingest/types';

const silent = pino({ level: 'silent' });

const reading = (houseId: number, seq: number) => ({ houseId, seq }) as unknown as Reading;
const state = (houseId: number, online: boolean) => ({ houseId, online }) as HouseLiveState;

/** A promise and the function that settles it, for listeners that finish when told. */
function gate() {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the server event bus', () => {
  it('calls a reading listener before emit returns, and a failing listener does not stop the next', () => {
    const events = new ServerEvents(silent);
    const heard: number[] = [];
    events.on('readingAccepted', () => {
      throw new Error('broken listener');
    });
    events.on('readingAccepted', (r) => void heard.push(r.seq ?? -1));
    void events.emit('readingAccepted', reading(1, 7));
    expect(heard).toEqual([7]);
  });

  it('logs a failing listener with the event name', async () => {
    const error = vi.fn();
    const events = new ServerEvents({ ...silent, error } as unknown as typeof silent);
    events.on('alarmRulesChanged', async () => {
      throw new Error('async failure');
    });
    void events.emit('alarmRulesChanged', 4);
    await new Promise((r) => setImmediate(r));
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({ event: 'alarmRulesChanged' }),
      'event listener failed',
    );
  });

  it('hands gateway status to its listeners in turn and resolves after the last', async () => {
    const events = new ServerEvents(silent);
    const order: string[] = [];
    const first = gate();
    events.on('gatewayStatus', async () => {
      order.push('hub start');
      await first.opened;
      order.push('hub end');
    });
    events.on('gatewayStatus', () => void order.push('engine'));
    let done = false;
    const emitted = events.emit('gatewayStatus', [state(1, false)]).then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['hub start']);
    expect(done).toBe(false);
    first.open();
    await emitted;
    expect(order).toEqual(['hub start', 'hub end', 'engine']);
  });

  it('never echoes an alarm summary to a gateway-status listener', async () => {
    const events = new ServerEvents(silent);
    const status = vi.fn();
    const summary = vi.fn();
    events.on('gatewayStatus', status);
    events.on('houseSummary', summary);
    await events.emit('houseSummary', [state(3, true)]);
    expect(summary).toHaveBeenCalledTimes(1);
    expect(status).not.toHaveBeenCalled();
  });

  it('gives stored batches to a busy listener in order, merged, with the newest state per house', async () => {
    const events = new ServerEvents(silent);
    const calls: Array<{ seqs: number[]; states: Array<[number, boolean]> }> = [];
    const busy = gate();
    events.on('batchStored', async ({ readings, states }) => {
      calls.push({
        seqs: readings.map((r) => r.seq ?? -1),
        states: states.map((s) => [s.houseId, s.online]),
      });
      if (calls.length === 1) await busy.opened;
    });
    await events.emit('batchStored', { readings: [reading(1, 1)], states: [state(1, true)] });
    // The listener is still on the first batch: these two wait, and are merged.
    await events.emit('batchStored', { readings: [reading(1, 2)], states: [state(1, false)] });
    await events.emit('batchStored', { readings: [reading(2, 3)], states: [state(1, true)] });
    expect(calls).toHaveLength(1);
    busy.open();
    await events.idle();
    expect(calls).toEqual([
      { seqs: [1], states: [[1, true]] },
      { seqs: [2, 3], states: [[1, true]] },
    ]);
  });

  it('lets the writer go on while a listener is behind, and holds it once the backlog is too long', async () => {
    const events = new ServerEvents(silent);
    const busy = gate();
    let calls = 0;
    events.on('batchStored', async () => {
      calls += 1;
      if (calls === 1) await busy.opened;
    });
    const batch = (n: number) => ({
      readings: Array.from({ length: n }, (_, i) => reading(1, i)),
      states: [],
    });
    await events.emit('batchStored', batch(1));
    // 4,000 waiting: under the bound, the writer is not held.
    await events.emit('batchStored', batch(4_000));
    let released = false;
    const held = events.emit('batchStored', batch(2_000)).then(() => (released = true));
    await new Promise((r) => setImmediate(r));
    expect(released).toBe(false);
    busy.open();
    await held;
    expect(released).toBe(true);
  });

  it('stops calling a listener that unsubscribed', async () => {
    const events = new ServerEvents(silent);
    const heard = vi.fn();
    const off = events.on('sessionEnded', heard);
    await events.emit('sessionEnded', 'a');
    off();
    await events.emit('sessionEnded', 'b');
    expect(heard.mock.calls).toEqual([['a']]);
  });
});
