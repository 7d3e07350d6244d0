import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  lockRuleStates,
  openAlarmsOf,
  openAlarmsOfHouses,
  readRuleStates,
  saveRuleStates,
  saveRuleStatesIfUnchanged,
} from '../../server/alarms/engine.sql';
import { emptyRuleState, keyOf } from '../../server/alarms/rules';
import type { Database } from '../../server/db/client';
import { alarms } from '../../server/db/alarmSchema';
import { openTestDatabase, testDatabaseTargets } from '../helpers/databases';
import { farmWithHouses } from './helpers';

describe.each(testDatabaseTargets())('alarm engine statements on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;
  let farmId: number;
  let houseIds: number[];

  beforeAll(async () => {
    ({ database, close } = await openTestDatabase(target));
    ({ farmId, houseIds } = await farmWithHouses(database, 3));
  });
  afterAll(() => close?.());

  it('creates rule states on first use, empty, and reads them back as saved', async () => {
    const [a, b] = houseIds as [number, number];
    const read = await readRuleStates(database.query, [a, b]);
    expect([...read.keys()].sort()).toEqual([a, b].sort());
    expect(read.get(a)).toEqual(emptyRuleState());
    // Read again: the same rows, not a second copy.
    expect((await readRuleStates(database.query, [a, b])).size).toBe(2);

    const changed = { ...emptyRuleState(), lastTs: 1234 };
    const was = JSON.stringify(read.get(a));
    await database.transaction(async ({ query }) => {
      const locked = await lockRuleStates(query, [a]);
      expect(locked.get(a)).toEqual(emptyRuleState());
      await saveRuleStates(query, [{ houseId: a, state: changed, was }], false);
    });
    expect((await readRuleStates(database.query, [a])).get(a)).toEqual(changed);
  });

  it('saves without locks only the states still as they were read', async () => {
    const [, b, c] = houseIds as [number, number, number];
    const read = await readRuleStates(database.query, [b, c]);
    const next = { ...emptyRuleState(), lastTs: 99 };
    const stale = JSON.stringify({ ...emptyRuleState(), lastTs: 1 });
    const saved = await saveRuleStatesIfUnchanged(database.query, [
      { houseId: b, state: next, was: JSON.stringify(read.get(b)) },
      { houseId: c, state: next, was: stale },
    ]);
    expect(saved).toBe(1);
    const after = await readRuleStates(database.query, [b, c]);
    expect(after.get(b)).toEqual(next);
    expect(after.get(c)).toEqual(emptyRuleState());
  });

  it('answers the open alarms by house and condition key, cleared ones left out', async () => {
    const [a, b] = houseIds as [number, number];
    const ended = new Date('2026-01-02T03:04:05.000Z');
    const base = { farmId, severity: 'major', raisedAt: new Date('2026-01-02T00:00:00Z') };
    await database.db.insert(alarms).values([
      { ...base, houseId: a, cause: 'temperatureHigh', subject: '' },
      {
        ...base,
        houseId: a,
        cause: 'sensorStuck',
        subject: 'temperature',
        conditionEndedAt: ended,
      },
      { ...base, houseId: b, cause: 'temperatureLow', subject: '', state: 'cleared' },
    ]);
    const open = await database.transaction(({ query }) => openAlarmsOfHouses(query, [a, b]));
    expect([...open.keys()]).toEqual([a]);
    expect(open.get(a)).toEqual(
      new Map([
        [keyOf('temperatureHigh', ''), { endedAt: null }],
        [keyOf('sensorStuck', 'temperature'), { endedAt: ended.getTime() }],
      ]),
    );
    expect(await openAlarmsOfHouses(database.query, [a, b], false)).toEqual(open);
    expect((await database.transaction(({ query }) => openAlarmsOf(query, b))).size).toBe(0);
  });
});
