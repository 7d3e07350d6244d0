import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshHouseSummary } from '../../server/alarms/lifecycle.sql';
import type { Database } from '../../server/db/client';
import { alarms } from '../../server/db/alarmSchema';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';
import { farmWithHouses } from './helpers';

describe.each(testDatabaseTargets())('house alarm summary statement on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;
  let farmId: number;
  let houseId: number;

  beforeAll(async () => {
    ({ database, close } = await openTestDatabase(target));
    const place = await farmWithHouses(database, 1);
    farmId = place.farmId;
    houseId = place.houseIds[0]!;
  });
  afterAll(() => close?.());

  it('counts the open alarms and picks the most severe, unacknowledged, newest as top', async () => {
    const at = (h: number) => new Date(Date.UTC(2026, 0, 2, h));
    const base = { houseId, farmId, subject: '', raisedAt: at(1) };
    await database.db.insert(alarms).values([
      { ...base, cause: 'temperatureHigh', severity: 'major', value: 35.5, limitValue: 32 },
      { ...base, cause: 'nh3High', severity: 'critical', state: 'acknowledged', raisedAt: at(3) },
      { ...base, cause: 'co2High', severity: 'critical', subject: 'co2', raisedAt: at(2) },
      { ...base, cause: 'temperatureLow', severity: 'critical', state: 'cleared', raisedAt: at(4) },
    ]);
    const state = await database.transaction(({ query }) =>
      refreshHouseSummary(query, houseId, farmId),
    );
    expect(state).toMatchObject({ houseId, farmId, alarmCount: 3 });
    expect(state?.alarmTop).toEqual({
      cause: 'co2High',
      severity: 'critical',
      subject: 'co2',
      value: null,
      limit: null,
      text: null,
      acknowledged: false,
    });
  });

  it('writes a house without open alarms as none, with no top', async () => {
    await database.db.update(alarms).set({ state: 'cleared' });
    const state = await database.transaction(({ query }) =>
      refreshHouseSummary(query, houseId, farmId),
    );
    expect(state).toMatchObject({ houseId, alarmCount: 0, alarmTop: null });
  });
});
