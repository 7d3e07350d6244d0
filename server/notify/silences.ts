import { eq, sql } from 'drizzle-orm';
import type { Alarm } from '../../src/contract/alarms';
import type { Silence } from '../../src/contract/notify';
import type { Db, Query } from '../db/client';
import { notifySilencedAlarms, notifySilences } from '../db/notifySchema';
import { farms, houses } from '../db/schema';

/**
 * While a silence covers an alarm, its notifications wait: they are looked at again at least
 * this often, so ending a silence early lets them go within a minute.
 */
export const SILENCE_RECHECK_MS = 60_000;

/**
 * The silence covering this alarm at `now` (the one ending last), or null. On the plain query
 * the alarm dispatcher and service hand it (server/alarms), until they hand it Drizzle.
 */
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

/**
 * Marks the alarm as kept quiet by the silence (once: the first silence that held it). On the
 * alarm dispatcher's plain query, like silenceCovering.
 */
export async function markSilenced(query: Query, alarmId: number, silenceId: number, now: Date) {
  await query(
    `insert into notify_silenced_alarms (alarm_id, silence_id, at) values ($1, $2, $3)
     on conflict (alarm_id) do nothing`,
    [alarmId, silenceId, now],
  );
}

/** Silences with their farm's and house's names and how many alarms each held. */
export function selectSilences(db: Db) {
  const s = notifySilences;
  const m = notifySilencedAlarms;
  return db
    .select({
      id: s.id,
      farmId: s.farmId,
      farmName: farms.name,
      houseId: s.houseId,
      houseName: houses.name,
      cause: s.cause,
      reason: s.reason,
      owner: s.ownerName,
      startsAt: s.startsAt,
      endsAt: s.endsAt,
      endedAt: s.endedAt,
      endedBy: s.endedBy,
      held: sql<number>`(select count(*)::int from ${m} where ${eq(m.silenceId, s.id)})`.mapWith(
        Number,
      ),
    })
    .from(s)
    .innerJoin(farms, eq(farms.id, s.farmId))
    .leftJoin(houses, eq(houses.id, s.houseId));
}

export type SilenceRow = Awaited<ReturnType<typeof selectSilences>>[number];

/** A stored silence as the API shows it; `state` is read against `now`. */
export function presentSilence(r: SilenceRow, now: Date): Silence {
  const state =
    r.endedAt !== null
      ? 'ended'
      : r.endsAt <= now
        ? 'expired'
        : r.startsAt > now
          ? 'planned'
          : 'active';
  return {
    id: r.id,
    farmId: r.farmId,
    farmName: r.farmName,
    houseId: r.houseId,
    houseName: r.houseName,
    cause: r.cause as Silence['cause'],
    reason: r.reason,
    owner: r.owner,
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt.toISOString(),
    endedAt: r.endedAt === null ? null : r.endedAt.toISOString(),
    endedBy: r.endedBy,
    state,
    heldAlarms: r.held,
  };
}
