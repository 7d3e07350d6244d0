import { afterEach, describe, expect, it, vi } from 'vitest';
import { autorun } from 'mobx';
import { alarmTodaySchema, type AlarmToday } from '../../src/contract/alarms';
import { LatestAnswer, spreadRefreshes } from '../../src/screens/wall/wallReads';
import { createTestStores, ok, refuse, SIGNED_IN, type Handler } from '../stores/fakeApi';

/** Today's causes as the server answers them, one answer after another. */
function todayServer(answers: (() => ReturnType<Handler>)[]) {
  let next = 0;
  const t = createTestStores(
    { 'GET /alarm/today': () => answers[Math.min(next++, answers.length - 1)]!() },
    { cookies: SIGNED_IN },
  );
  const read = new LatestAnswer<AlarmToday>(t.stores.api, '/alarm/today', alarmTodaySchema);
  // What a panel observing the read would render, one entry per render.
  const renders: (AlarmToday | null)[] = [];
  const stop = autorun(() => renders.push(read.value));
  return { t, read, renders, stop };
}

describe('a wall read kept as its last answer', () => {
  it('renders its panel again only when the answer changed', async () => {
    const { read, renders, stop } = todayServer([
      () => ok([{ cause: 'temperatureHigh', count: 2 }]),
      () => ok([{ cause: 'temperatureHigh', count: 2 }]),
      () => ok([{ cause: 'temperatureHigh', count: 3 }]),
    ]);
    await read.load();
    const first = read.value;
    expect(first).toEqual([{ cause: 'temperatureHigh', count: 2 }]);
    // The usual 30 s refresh on a quiet night: the same causes, the same object, no render.
    await read.load();
    expect(read.value).toBe(first);
    await read.load();
    expect(read.value).toEqual([{ cause: 'temperatureHigh', count: 3 }]);
    expect(renders).toHaveLength(3);
    stop();
  });

  it('keeps what it showed, without a toast, when a read fails or answers what it cannot show', async () => {
    const { t, read, stop } = todayServer([
      () => ok([{ cause: 'humidityLow', count: 1 }]),
      () => refuse(503, 'The server is busy; try again shortly.'),
      () => ok([{ cause: 'no such cause', count: 1 }]),
    ]);
    await read.load();
    await read.load();
    await read.load();
    expect(read.value).toEqual([{ cause: 'humidityLow', count: 1 }]);
    // A wall has nobody to read a toast: the stale banner tells it when data is old.
    expect(t.errors).toEqual([]);
    expect(t.requests).toHaveLength(3);
    stop();
  });
});

describe('the wall’s refreshes', () => {
  afterEach(() => vi.useRealTimers());

  it('reads each once a period, one at a time and evenly apart, until disposed', () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const dispose = spreadRefreshes(30_000, [
      () => calls.push('today'),
      () => calls.push('production'),
      () => calls.push('ranking'),
    ]);
    vi.advanceTimersByTime(9_999);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['today']);
    vi.advanceTimersByTime(10_000);
    expect(calls).toEqual(['today', 'production']);
    vi.advanceTimersByTime(40_000);
    expect(calls).toEqual(['today', 'production', 'ranking', 'today', 'production', 'ranking']);
    dispose();
    vi.advanceTimersByTime(60_000);
    expect(calls).toHaveLength(6);
  });
});
