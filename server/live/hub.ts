import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import { count, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { createClient } from 'redis';
import { Server, type Socket } from 'socket.io';
import {
  LIVE_FLUSH_INTERVAL_MS,
  type AlarmEvent,
  type ClientToServerEvents,
  type HouseDelta,
  type HouseLive,
  liveDetailSchema,
  type ServerToClientEvents,
  type SubscribeAck,
} from '../../src/contract/live';
import { canSeeHouse, scopeOf, type Scope } from '../auth/scope';
import { findSession, findSessionByHash } from '../auth/sessions';
import { alarms } from '../db/alarmSchema';
import type { Database } from '../db/client';
import type { ServerEventMap, ServerEvents } from '../events';
import type { HouseLiveState } from '../houses/state';
import type { Reading } from '../ingest/types';
import { isSameSite } from '../http/origin';
import { listenCommandEvents } from '../envcontrol/live';
import { listenSilenceEvents } from '../notify/live';
import { findKiosk, isKioskToken } from '../wall/kiosk';
import { diffLive, presentLive, presentReading, withNewerReading } from './presenter';
import { shareFor, latestStates, SocketHouses, type Flush } from './delivery';
import { linkBacklog } from './engineAdapter';
import { hearOnlyKioskEvents, kioskHears } from './kioskEvents';
import { StatusOnlyView } from './statusOnly';

interface InterServerEvents {
  'live:states': (states: HouseLive[]) => void;
  'alarm:changed': (kind: AlarmEventKind, alarm: AlarmEvent) => void;
  'scope:changed': (change: ScopeChange) => void;
}

type ScopeChange = ServerEventMap['scopesChanged'];

type AlarmEventKind = 'raised' | 'acknowledged' | 'cleared';

/** Alarm counts are recounted at most this often: one query however many alarms change at once. */
const ALARM_RECOUNT_DELAY_MS = 100;

export interface SocketData {
  userId: number;
  tokenHash: string;
  scope: Scope;
  /** A wall's kiosk link: it hears KIOSK_EVENTS only. */
  kiosk: boolean;
  /** What it asked to hear of houses' changes, and the houses it has yet to hear of. */
  houses: SocketHouses;
}

type LiveServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type LiveSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/**
 * Whether a socket's link still holds what was sent before (a slow link, a browser stalled for
 * seconds): the kernel's buffer full and bytes waiting in the WebSocket, or packets waiting in
 * engine.io for the transport (a long-poll not yet asked again). A link that keeps up has taken
 * everything by the next flush, 250 ms later.
 */
function linkBusy(socket: LiveSocket): boolean {
  const backlog = linkBacklog(socket);
  return backlog !== null && (backlog.bufferedBytes > 0 || backlog.queuedPackets > 0);
}

export interface LiveHubOptions {
  redisUrl: string | null;
  log: FastifyBaseLogger;
}

/**
 * The live hub: Socket.IO on the HTTP port. A socket's rooms and the houses it may hear about
 * come from its session's scope, never from what the client asks. House changes are coalesced
 * and sent to each socket at most 4 times a second, only the changed fields; the monitor page's
 * subscription to one house gets every reading as it is stored.
 */
export class LiveHub {
  private readonly pending = new Map<number, HouseLive>();
  private readonly lastSent = new Map<number, HouseLive>();
  private readonly timer: NodeJS.Timeout;
  private closeRedis: (() => Promise<void>) | null = null;
  private recountTimer: NodeJS.Timeout | null = null;
  private readonly countSent = new WeakMap<LiveSocket, number>();
  private stopSilences: (() => void) | null = null;

  private constructor(
    readonly io: LiveServer,
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timer = setInterval(() => this.flush(), LIVE_FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  static async attach(
    server: HttpServer,
    database: Database,
    options: LiveHubOptions,
  ): Promise<LiveHub> {
    const io: LiveServer = new Server(server, {
      serveClient: false,
      // The handshake must come from this site when a browser makes it (no cross-site socket).
      allowRequest: (req, callback) => {
        const sameSite = isSameSite(req.headers.origin, req.headers.host);
        callback(sameSite ? null : 'cross-site handshake refused', sameSite);
      },
    });
    const hub = new LiveHub(io, database, options.log);
    if (options.redisUrl) {
      const pub = createClient({ url: options.redisUrl });
      const sub = pub.duplicate();
      pub.on('error', (error: Error) =>
        options.log.warn({ err: error }, 'redis (live updates) error'),
      );
      sub.on('error', (error: Error) =>
        options.log.warn({ err: error }, 'redis (live updates) error'),
      );
      await Promise.all([pub.connect(), sub.connect()]);
      io.adapter(createAdapter(pub, sub));
      hub.closeRedis = async () => {
        await Promise.allSettled([pub.quit(), sub.quit()]);
      };
    }
    io.use((socket, next) => {
      hub.authenticate(socket).then(
        () => next(),
        (error: Error) => next(error),
      );
    });
    io.on('connection', (socket) => hub.onConnection(socket));
    io.on('live:states', (states) => hub.enqueue(states));
    io.on('connection', (socket) => void hub.sendAlarmCount(socket));
    io.on('alarm:changed', (kind, alarm) => hub.deliverAlarm(kind, alarm));
    io.on('scope:changed', (change) => void hub.rescopeLocal(change));
    return hub;
  }

  /** Subscribes the hub to what browsers are shown: readings, house states, alarms, sessions. */
  listen(events: ServerEvents): void {
    events.on('readingAccepted', (reading) => this.sendReading(reading));
    events.on('batchStored', (batch) => this.publishStates(batch.states));
    events.on('gatewayStatus', (states) => this.publishStates(states));
    events.on('houseSummary', (states) => this.publishStates(states));
    events.on('alarmsChanged', (changes) => {
      for (const change of changes) this.alarmChanged(change);
    });
    events.on('sessionEnded', (tokenHash) => this.sessionEnded(tokenHash));
    events.on('otherSessionsEnded', ({ userId, keepTokenHash }) =>
      this.otherSessionsEnded(userId, keepTokenHash),
    );
    listenCommandEvents(this.io, events, () => this.closeRedis !== null);
    this.stopSilences = listenSilenceEvents(
      this.io,
      events,
      this.database,
      () => this.closeRedis !== null,
      this.log,
    );
    events.on('scopesChanged', (change) => this.scopesChanged(change));
  }

  /**
   * What users may see changed (a role, their houses, farms or organisation, a house moved to
   * another farm): every socket is re-scoped from the database now, here and on every other
   * process, as REST is on its next request. The change's sender waits for this process's
   * sockets, so its answer comes after they stopped hearing what they may no longer see.
   */
  private async scopesChanged(change: ScopeChange): Promise<void> {
    if (this.closeRedis) this.io.serverSideEmit('scope:changed', change);
    await this.rescopeLocal(change);
  }

  async rescopeLocal(change: ScopeChange): Promise<void> {
    const bySession = new Map<string, LiveSocket[]>();
    for (const socket of this.io.of('/').sockets.values()) {
      // Kiosk links have their own scope and are revoked by their own route.
      if (socket.data.kiosk) continue;
      if (change && !change.userIds.includes(socket.data.userId)) continue;
      const list = bySession.get(socket.data.tokenHash) ?? [];
      list.push(socket);
      bySession.set(socket.data.tokenHash, list);
    }
    for (const [tokenHash, sockets] of bySession) {
      const session = await findSessionByHash(this.database.db, tokenHash);
      const scope = session ? await scopeOf(this.database.db, session.user) : null;
      for (const socket of sockets) {
        if (!scope) {
          socket.disconnect(true);
          continue;
        }
        socket.data.scope = scope;
        for (const room of socket.rooms)
          if (room.startsWith('monitor:') && !canSeeHouse(scope, Number(room.slice(8))))
            void socket.leave(room);
      }
    }
    if (bySession.size > 0) await this.recountAlarms().catch(() => undefined);
  }

  /**
   * The monitor's full-rate stream gets a reading as soon as it is valid: waiting for its batch
   * to commit cost ~100 ms at 1,000 readings/s. The house's state, its deltas and its alarms
   * still follow the commit.
   */
  private sendReading(reading: Reading): void {
    const room = `monitor:${reading.houseId}`;
    // Socket.IO encodes a packet before it looks at the room: skip rooms nobody is in here.
    // With Redis, a monitor may be open on another process, so every reading goes out.
    if (this.closeRedis || this.io.of('/').adapter.rooms.has(room))
      this.io.to(room).emit('house:reading', presentReading(reading));
  }

  /** Ends the live connections of one session (logout) within the next moment, on every process. */
  private sessionEnded(tokenHash: string): void {
    this.io.in(`session:${tokenHash}`).disconnectSockets(true);
  }

  /** Ends a user's other sessions' sockets (password change). */
  private otherSessionsEnded(userId: number, keepTokenHash: string): void {
    this.io.in(`user:${userId}`).except(`session:${keepTokenHash}`).disconnectSockets(true);
  }

  /** Sends what is pending now; the timer calls it 4 times a second. */
  flush(): void {
    const deltas: HouseDelta[] = [];
    for (const [houseId, live] of this.pending) {
      const delta = diffLive(this.lastSent.get(houseId), live);
      this.lastSent.set(houseId, live);
      if (delta) deltas.push(delta);
    }
    this.pending.clear();
    const flush: Flush = { deltas, lastSent: this.lastSent };
    const at = Date.now();
    for (const socket of this.io.of('/').sockets.values()) {
      const houses = socket.data.houses;
      // Nothing changed, and nothing is owed to this socket from a busy moment.
      if (deltas.length === 0 && houses.lagging.size === 0) continue;
      const mine = shareFor(houses, socket.data.scope, linkBusy(socket), flush);
      // A house is in one of the two, never both: their order does not matter.
      if (mine.deltas.length > 0) socket.emit('house:updated', { deltas: mine.deltas, at });
      if (mine.packed && mine.packed.houses.length > 0)
        socket.emit('house:status', mine.packed.batch(at));
    }
  }

  /**
   * A socket asks for every field of houses' changes, or their status only (and every field of
   * the houses it follows, within its scope). What it missed of the houses it now hears in full
   * is sent first, as their latest full state, so its copy is whole again before the answer.
   */
  private setDetail(socket: LiveSocket, raw: unknown, reply: (result: SubscribeAck) => void): void {
    const parsed = liveDetailSchema.safeParse(raw);
    if (!parsed.success) {
      reply({ ok: false, error: 'invalid' });
      return;
    }
    const detail = parsed.data;
    const scope = socket.data.scope;
    let catchUp: number[];
    if (detail.detail === 'all') {
      catchUp = [...(socket.data.houses.statusOnly?.behind ?? [])];
      socket.data.houses.statusOnly = null;
    } else {
      const view = (socket.data.houses.statusOnly ??= new StatusOnlyView());
      catchUp = view.refollow(detail.follow.filter((houseId) => canSeeHouse(scope, houseId)));
    }
    const states = latestStates(catchUp, scope, this.lastSent);
    if (states.length > 0) socket.emit('house:updated', { deltas: states, at: Date.now() });
    reply({ ok: true });
  }

  /** An alarm changed in this process: tell the sockets that may see its house, on every process. */
  private alarmChanged(change: { kind: AlarmEventKind; alarm: AlarmEvent }): void {
    this.deliverAlarm(change.kind, change.alarm);
    if (this.closeRedis) this.io.serverSideEmit('alarm:changed', change.kind, change.alarm);
  }

  /** Sends an alarm event to the local sockets whose scope holds its house; counts follow. */
  deliverAlarm(kind: AlarmEventKind, alarm: AlarmEvent): void {
    for (const socket of this.io.of('/').sockets.values())
      if (canSeeHouse(socket.data.scope, alarm.houseId)) socket.emit(`alarm:${kind}`, alarm);
    this.recountTimer ??= setTimeout(() => {
      this.recountTimer = null;
      this.recountAlarms().catch((error: unknown) =>
        this.log.warn({ err: error }, 'alarm recount failed'),
      );
    }, ALARM_RECOUNT_DELAY_MS);
  }

  /** Each socket's open-alarm count in its scope, sent when it changed. */
  async recountAlarms(): Promise<void> {
    const perHouse = await this.openAlarmsPerHouse();
    for (const socket of this.io.of('/').sockets.values()) this.emitCount(socket, perHouse);
  }

  private async sendAlarmCount(socket: LiveSocket): Promise<void> {
    try {
      this.emitCount(socket, await this.openAlarmsPerHouse());
    } catch (error) {
      this.log.warn({ err: error }, 'alarm count failed');
    }
  }

  private emitCount(socket: LiveSocket, perHouse: ReadonlyMap<number, number>): void {
    const scope = socket.data.scope;
    let count = 0;
    for (const [houseId, n] of perHouse) if (canSeeHouse(scope, houseId)) count += n;
    if (this.countSent.get(socket) === count) return;
    this.countSent.set(socket, count);
    socket.emit('alarm:count', count);
  }

  private async openAlarmsPerHouse(): Promise<Map<number, number>> {
    const rows = await this.database.db
      .select({ houseId: alarms.houseId, n: count() })
      .from(alarms)
      .where(sql`${alarms.state} <> 'cleared'`)
      .groupBy(alarms.houseId);
    return new Map(rows.map((r) => [r.houseId, r.n]));
  }

  async close(): Promise<void> {
    if (this.recountTimer) clearTimeout(this.recountTimer);
    clearInterval(this.timer);
    this.stopSilences?.();
    this.io.disconnectSockets(true);
    // Not io.close(): that would close the HTTP server Fastify owns and closes itself.
    this.io.engine.close();
    await this.closeRedis?.();
  }

  /**
   * House states to send to browsers, coalesced (what the bus's state events call; the
   * benchmarks push synthetic states here).
   */
  publishStates(states: readonly HouseLiveState[]): void {
    if (states.length === 0) return;
    const live = states.map(presentLive);
    this.enqueue(live);
    // Other server processes (Redis adapter) hear it too and send it to their own sockets.
    if (this.closeRedis) this.io.serverSideEmit('live:states', live);
  }

  private enqueue(states: readonly HouseLive[]): void {
    for (const state of states) {
      const known = this.pending.get(state.houseId) ?? this.lastSent.get(state.houseId);
      this.pending.set(state.houseId, withNewerReading(state, known));
    }
  }

  private async authenticate(socket: LiveSocket): Promise<void> {
    const token: unknown = socket.handshake.auth?.token;
    if (typeof token !== 'string' || token.length === 0 || token.length > 200)
      throw new Error('unauthorized');
    // A wall's kiosk link: no user (id 0 is nobody's), its own scope. Its token hash
    // names its session room, so revoking it closes its sockets like a logout does.
    if (isKioskToken(token)) {
      const kiosk = await findKiosk(this.database, token);
      if (!kiosk) throw new Error('unauthorized');
      socket.data = {
        userId: 0,
        tokenHash: kiosk.tokenHash,
        scope: kiosk.scope,
        kiosk: true,
        houses: new SocketHouses(),
      };
      return;
    }
    const session = await findSession(this.database.db, token);
    if (!session) throw new Error('unauthorized');
    socket.data = {
      userId: session.user.id,
      tokenHash: session.tokenHash,
      scope: await scopeOf(this.database.db, session.user),
      kiosk: false,
      houses: new SocketHouses(),
    };
  }

  private onConnection(socket: LiveSocket): void {
    void socket.join([`user:${socket.data.userId}`, `session:${socket.data.tokenHash}`]);
    const kiosk = socket.data.kiosk;
    if (kiosk) hearOnlyKioskEvents(socket);
    socket.on('house:subscribe', (houseId, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      // A monitor room carries full-rate readings: not for a socket that may not hear them.
      const deaf = kiosk && !kioskHears('house:reading');
      if (deaf || !Number.isInteger(houseId) || !canSeeHouse(socket.data.scope, houseId)) {
        reply({ ok: false, error: 'forbidden' });
        return;
      }
      void socket.join(`monitor:${houseId}`);
      reply({ ok: true });
    });
    socket.on('house:unsubscribe', (houseId) => {
      if (Number.isInteger(houseId)) void socket.leave(`monitor:${houseId}`);
    });
    socket.on('live:detail', (detail, ack) =>
      this.setDetail(socket, detail, typeof ack === 'function' ? ack : () => undefined),
    );
    socket.on('error', (error) => this.log.warn({ err: error }, 'live socket error'));
  }
}
