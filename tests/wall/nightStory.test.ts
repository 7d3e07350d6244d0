import { describe, expect, it } from 'vitest';
import { type Alarm } from '../../src/contract/alarms';
import { dayTotals, emptyHour, HOUR_MS, type WallNight } from '../../src/contract/wallNight';
import { countedIn, rolledTo } from '../../src/screens/wall/nightStory';

/** A night whose current hour began at 23:00 UTC, its day at 00:00 UTC the same day. */
const HOUR_START = Date.parse('2026-11-27T23:00:00Z');
const night = (): WallNight => {
  const base = {
    timeZone: 'UTC',
    asOf: new Date(HOUR_START + 60_000).toISOString(),
    hourStart: new Date(HOUR_START).toISOString(),
    midnight: '2026-11-27T00:00:00.000Z',
    today: Array.from({ length: 24 }, emptyHour),
    yesterday: Array.from({ length: 24 }, emptyHour),
  };
  return { ...base, totals: dayTotals(base) };
};
const alarm = (id: number, severity: Alarm['severity']) => ({ id, severity }) as Alarm;

describe('the night’s story kept live on the wall', () => {
  it('counts a raise or a clear in the hour it happened, and in the day’s counts', () => {
    let n = countedIn(night(), 'raised', alarm(1, 'critical'), HOUR_START + 5 * 60_000);
    n = countedIn(n, 'cleared', alarm(2, 'minor'), HOUR_START - 3 * HOUR_MS);
    expect(n.today[23]!.raised.critical).toBe(1);
    expect(n.today[20]!.cleared.minor).toBe(1);
    expect(n.totals.today).toEqual({ raised: 1, cleared: 1 });
    // Older than the two days shown: nowhere.
    expect(countedIn(n, 'raised', alarm(3, 'major'), HOUR_START - 60 * HOUR_MS)).toBe(n);
  });

  it('moves on each hour without a read: the hour leaving the 24 becomes yesterday’s', () => {
    let n = countedIn(night(), 'raised', alarm(1, 'major'), HOUR_START - 23 * HOUR_MS + 1);
    n = countedIn(n, 'raised', alarm(2, 'critical'), HOUR_START + 1);
    expect(n.today[0]!.raised.major).toBe(1);
    // Past midnight: a new day, and the 23:00 hour's alarm is yesterday's by this hour.
    const next = rolledTo(n, HOUR_START + HOUR_MS + 60_000);
    expect(next.hourStart).toBe('2026-11-28T00:00:00.000Z');
    expect(next.midnight).toBe('2026-11-28T00:00:00.000Z');
    expect(next.yesterday[23]!.raised.major).toBe(1);
    expect(next.today[22]!.raised.critical).toBe(1);
    expect(next.today[23]).toEqual(emptyHour());
    expect(next.totals).toEqual({
      today: { raised: 0, cleared: 0 },
      yesterday: { raised: 1, cleared: 0 },
    });
    // Within the same hour nothing moves.
    expect(rolledTo(next, HOUR_START + 2 * HOUR_MS - 1)).toBe(next);
  });

  it('starts empty after the wall slept for days', () => {
    const n = countedIn(night(), 'raised', alarm(1, 'major'), HOUR_START);
    const later = rolledTo(n, HOUR_START + 100 * HOUR_MS + 5);
    expect(later.hourStart).toBe(new Date(HOUR_START + 100 * HOUR_MS).toISOString());
    expect([...later.today, ...later.yesterday].every((h) => h.raised.major === 0)).toBe(true);
    expect(Date.parse(later.hourStart) - Date.parse(later.midnight)).toBeLessThan(24 * HOUR_MS);
  });
});
