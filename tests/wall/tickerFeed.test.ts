import { describe, expect, it } from 'vitest';
import { TICKER_MAX_ENTRIES } from '../../src/screens/wall/constants';
import { TickerFeed } from '../../src/screens/wall/tickerFeed';
import { AlarmChanges } from '../../src/screens/wall/alarmChanges';

describe("the wall's ticker", () => {
  it('names the newest change first, leaves out houses it cannot name, and keeps a bounded few', () => {
    const feed = new TickerFeed();
    expect(feed.empty).toBe(true);
    const names: Record<number, string> = { 11: 'House 1', 12: 'House 2' };
    const changes = new AlarmChanges(TICKER_MAX_ENTRIES);
    changes.add('raised', 11, 1, 'temperatureHigh', 'critical');
    changes.add('raised', 99, 9, 'temperatureHigh', 'minor');
    changes.add('cleared', 12, 1, 'temperatureHigh', 'critical');
    feed.add(changes, (houseId) => names[houseId]);
    expect(feed.entries.map((e) => `${e.houseName} ${e.kind}`)).toEqual([
      'House 2 cleared',
      'House 1 raised',
    ]);
    for (let i = 0; i < TICKER_MAX_ENTRIES; i += 1) {
      changes.clear();
      changes.add(i % 2 ? 'cleared' : 'raised', 11, 1, 'temperatureHigh', 'critical');
      feed.add(changes, (houseId) => names[houseId]);
    }
    expect(feed.entries).toHaveLength(TICKER_MAX_ENTRIES);
    expect(feed.entries[0]!.kind).toBe('cleared');
    expect(feed.empty).toBe(false);
  });
});
