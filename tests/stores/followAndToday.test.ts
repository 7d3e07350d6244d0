import { afterEach, describe, expect, it, vi } from 'vitest';
import { HousesStore, type HouseFeed } from '../../src/stores/HousesStore';
import { POLL_INTERVAL_MS } from '../../src/stores/LiveStore';
import { createTestStores, ok, refuse } from './fakeApi';

/** A connection as the houses store sees it: which houses it is subscribed to now. */
class RecordingFeed implements HouseFeed {
  readonly subscribed = new Map<number, number>();
  subscribeHouse(houseId: number): () => void {
    this.subscribed.set(houseId, (this.subscribed.get(houseId) ?? 0) + 1);
    return () => {
      const left = this.subscribed.get(houseId)! - 1;
      if (left === 0) this.subscribed.delete(houseId);
      else this.subscribed.set(houseId, left);
    };
  }
  statusOnly: readonly number[] | null = null;
  showStatusOnly(follow: readonly number[] | null): void {
    this.statusOnly = follow;
  }
}

describe('a page follows a house through its store', () => {
  it('subscribes once for two pages on one house and leaves when the last one closes', () => {
    const houses = new HousesStore();
    const feed = new RecordingFeed();
    houses.useFeed(feed);
    const first = houses.follow(3);
    const second = houses.follow(3);
    expect([...feed.subscribed]).toEqual([[3, 1]]);
    first();
    first(); // an effect's clean-up run twice leaves once
    expect([...feed.subscribed]).toEqual([[3, 1]]);
    second();
    expect(feed.subscribed.size).toBe(0);
    expect(houses.followed).toEqual([]);
  });

  it('keeps following across connections: a new sign-in subscribes the open monitor again', () => {
    const houses = new HousesStore();
    const leave = houses.follow(5); // the page opened before the connection ran
    const first = new RecordingFeed();
    houses.useFeed(first);
    expect([...first.subscribed]).toEqual([[5, 1]]);
    houses.useFeed(null); // signed out: the old connection is left
    expect(first.subscribed.size).toBe(0);
    const second = new RecordingFeed();
    houses.useFeed(second);
    expect([...second.subscribed]).toEqual([[5, 1]]);
    leave();
    expect(second.subscribed.size).toBe(0);
  });
});

describe("today's alarms on the dashboard", () => {
  afterEach(() => vi.useRealTimers());

  const today = (count: number) => [{ cause: 'co2High', count }];

  it('loads while watched, again when the open count changes and every 30 s, not after', async () => {
    vi.useFakeTimers();
    let count = 1;
    const { stores, requests } = createTestStores({ 'GET /alarm/today': () => ok(today(count)) });
    const stop = stores.alarmsToday.watch();
    await vi.waitFor(() => expect(stores.alarmsToday.causes).toEqual(today(1)));

    count = 2;
    stores.alarms.setActiveCount(4);
    await vi.waitFor(() => expect(stores.alarmsToday.causes).toEqual(today(2)));

    count = 3;
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    await vi.waitFor(() => expect(stores.alarmsToday.causes).toEqual(today(3)));

    stop();
    const asked = requests.length;
    stores.alarms.setActiveCount(9);
    await vi.advanceTimersByTimeAsync(3 * POLL_INTERVAL_MS);
    expect(requests.length).toBe(asked);
  });

  it('keeps the last figures when a refetch fails, without a toast', async () => {
    let fail = false;
    const { stores, errors } = createTestStores({
      'GET /alarm/today': () => (fail ? refuse(500, 'down') : ok(today(7))),
    });
    const stop = stores.alarmsToday.watch();
    await vi.waitFor(() => expect(stores.alarmsToday.causes).toEqual(today(7)));
    fail = true;
    await stores.alarmsToday.load();
    expect(stores.alarmsToday.causes).toEqual(today(7));
    expect(errors).toEqual([]);
    stop();
  });

  it('shows the newest answer when two cross', async () => {
    const answers: Array<(value: ReturnType<typeof ok>) => void> = [];
    const { stores } = createTestStores({
      'GET /alarm/today': () => new Promise((resolve) => answers.push(resolve)),
    });
    const older = stores.alarmsToday.load();
    const newer = stores.alarmsToday.load();
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]!(ok(today(2)));
    await newer;
    answers[0]!(ok(today(1)));
    await older;
    expect(stores.alarmsToday.causes).toEqual(today(2));
  });
});
