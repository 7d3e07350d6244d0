import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import {
  readRuntimes,
  upsertRuntimes,
  writeRuntimesIfUnchanged,
} from '../../server/devices/runtime.sql';
import { testDatabaseTargets } from '../helpers/databases';
import { openDemoDatabase } from '../helpers/demoDatabase';

/** The run-time count's hand-written statements: what they store, read back and refuse. */
describe.each(testDatabaseTargets())('run-time statements on $name', (target) => {
  let database: Database;
  let close: (() => Promise<void>) | undefined;
  let a: number;
  let b: number;

  beforeAll(async () => {
    ({ database, close } = await openDemoDatabase(target));
    const houses = await database.query<{ id: number }>(
      'select id from houses order by id limit 2',
    );
    [a, b] = houses.map((h) => h.id) as [number, number];
  }, 120_000);
  afterAll(async () => close?.());

  const fan = (run: number, last: number, state: number) => ({ fan_1: { run, last, state } });

  it('writes new rows, then only the rows still at the version they were read at', async () => {
    expect((await readRuntimes(database.query, [a, b], false)).size).toBe(0);
    const first = await writeRuntimesIfUnchanged(database.query, [
      { houseId: a, ports: fan(0, 1000, 1), readVersion: null },
      { houseId: b, ports: fan(5, 2000, 0), readVersion: null },
    ]);
    expect(first).toBe(2);
    const read = await readRuntimes(database.query, [a, b], false);
    expect(read.get(a)).toEqual({ houseId: a, ports: fan(0, 1000, 1), readVersion: 0 });
    expect(read.get(b)).toEqual({ houseId: b, ports: fan(5, 2000, 0), readVersion: 0 });

    // House a is still at version 0; house b was counted meanwhile (read at a version it no
    // longer has), and a new row for a house that has one is not written either.
    const second = await writeRuntimesIfUnchanged(database.query, [
      { houseId: a, ports: fan(60, 61_000, 0), readVersion: 0 },
      { houseId: b, ports: fan(99, 99_000, 1), readVersion: 7 },
    ]);
    expect(second).toBe(1);
    const after = await readRuntimes(database.query, [a, b], false);
    expect(after.get(a)).toEqual({ houseId: a, ports: fan(60, 61_000, 0), readVersion: 1 });
    expect(after.get(b)).toEqual({ houseId: b, ports: fan(5, 2000, 0), readVersion: 0 });
    expect(
      await writeRuntimesIfUnchanged(database.query, [
        { houseId: b, ports: fan(1, 1, 1), readVersion: null },
      ]),
    ).toBe(0);
  });

  it('reads under locks and writes whatever the rows hold, each write a new version', async () => {
    await database.transaction(async ({ query }) => {
      const locked = await readRuntimes(query, [b, a], true);
      expect([...locked.keys()].sort((x, y) => x - y)).toEqual([a, b].sort((x, y) => x - y));
      await upsertRuntimes(query, [
        { houseId: a, ports: fan(120, 121_000, 1), readVersion: null },
        { houseId: b, ports: fan(10, 3000, 2), readVersion: 3 },
      ]);
    });
    const read = await readRuntimes(database.query, [a, b], false);
    expect(read.get(a)).toEqual({ houseId: a, ports: fan(120, 121_000, 1), readVersion: 2 });
    expect(read.get(b)).toEqual({ houseId: b, ports: fan(10, 3000, 2), readVersion: 1 });
  });
});
