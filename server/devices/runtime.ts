import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import { deviceRuntime } from '../db/devicesSchema';
import type { Reading } from '../ingest/types';
import {
  readRuntimes,
  upsertRuntimes,
  writeRuntimesIfUnchanged,
  type HouseRuntime,
} from './runtime.sql';

/**
 * A gap between two readings longer than this is not counted as running time, whatever the
 * state: the gateway was silent and nobody knows whether the fan ran meanwhile. A quarter of an
 * hour is fifteen times the usual one-minute reading interval.
 */
export const MAX_COUNTED_GAP_MS = 15 * 60 * 1000;

/** States 1 (forward) and 2 (reverse) are "on"; 0 is off and 3 an error report. */
const isOn = (state: number) => state === 1 || state === 2;

/**
 * The seconds a terminal device has run, for a select joined with its house's `device_runtime`
 * row: looked up by its control port (`port`); null when never counted.
 */
export const runSecondsSql = (port: AnyPgColumn | SQL) =>
  sql<number | null>`(${deviceRuntime.devices} -> ${port} ->> 'run')::float8`.mapWith(Number);

/**
 * Adds what some stored readings say about running time: from one reading of a device to the
 * next, the time counts when the earlier one said "on". A reading older than the last one
 * counted for its device (a gateway's late backlog) is left out rather than re-sorting history.
 *
 * The rows are read without a lock and written back in one statement that changes a row only
 * if it is still as it was read (its version). On the embedded database a transaction holding
 * its lock while this thread worked out the times (and waited for its turn) kept the next
 * batch's write waiting. Should another process have counted meanwhile (several processes on
 * one PostgreSQL), the batch is counted again under locks: readings already counted are older
 * than the device's last one and are left out, so nothing counts twice.
 */
export async function countRunTime(
  database: Database,
  readings: readonly Reading[],
): Promise<void> {
  const points = readings.filter((r) => hasKeys(r.devices));
  if (points.length === 0) return;
  points.sort((a, b) => a.ts.getTime() - b.ts.getTime());
  const houseIds = [...new Set(points.map((r) => r.houseId))];
  const changed = addRunTime(await readRuntimes(database.query, houseIds, false), points);
  if (changed.length === 0) return;
  if ((await writeRuntimesIfUnchanged(database.query, changed)) === changed.length) return;
  await database.transaction(async ({ query }) => {
    const locked = addRunTime(await readRuntimes(query, houseIds, true), points);
    if (locked.length > 0) await upsertRuntimes(query, locked, { last: true });
  });
}

/** Adds the points (oldest first) to the stored run times; answers the houses that changed. */
function addRunTime(byHouse: Map<number, HouseRuntime>, points: Reading[]): HouseRuntime[] {
  const changed = new Set<HouseRuntime>();
  for (const reading of points) {
    const ts = reading.ts.getTime();
    let house = byHouse.get(reading.houseId);
    if (!house) {
      house = { houseId: reading.houseId, ports: {}, readVersion: null };
      byHouse.set(reading.houseId, house);
    }
    for (const deviceKey in reading.devices) {
      const state = reading.devices[deviceKey]!.state;
      const known = house.ports[deviceKey];
      if (!known) {
        house.ports[deviceKey] = { run: 0, last: ts, state };
        changed.add(house);
        continue;
      }
      if (ts <= known.last) continue;
      const gap = ts - known.last;
      if (isOn(known.state) && gap <= MAX_COUNTED_GAP_MS) known.run += gap / 1000;
      known.last = ts;
      known.state = state;
      changed.add(house);
    }
  }
  return [...changed];
}

function hasKeys(record: object): boolean {
  for (const _ in record) return true;
  return false;
}
