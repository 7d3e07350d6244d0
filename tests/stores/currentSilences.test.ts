import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurrentSilences } from '../../src/stores/CurrentSilences';
import { fetchTo, storesOn } from './realServer';

const envelope = (data: unknown) => ({ success: true, code: 200, msg: 'OK', data });
const silence = (id: number, state: 'active' | 'planned', houseId: number | null) => ({
  id,
  farmId: 1,
  farmName: 'Farm',
  houseId,
  houseName: houseId === null ? null : `House ${houseId}`,
  cause: id === 3 ? 'temperatureHigh' : null,
  reason: 'Changing the fans',
  owner: 'Farm manager',
  startsAt: '2026-11-24T08:00:00.000Z',
  endsAt: '2026-11-24T16:00:00.000Z',
  endedAt: null,
  endedBy: null,
  state,
  heldAlarms: 0,
});

/**
 * The silences in force as the house cards read them. The first list answer comes late, after
 * the silence it listed was ended: the second answer (none in force) is what stays.
 */
let answers = 0;
const app = Fastify({ logger: false });
app.get('/api/notify/silence/list', async () => {
  answers += 1;
  if (answers === 1) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return envelope({ rows: [silence(1, 'active', 2)], total: 1 });
  }
  if (answers === 2) return envelope({ rows: [], total: 0 });
  return envelope({
    rows: [silence(1, 'active', 2), silence(2, 'planned', null), silence(3, 'active', null)],
    total: 3,
  });
});

describe('the silences in force', () => {
  let stores: ReturnType<typeof storesOn>['stores'];
  beforeAll(async () => {
    stores = storesOn(await fetchTo(app)).stores;
  });
  afterAll(() => app.close());

  it('keeps the answer to the latest load, not one that came late', async () => {
    const silences = new CurrentSilences(stores.api);
    const first = silences.load();
    await Promise.all([first, silences.load()]);
    expect(silences.holds(1, 2, 'co2High')).toBe(false);
  });

  it('holds a house’s alarm when a silence in force covers the house and the cause', async () => {
    const silences = new CurrentSilences(stores.api);
    await silences.load();
    // House 2, every cause; the whole farm, one cause; a planned one holds nothing yet.
    expect(silences.holds(1, 2, 'co2High')).toBe(true);
    expect(silences.holds(1, 5, 'temperatureHigh')).toBe(true);
    expect(silences.holds(1, 5, 'co2High')).toBe(false);
    expect(silences.holds(9, 2, 'co2High')).toBe(false);
  });
});
