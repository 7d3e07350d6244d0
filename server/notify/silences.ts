import { and, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Alarm } from '../../src/contract/alarms';
import type { Silence } from '../../src/contract/notify';
import type { Db } from '../db/client';
import { notifySilencedAlarms, notifySilences } from '../db/notifySchema';
import { farms, houses } from '../db/schema';

/**
 * While a silence covers an alarm, its notifications wait: they are looked at again at least
 * this often, so ending a silence early lets them go within a minute.
 */
export const SILENCE_RECHECK_MS = 60_000;

/** The silence covering this alarm at `now` (the one ending last), or null. */
export async function silenceCovering(
  db: Db,
  alarm: Pick<Alarm, 'farmId' | 'houseId' | 'cause'>,
  now: Date,
): Promise<{ id: number; endsAt: Date } | null> {
  const s = notifySilences;
  const [row] = await db
    .select({ id: s.id, endsAt: s.endsAt })
    .from(s)
    .where(
      and(
        eq(s.farmId, alarm.farmId),
        or(isNull(s.houseId), eq(s.houseId, alarm.houseId)),
        or(isNull(s.cause), eq(s.cause, alarm.cause)),
        isNull(s.endedAt),
        lte(s.startsAt, now),
        gt(s.endsAt, now),
      ),
    )
    .orderBy(desc(s.endsAt))
    .limit(1);
  return row ?? null;
}

/** Marks the alarm as kept quiet by the silence (once: the first silence that held it). */
export async function markSilenced(db: Db, alarmId: number, silenceId: number, now: Date) {
  await db
    .insert(notifySilencedAlarms)
    .values({ alarmId, silenceId, at: now })
    .onConflictDoNothing({ target: notifySilencedAlarms.alarmId });
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
