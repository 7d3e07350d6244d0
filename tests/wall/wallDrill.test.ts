import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WallDrill } from '../../src/screens/wall/wallDrill';
import { IDLE_RESET_MS } from '../../src/screens/wall/constants';

const regions: Record<number, string | null> = { 1: '320000', 2: null };

describe("the wall's drill-down", () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.parse('2026-11-28T02:00:00Z') }));
  afterEach(() => vi.useRealTimers());

  it('opens a farm in the area it lies in, and keeps the area for a farm placed nowhere', () => {
    const drill = new WallDrill((farmId) => regions[farmId]);
    drill.selectFarm(1);
    expect([drill.region, drill.farmId]).toEqual(['320000', 1]);
    drill.selectFarm(2);
    expect([drill.region, drill.farmId]).toEqual(['320000', 2]);
    drill.selectRegion('440000');
    expect([drill.region, drill.farmId]).toEqual(['440000', null]);
  });

  it('goes back to the whole map a minute after the last touch, not before', () => {
    const drill = new WallDrill((farmId) => regions[farmId]);
    drill.selectFarm(1);
    vi.advanceTimersByTime(IDLE_RESET_MS - 1_000);
    drill.touch();
    vi.advanceTimersByTime(IDLE_RESET_MS - 1_000);
    drill.resetWhenIdle(Date.now());
    expect(drill.farmId).toBe(1);
    vi.advanceTimersByTime(2_000);
    drill.resetWhenIdle(Date.now());
    expect([drill.region, drill.farmId]).toEqual([null, null]);
  });
});
