import { z } from 'zod';
import { alarmSchema, alarmSummarySchema, type AlarmSummary } from './alarms';
import type { Command, GatewayReported } from './envcontrol';

const device = z.object({ state: z.number().int(), opening: z.number().optional() });

/**
 * The live part of a house, the same on REST (`/overview/listOverview/`, the poll path) and on
 * the socket (`house:updated`): one presenter makes both, so polling never drifts from live.
 */
export const houseLiveSchema = z.object({
  houseId: z.number().int(),
  online: z.boolean(),
  network: z.enum(['wired', 'wireless']).nullable(),
  gatewayVersion: z.string().nullable(),
  /** ISO timestamps. */
  onlineSince: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  /** Time of the latest reading, by the gateway's clock. */
  lastTs: z.string().nullable(),
  mode: z.number().int().nullable(),
  metrics: z.record(z.string(), z.number()),
  /** Sentinel readings by metric: notConnected, notConfigured, notEntered, error. */
  faults: z.record(z.string(), z.string()),
  devices: z.record(z.string(), device),
  /** Open (not yet cleared) alarms of the house, and the most important one. */
  alarm: z.object({ count: z.number().int().nonnegative(), top: alarmSummarySchema.nullable() }),
});
export type HouseLive = z.infer<typeof houseLiveSchema>;

/**
 * Whether two values of a live field are the same: the fields are JSON (numbers, strings,
 * small records such as metrics or the alarm summary), so a structural comparison suffices. The
 * hub tells each house's changed fields by it and the console keeps an equal field's old object;
 * comparing two JSON.stringify texts instead made a string of each record for every house
 * every flush (at 18,500 houses on one node, 2 % of the server's main thread, and its garbage).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const key in x) {
    if (!Object.prototype.hasOwnProperty.call(y, key) || !sameJson(x[key], y[key])) return false;
    count += 1;
  }
  for (const key in y) if (Object.prototype.hasOwnProperty.call(y, key)) count -= 1;
  return count === 0;
}

/** Only the fields that changed since the last batch; `houseId` always. */
export const houseDeltaSchema = houseLiveSchema.partial().extend({ houseId: z.number().int() });
export type HouseDelta = z.infer<typeof houseDeltaSchema>;

export const houseUpdatedSchema = z.object({ deltas: z.array(houseDeltaSchema), at: z.number() });
export type HouseUpdated = z.infer<typeof houseUpdatedSchema>;

/** Numbers per house in `HouseStatusBatch.houses`: its id, online, open alarms. */
export const STATUS_STRIDE = 3;
/** In `HouseStatusBatch.houses`: the field did not change. */
export const STATUS_UNCHANGED = -1;

/**
 * The status changes of houses a status-only socket does not follow (`live:detail` `status`),
 * packed: a wall hears thousands a second, and one object per house cost it more in parsing,
 * copying and garbage collection than everything else its update does (bench/wall.ts).
 */
export interface HouseStatusBatch {
  /**
   * STATUS_STRIDE integers per house: its id; 1 online, 0 offline; its open alarms' count.
   * Either of the last two is STATUS_UNCHANGED when that field did not change.
   */
  houses: ArrayLike<number>;
  /** The most important open alarm of each house whose alarm count is given, in order. */
  tops: (AlarmSummary | null)[];
  at: number;
}

/**
 * A HouseStatusBatch as the socket carries it: `houses` is a Socket.IO binary attachment, its
 * integers little-endian (packStatusHouses), arriving as an ArrayBuffer in a browser and a
 * Buffer in Node. As JSON text, the thousands of numbers a second were the largest part of the
 * wall's parsing and of its garbage (bench/wall.ts); see statusBatchOf.
 */
export interface HouseStatusWire {
  houses: ArrayBuffer | ArrayBufferView;
  tops: (AlarmSummary | null)[];
  at: number;
}

/** Full-rate readings of one house, for the monitor page that subscribed to it. */
export const houseReadingSchema = z.object({
  houseId: z.number().int(),
  ts: z.number(),
  mode: z.number().int().nullable(),
  metrics: z.record(z.string(), z.number()),
  faults: z.record(z.string(), z.string()),
  devices: z.record(z.string(), device),
});
export type HouseReading = z.infer<typeof houseReadingSchema>;

export const alarmEventSchema = alarmSchema;
export type AlarmEvent = z.infer<typeof alarmEventSchema>;

export type SubscribeAck = { ok: true } | { ok: false; error: string };

/** The most houses one socket can follow in full while it hears only the others' status. */
export const MAX_FOLLOWED_HOUSES = 2_000;

/**
 * How much of each house's changes a socket hears (`live:detail`). `all` (every socket's start):
 * every field. `status`: only what decides a house's state, `online` and `alarm`, packed
 * (`house:status`), except the `follow`ed houses, which keep every field (`house:updated`). The
 * wall asks for `status`: it draws 10,000 houses by their state and shows readings only for the
 * farm it drilled into. Going back to `all` (or following a house) first brings the latest full
 * state of every house the socket heard packed or not at all.
 */
export const liveDetailSchema = z.discriminatedUnion('detail', [
  z.object({ detail: z.literal('all') }).strict(),
  z
    .object({
      detail: z.literal('status'),
      follow: z.array(z.number().int().positive()).max(MAX_FOLLOWED_HOUSES),
    })
    .strict(),
]);
export type LiveDetail = z.infer<typeof liveDetailSchema>;

/**
 * A silence began or ended (made, ended early, reached its end or its planned start): the
 * houses it covers that the socket may see, whose alarms' "Silenced" tag may have changed.
 */
export const silenceChangedSchema = z.object({ houseIds: z.array(z.number().int()) });
export type SilenceChanged = z.infer<typeof silenceChangedSchema>;

/** Socket.IO events, server → browser (`resource:pastTense`). */
export interface ServerToClientEvents {
  'house:updated': (batch: HouseUpdated) => void;
  /** Only to a socket that asked for houses' status (`live:detail`). */
  'house:status': (batch: HouseStatusWire) => void;
  'house:reading': (reading: HouseReading) => void;
  /** The number of open alarms in the socket's scope. */
  'alarm:count': (count: number) => void;
  'alarm:raised': (alarm: AlarmEvent) => void;
  'alarm:acknowledged': (alarm: AlarmEvent) => void;
  'alarm:cleared': (alarm: AlarmEvent) => void;
  /** A gateway command of a house in the socket's scope changed state. */
  'command:updated': (command: Command) => void;
  /** A gateway of a house in the socket's scope reported new parameters or a new version. */
  'gateway:reported': (report: GatewayReported) => void;
  'silence:changed': (change: SilenceChanged) => void;
}

/** Socket.IO events, browser → server. Rooms are never named by the client: it names a house. */
export interface ClientToServerEvents {
  'house:subscribe': (houseId: number, ack: (result: SubscribeAck) => void) => void;
  'house:unsubscribe': (houseId: number) => void;
  'live:detail': (detail: LiveDetail, ack: (result: SubscribeAck) => void) => void;
}

/** Coalesced house deltas reach a socket at most this often (4 per second). */
export const LIVE_FLUSH_INTERVAL_MS = 250;
