import { binaryArray } from '../db/binaryArray';
import type { Database, Query } from '../db/client';
import type { Reading } from '../ingest/types';
import { parseJson } from '../db/jsonColumn';

/**
 * A gap between two readings longer than this is not counted as running time, whatever the
 * state: the gateway was silent and nobody knows whether the fan ran meanwhile. A quarter of an
 * hour is fifteen times the usual one-minute reading interval.
 */
export const MAX_COUNTED_GAP_MS = 15 * 60 * 1000;

/** States 1 (forward) and 2 (reverse) are "on"; 0 is off and 3 an error report. */
const isOn = (state: number) => state === 1 || state === 2;

/**
 * SQL for the seconds a terminal device has run: its house's `device_runtime` row (`row`),
 * looked up by its control port (`port`, an SQL expression); null when never counted.
 */
export const runSecondsSql = (row: string, port: string) =>
  `(${row}.devices -> ${port} ->> 'run')::float8`;

/** A port's count as stored: seconds run, the last counted reading's time (epoch ms), its state. */
interface PortRuntime {
  run: number;
  last: number;
  state: number;
}

/** A house's row: its ports' counts and the version it was read at (null: no row yet). */
interface HouseRuntime {
  houseId: number;
  ports: Record<string, PortRuntime>;
  readVersion: number | null;
}

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
  const [written] = await database.query<{ n: number }>(
    WRITE_IF_UNCHANGED,
    columnsOf(changed, true),
  );
  if (written?.n === changed.length) return;
  await database.transaction(async ({ query }) => {
    const locked = addRunTime(await readRuntimes(query, houseIds, true), points);
    if (locked.length > 0) await query(UPSERT, columnsOf(locked, false), { last: true });
  });
}

/**
 * Locks taken in one order by every process counting on one PostgreSQL, so that two counts of
 * overlapping houses wait for each other instead of deadlocking (which would cancel one batch's
 * count).
 */
const LOCK_IN_HOUSE_ORDER = ' order by house_id for update';

/** The houses' stored run times, by house (locked for update when `lock`). */
async function readRuntimes(
  query: Query,
  houseIds: number[],
  lock: boolean,
): Promise<Map<number, HouseRuntime>> {
  const rows = await query<{
    house_id: number;
    devices: Record<string, PortRuntime> | string;
    version: number;
  }>(
    `select house_id, devices, version::float8 as version
     from device_runtime where house_id = any($1::int[])${lock ? LOCK_IN_HOUSE_ORDER : ''}`,
    [binaryArray('int4', houseIds)],
  );
  const byHouse = new Map<number, HouseRuntime>();
  for (const r of rows)
    byHouse.set(r.house_id, {
      houseId: r.house_id,
      ports: parseJson(r.devices),
      readVersion: Number(r.version),
    });
  return byHouse;
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

/**
 * The statements' columns: house and its ports, and for the guarded write (`guarded`) the
 * version the row was read at.
 */
function columnsOf(list: HouseRuntime[], guarded: boolean): Buffer[] {
  const columns = [
    binaryArray(
      'int4',
      list.map((h) => h.houseId),
    ),
    binaryArray(
      'jsonb',
      list.map((h) => h.ports),
    ),
  ];
  if (guarded)
    columns.push(
      binaryArray(
        'float8',
        list.map((h) => h.readVersion),
      ),
    );
  return columns;
}

const UPSERT = `
  insert into device_runtime (house_id, devices)
  select * from unnest($1::int[], $2::jsonb[])
  on conflict (house_id) do update set devices = excluded.devices,
    version = device_runtime.version + 1`;

/**
 * The changed houses, each only where its row is still as read (its version, or no row):
 * answers how many were written. In house order, as the locked count takes its locks.
 */
const WRITE_IF_UNCHANGED = `
  with u as (
    select * from unnest($1::int[], $2::jsonb[], $3::float8[]) as u(house_id, devices, read_version)
    order by house_id
  ), updated as (
    update device_runtime r set devices = u.devices, version = r.version + 1
    from u where u.read_version is not null and r.house_id = u.house_id
      and r.version = u.read_version::bigint
    returning 1
  ), inserted as (
    insert into device_runtime (house_id, devices)
    select house_id, devices from u where read_version is null
    on conflict (house_id) do nothing
    returning 1
  )
  select ((select count(*) from updated) + (select count(*) from inserted))::int as n`;

function hasKeys(record: object): boolean {
  for (const _ in record) return true;
  return false;
}
