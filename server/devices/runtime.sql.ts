import { binaryArray } from '../db/binaryArray';
import type { Query, QueryOptions } from '../db/client';
import { parseJson } from '../db/jsonColumn';

// The run-time count's statements (runtime.ts): written on every ingested batch that carries
// controller states, for every house of it at once (unnest of binary arrays, a guarded write in
// one round trip), which the query builder cannot say; bench/scale.ts measures them.

/** A port's count as stored: seconds run, the last counted reading's time (epoch ms), its state. */
export interface PortRuntime {
  run: number;
  last: number;
  state: number;
}

/** A house's row: its ports' counts and the version it was read at (null: no row yet). */
export interface HouseRuntime {
  houseId: number;
  ports: Record<string, PortRuntime>;
  readVersion: number | null;
}

/**
 * Locks taken in one order by every process counting on one PostgreSQL, so that two counts of
 * overlapping houses wait for each other instead of deadlocking (which would cancel one batch's
 * count).
 */
const LOCK_IN_HOUSE_ORDER = ' order by house_id for update';

/**
 * The houses' stored run times, by house (locked for update when `lock`). Hand-written: the
 * house ids go as one binary array, and the lock order must be the write's.
 */
export async function readRuntimes(
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
 * Writes the houses' counts whatever their rows hold (under the locks of a `readRuntimes` with
 * `lock`): every house in one statement.
 */
export async function upsertRuntimes(
  query: Query,
  list: HouseRuntime[],
  options: QueryOptions = {},
): Promise<void> {
  await query(UPSERT, columnsOf(list, false), options);
}

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

/**
 * Writes each house's count only where its row is still as it was read, without a lock (see
 * countRunTime): answers how many houses were written.
 */
export async function writeRuntimesIfUnchanged(
  query: Query,
  list: HouseRuntime[],
): Promise<number> {
  const [written] = await query<{ n: number }>(WRITE_IF_UNCHANGED, columnsOf(list, true));
  return written?.n ?? 0;
}
