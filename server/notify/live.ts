import { and, gt, inArray, isNull, lte, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import { canSeeHouse, type Scope } from '../auth/scope';
import type { Database } from '../db/client';
import { notifySilences } from '../db/notifySchema';
import { houses } from '../db/schema';
import type { ServerEvents, SilencePlace } from '../events';

/**
 * How often each process looks for silences that reached their end or their planned start:
 * the "Silenced" tag follows within this, as the dispatcher's round sends what they held.
 */
export const SILENCE_WATCH_MS = 5_000;

/**
 * Tells open consoles when a silence begins or ends, as `silence:changed` with the houses it
 * covers that each socket may see (a farm-wide one: the farm's houses in the socket's scope;
 * sockets that see none of them hear nothing). Made and ended-early silences come as
 * `silencesChanged` from the route and reach other processes through the Redis adapter; ends
 * and planned starts are found by each process's own look every SILENCE_WATCH_MS, so each
 * tells only its own sockets. Answers a function that stops the look.
 */
export function listenSilenceEvents(
  // The hub's server, typed loosely: this module adds events without reshaping the hub's types.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  io: Server<any, any, any, { scope: Scope }>,
  events: ServerEvents,
  database: Database,
  /** True when other processes share the hub (Redis adapter). */
  shared: () => boolean,
  log: FastifyBaseLogger,
): () => void {
  const deliver = (houseIds: readonly number[]) => {
    for (const socket of io.of('/').sockets.values()) {
      const scope = socket.data.scope;
      if (!scope) continue;
      const mine = houseIds.filter((id) => canSeeHouse(scope, id));
      if (mine.length > 0) socket.emit('silence:changed', { houseIds: mine });
    }
  };
  const housesOf = async (places: readonly SilencePlace[]): Promise<number[]> => {
    const houseIds = places.flatMap((p) => (p.houseId === null ? [] : [p.houseId]));
    const farmIds = places.flatMap((p) => (p.houseId === null ? [p.farmId] : []));
    if (farmIds.length > 0) {
      const rows = await database.db
        .select({ id: houses.id })
        .from(houses)
        .where(inArray(houses.farmId, farmIds));
      houseIds.push(...rows.map((r) => r.id));
    }
    return [...new Set(houseIds)];
  };

  io.on('silence:changed', deliver);
  events.on('silencesChanged', async (places) => {
    const houseIds = await housesOf(places);
    if (houseIds.length === 0) return;
    deliver(houseIds);
    if (shared()) io.serverSideEmit('silence:changed', houseIds);
  });

  let since = new Date();
  let looking = false;
  const look = async () => {
    if (looking) return;
    looking = true;
    const now = new Date();
    try {
      const s = notifySilences;
      const places = await database.db
        .select({ farmId: s.farmId, houseId: s.houseId })
        .from(s)
        .where(
          and(
            isNull(s.endedAt),
            or(
              and(gt(s.endsAt, since), lte(s.endsAt, now)),
              and(gt(s.startsAt, since), lte(s.startsAt, now)),
            ),
          ),
        );
      since = now;
      const houseIds = await housesOf(places);
      if (houseIds.length > 0) deliver(houseIds);
    } catch (error) {
      log.warn({ err: error }, 'silence watch failed');
    } finally {
      looking = false;
    }
  };
  const timer = setInterval(() => void look(), SILENCE_WATCH_MS);
  timer.unref();
  return () => clearInterval(timer);
}
