import type { Query } from '../db/client';
import type { HouseLiveState } from '../houses/state';
import { STATE_COLUMNS, stateFromRow, type StateRow } from '../houses/state';

const SEVERITY_RANK = `case a.severity when 'critical' then 0 when 'major' then 1 else 2 end`;

/**
 * Writes a house's open-alarm count and its most important alarm into house_state (the live
 * presenter sends them as `live.alarm`) and answers the new state to announce.
 *
 * Hand-written: it runs in the transaction of every alarm change the engine makes (the ingest
 * path), one round trip that counts, picks the top alarm as JSON and upserts; and it answers
 * the row shape houses/state.ts reads (STATE_COLUMNS, stateFromRow), which is plain SQL still.
 */
export async function refreshHouseSummary(
  query: Query,
  houseId: number,
  farmId: number,
): Promise<HouseLiveState | null> {
  const rows = await query<StateRow>(
    `with open as (
       select a.* from alarms a where a.house_id = $1 and a.state <> 'cleared'
     ), top as (
       select jsonb_build_object('cause', a.cause, 'severity', a.severity, 'subject', nullif(a.subject, ''),
         'value', a.value, 'limit', a.limit_value, 'text', a.text,
         'acknowledged', a.state = 'acknowledged') as summary
       from open a order by ${SEVERITY_RANK}, (a.state = 'active') desc, a.raised_at desc limit 1
     )
     insert into house_state as hs (house_id, alarm_count, alarm_top, updated_at)
     values ($1, (select count(*) from open), (select summary from top), now())
     on conflict (house_id) do update set alarm_count = excluded.alarm_count, alarm_top = excluded.alarm_top, updated_at = now()
     returning ${STATE_COLUMNS}`,
    [houseId],
  );
  const row = rows[0];
  return row ? stateFromRow(row, farmId) : null;
}
