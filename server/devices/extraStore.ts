import type { Query } from '../db/client';
import type { Reading } from '../ingest/types';

/**
 * Extra parameters' readings, one narrow row each, and what they add to their hour, in one
 * statement. Called by the writer inside the batch's transaction only when a reading carried
 * extra parameters, so a catalogue-only batch costs nothing more. A resent reading is stored
 * once: only rows that were new are added to the hour.
 */
const INSERT_EXTRA = `
with rows as (
  select * from unnest($1::int[], $2::text[], $3::timestamptz[], $4::real[]) as u(house_id, code, ts, value)
), inserted as (
  insert into telemetry_extra (house_id, code, ts, value) select * from rows
  on conflict do nothing returning house_id, code, ts, value
)
insert into telemetry_extra_hourly as h (house_id, code, bucket, min, max, sum, n)
select house_id, code, date_trunc('hour', ts), min(value), max(value), sum(value), count(*)
from inserted group by 1, 2, 3
on conflict (house_id, code, bucket) do update set min = least(h.min, excluded.min),
  max = greatest(h.max, excluded.max), sum = h.sum + excluded.sum, n = h.n + excluded.n`;

export async function writeExtras(query: Query, readings: readonly Reading[]): Promise<void> {
  const houses: number[] = [];
  const codes: string[] = [];
  const times: string[] = [];
  const values: number[] = [];
  for (const r of readings) {
    if (!r.extraKeys) continue;
    for (const code of r.extraKeys) {
      const value = r.metrics[code];
      if (value === undefined) continue;
      houses.push(r.houseId);
      codes.push(code);
      times.push(r.ts.toISOString());
      values.push(value);
    }
  }
  if (houses.length > 0) await query(INSERT_EXTRA, [houses, codes, times, values]);
}
