import { describe, expect, it } from 'vitest';
import type { Alarm } from '../../src/contract/alarms';
import { AlarmStore } from '../../src/stores/AlarmStore';

const alarm = (id: number, state: Alarm['state']): Alarm => ({
  id,
  houseId: 1 + (id % 7),
  houseName: 'House',
  farmId: 1,
  farmName: 'Farm',
  cause: 'co2High',
  severity: 'major',
  subject: 'co2',
  value: 4000,
  limit: 3000,
  text: null,
  state,
  raisedAt: new Date(0).toISOString(),
  acknowledgedAt: null,
  acknowledgedBy: null,
  ackComment: null,
  clearedAt: state === 'cleared' ? new Date(0).toISOString() : null,
  clearedBy: state === 'cleared' ? 'condition' : null,
  occurrences: 1,
});

describe('the alarm store on a screen left open for weeks', () => {
  it('keeps a bounded number of alarms however many are raised and cleared', () => {
    const store = new AlarmStore();
    store.setQuery({ state: 'all' });
    for (let id = 1; id <= 5_000; id += 1) {
      store.applyAlarmEvent('raised', alarm(id, 'active'));
      if (id % 10 !== 0) store.applyAlarmEvent('cleared', alarm(id, 'cleared'));
    }
    expect(store.rows.length).toBeLessThanOrEqual(200);
    // What the list shows is still there, cleared or not; the rest only while it is open.
    expect(store.byId.size).toBeLessThanOrEqual(200 + 500);
    expect(store.rows[0]?.id).toBe(5_000);
    expect(store.openOf(1 + (5_000 % 7)).map((a) => a.id)).toContain(5_000);
  });

  it('keeps a cleared alarm its list is showing, with its new state', () => {
    const store = new AlarmStore();
    store.setQuery({ state: 'all' });
    store.applyAlarmEvent('raised', alarm(1, 'active'));
    store.applyAlarmEvent('cleared', alarm(1, 'cleared'));
    expect(store.rows.map((a) => [a.id, a.state])).toEqual([[1, 'cleared']]);
  });
});
