import { binaryArray } from '../db/binaryArray';
import type { CopyType, CopyValue } from '../db/binaryCopy';
import type { Database } from '../db/client';
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
}

/**
 * Adds what some stored readings say about running time: from one reading of a device to the
 * next, the time counts when the earlier one said "on". A reading older than the last one
 * counted for its device (a gateway's late backlog) is left out rather than re-sorting history.
 */
export async function countRunTime(
  database: Database,
  readings: readonly Reading[],
): Promise<void> {
  const points = readings.filter((r) => Object.keys(r.devices).length > 0);
  if (points.length === 0) return;
  points.sort((a, b) => a.ts.getTime() - b.ts.getTime());
  const houseIds = [...new Set(points.map((r) => r.houseId))];
  await database.transaction(async (query) => {
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
       from device_runtime where house_id = any($1::int[]) for update`,
      [binaryArray('int4', houseIds)],
    );
    const byKey = new Map<string, Runtime>();
    for (const r of rows)
      byKey.set(`${r.house_id}:${r.device_key}`, {
        houseId: r.house_id,
        deviceKey: r.device_key,
        runSeconds: Number(r.run_seconds),
        lastTs: Number(r.last_ms),
        lastState: r.last_state,
      });
    const changed = new Set<Runtime>();
    for (const reading of points) {
      const ts = reading.ts.getTime();
      for (const [deviceKey, { state }] of Object.entries(reading.devices)) {
        const key = `${reading.houseId}:${deviceKey}`;
        const known = byKey.get(key);
        if (!known) {
          const fresh = {
            houseId: reading.houseId,
            deviceKey,
            runSeconds: 0,
            lastTs: ts,
            lastState: state,
          };
          byKey.set(key, fresh);
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
    const list = [...changed];
    if (list.length === 0) return;
    const column = (type: CopyType, pick: (r: Runtime) => CopyValue) =>
      binaryArray(type, list.map(pick));
    await query(
      `insert into device_runtime (house_id, device_key, run_seconds, last_ts, last_state)
       select * from unnest($1::int[], $2::text[], $3::float8[], $4::timestamptz[], $5::smallint[])
       on conflict (house_id, device_key) do update set run_seconds = excluded.run_seconds,
         last_ts = excluded.last_ts, last_state = excluded.last_state`,
      [
        column('int4', (r) => r.houseId),
        column('text', (r) => r.deviceKey),
        column('float8', (r) => r.runSeconds),
        column('timestamptz', (r) => r.lastTs),
        column('int2', (r) => r.lastState),
      ],
    );
  });
}
