import { binaryArray } from '../db/binaryArray';
import type { CopyType, CopyValue } from '../db/binaryCopy';
import type { Database, Query } from '../db/client';
import type { Reading } from '../ingest/types';

/**
 * A gap between two readings longer than this is not counted as running time, whatever the
 * state: the gateway was silent and nobody knows whether the fan ran meanwhile. A quarter of an
 * hour is fifteen times the usual one-minute reading interval.
 */
export const MAX_COUNTED_GAP_MS = 15 * 60 * 1000;

/** States 1 (forward) and 2 (reverse) are "on"; 0 is off and 3 an error report. */
const isOn = (state: number) => state === 1 || state === 2;

interface Runtime {
  houseId: number;
  deviceKey: string;
  runSeconds: number;
  lastTs: number;
  lastState: number;
  /** The stored row's last_ts when it was read (epoch ms); null when there was no row. */
  readTs: number | null;
}

/**
 * Adds what some stored readings say about running time: from one reading of a device to the
 * next, the time counts when the earlier one said "on". A reading older than the last one
 * counted for its device (a gateway's late backlog) is left out rather than re-sorting history.
 *
 * The rows are read without a lock and written back in one statement that changes a row only
 * if it is still as it was read. On the embedded database a transaction holding its lock while
 * this thread worked out the times (and waited for its turn) kept the next batch's write
 * waiting. Should another process have counted meanwhile (several processes on one
 * PostgreSQL), the batch is counted again under locks: readings already counted are older than
 * the device's last one and are left out, so nothing counts twice.
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
  await database.transaction(async (query) => {
    const locked = addRunTime(await readRuntimes(query, houseIds, true), points);
    if (locked.length > 0) await query(UPSERT, columnsOf(locked, false), { last: true });
  });
}

/** The houses' stored run times, by house, then device (locked for update when `lock`). */
async function readRuntimes(
  query: Query,
  houseIds: number[],
  lock: boolean,
): Promise<Map<number, Map<string, Runtime>>> {
  // The time as epoch milliseconds, not a date to parse: at 20,000 houses this runs for
  // eleven devices a reading.
  const rows = await query<{
    house_id: number;
    device_key: string;
    run_seconds: number;
    last_ms: number;
    last_state: number;
  }>(
    `select house_id, device_key, run_seconds,
       (extract(epoch from last_ts) * 1000)::float8 as last_ms, last_state
     from device_runtime where house_id = any($1::int[])${lock ? ' for update' : ''}`,
    [binaryArray('int4', houseIds)],
  );
  const byHouse = new Map<number, Map<string, Runtime>>();
  for (const r of rows) {
    const lastTs = Number(r.last_ms);
    devicesOf(byHouse, r.house_id).set(r.device_key, {
      houseId: r.house_id,
      deviceKey: r.device_key,
      runSeconds: Number(r.run_seconds),
      lastTs,
      lastState: r.last_state,
      readTs: lastTs,
    });
  }
  return byHouse;
}

function devicesOf(byHouse: Map<number, Map<string, Runtime>>, houseId: number) {
  let devices = byHouse.get(houseId);
  if (!devices) byHouse.set(houseId, (devices = new Map()));
  return devices;
}

/**
 * Adds the points (oldest first) to the stored run times; answers the changed ones. By house,
 * then device: no key string built per device of every reading (22,000 a batch).
 */
function addRunTime(byHouse: Map<number, Map<string, Runtime>>, points: Reading[]): Runtime[] {
  const changed = new Set<Runtime>();
  for (const reading of points) {
    const ts = reading.ts.getTime();
    const devices = devicesOf(byHouse, reading.houseId);
    for (const deviceKey in reading.devices) {
      const state = reading.devices[deviceKey]!.state;
      const known = devices.get(deviceKey);
      if (!known) {
        const fresh: Runtime = {
          houseId: reading.houseId,
          deviceKey,
          runSeconds: 0,
          lastTs: ts,
          lastState: state,
          readTs: null,
        };
        devices.set(deviceKey, fresh);
        changed.add(fresh);
        continue;
      }
      if (ts <= known.lastTs) continue;
      const gap = ts - known.lastTs;
      if (isOn(known.lastState) && gap <= MAX_COUNTED_GAP_MS) known.runSeconds += gap / 1000;
      known.lastTs = ts;
      known.lastState = state;
      changed.add(known);
    }
  }
  return [...changed];
}

/**
 * The statements' columns: house, device, run seconds, last time, last state, and for the
 * guarded write (`guarded`) the last time as it was read.
 */
function columnsOf(list: Runtime[], guarded: boolean): Buffer[] {
  const column = (type: CopyType, pick: (r: Runtime) => CopyValue) =>
    binaryArray(type, list.map(pick));
  const columns = [
    column('int4', (r) => r.houseId),
    column('text', (r) => r.deviceKey),
    column('float8', (r) => r.runSeconds),
    column('timestamptz', (r) => r.lastTs),
    column('int2', (r) => r.lastState),
  ];
  if (guarded) columns.push(column('timestamptz', (r) => r.readTs));
  return columns;
}

const UPSERT = `
  insert into device_runtime (house_id, device_key, run_seconds, last_ts, last_state)
  select * from unnest($1::int[], $2::text[], $3::float8[], $4::timestamptz[], $5::smallint[])
  on conflict (house_id, device_key) do update set run_seconds = excluded.run_seconds,
    last_ts = excluded.last_ts, last_state = excluded.last_state`;

/**
 * The changed run times, each only where its row is still as read (its last_ts, or no row):
 * answers how many were written.
 */
const WRITE_IF_UNCHANGED = `
  with u as (
    select * from unnest($1::int[], $2::text[], $3::float8[], $4::timestamptz[], $5::smallint[],
      $6::timestamptz[]) as u(house_id, device_key, run_seconds, last_ts, last_state, read_ts)
    order by house_id, device_key
  ), updated as (
    update device_runtime r set run_seconds = u.run_seconds, last_ts = u.last_ts,
      last_state = u.last_state
    from u where u.read_ts is not null and r.house_id = u.house_id
      and r.device_key = u.device_key and r.last_ts = u.read_ts
    returning 1
  ), inserted as (
    insert into device_runtime (house_id, device_key, run_seconds, last_ts, last_state)
    select house_id, device_key, run_seconds, last_ts, last_state from u where read_ts is null
    on conflict (house_id, device_key) do nothing
    returning 1
  )
  select ((select count(*) from updated) + (select count(*) from inserted))::int as n`;

function hasKeys(record: object): boolean {
  for (const _ in record) return true;
  return false;
}
