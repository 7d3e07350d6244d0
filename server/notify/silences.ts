import type { Alarm } from '../../src/contract/alarms';
import type { Silence } from '../../src/contract/notify';
import type { Query } from '../db/client';

/**
 * While a silence covers an alarm, its notifications wait: they are looked at again at least
 * this often, so ending a silence early lets them go within a minute.
 */
export const SILENCE_RECHECK_MS = 60_000;

/** The silence covering this alarm at `now` (the one ending last), or null. */
export async function silenceCovering(
  query: Query,
  alarm: Pick<Alarm, 'farmId' | 'houseId' | 'cause'>,
  now: Date,
): Promise<{ id: number; endsAt: Date } | null> {
  const [row] = await query<{ id: number; ends_at: Date | string }>(
    `select id, ends_at from notify_silences
     where farm_id = $1 and (house_id is null or house_id = $2) and (cause is null or cause = $3)
       and ended_at is null and starts_at <= $4 and ends_at > $4
     order by ends_at desc limit 1`,
    [alarm.farmId, alarm.houseId, alarm.cause, now],
  );
  return row ? { id: row.id, endsAt: new Date(row.ends_at) } : null;
}

/**
 * SQL for the alarm list's "Silenced" tag of alarm `a`: an open alarm is tagged while a
 * silence covers it now (`$now` is the parameter holding the time), so the tag comes and goes
 * with the silence; a cleared one keeps the mark of a silence that held its notifications.
 */
export function silencedSql(nowParam: string): string {
  return `case when a.state <> 'cleared' then exists (
      select 1 from notify_silences s
      where s.farm_id = a.farm_id and (s.house_id is null or s.house_id = a.house_id)
        and (s.cause is null or s.cause = a.cause)
        and s.ended_at is null and s.starts_at <= ${nowParam} and s.ends_at > ${nowParam})
    else exists (select 1 from notify_silenced_alarms m where m.alarm_id = a.id) end`;
}

/** Marks the alarm as kept quiet by the silence (once: the first silence that held it). */
export async function markSilenced(query: Query, alarmId: number, silenceId: number, now: Date) {
  await query(
    `insert into notify_silenced_alarms (alarm_id, silence_id, at) values ($1, $2, $3)
     on conflict (alarm_id) do nothing`,
    [alarmId, silenceId, now],
  );
}

interface SilenceRow {
  id: number;
  farm_id: number;
  farm_name: string;
  house_id: number | null;
  house_name: string | null;
  cause: string | null;
  reason: string;
  owner_name: string;
  starts_at: Date | string;
  ends_at: Date | string;
  ended_at: Date | string | null;
  ended_by: string | null;
  held: number;
}

export const SILENCE_SELECT = `select s.id, s.farm_id, f.name as farm_name, s.house_id, h.name as house_name, s.cause,
  s.reason, s.owner_name, s.starts_at, s.ends_at, s.ended_at, s.ended_by,
  (select count(*)::int from notify_silenced_alarms m where m.silence_id = s.id) as held
  from notify_silences s join farms f on f.id = s.farm_id left join houses h on h.id = s.house_id`;

/** A stored silence as the API shows it; `state` is read against `now`. */
export function presentSilence(r: SilenceRow, now: Date): Silence {
  const iso = (v: Date | string) => new Date(v).toISOString();
  const endsAt = new Date(r.ends_at);
  const state =
    r.ended_at !== null
      ? 'ended'
      : endsAt <= now
        ? 'expired'
        : new Date(r.starts_at) > now
          ? 'planned'
          : 'active';
  return {
    id: r.id,
    farmId: r.farm_id,
    farmName: r.farm_name,
    houseId: r.house_id,
    houseName: r.house_name,
    cause: r.cause as Silence['cause'],
    reason: r.reason,
    owner: r.owner_name,
    startsAt: iso(r.starts_at),
    endsAt: endsAt.toISOString(),
    endedAt: r.ended_at === null ? null : iso(r.ended_at),
    endedBy: r.ended_by,
    state,
    heldAlarms: Number(r.held),
  };
}
export type { SilenceRow };
