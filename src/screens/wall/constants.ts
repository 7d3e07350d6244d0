import { type WallState } from '../../contract/wall';

/** The overview colours of the house states, as deck.gl RGB. */
export const STATE_RGB: Record<WallState, [number, number, number]> = {
  normal: [0x67, 0xc3, 0x37],
  alarm: [0xf6, 0x6c, 0x6c],
  offline: [0x91, 0x94, 0x9a],
};
export const STATE_HEX: Record<WallState, string> = {
  normal: '#67c337',
  alarm: '#f66c6c',
  offline: '#91949a',
};

/** Data older than a minute is called stale on the wall. */
export const STALE_AFTER_MS = 60_000;
/** Back to the whole map after a minute without a touch. */
export const IDLE_RESET_MS = 60_000;
/** The clock and the data's age are shown to the second. */
export const CLOCK_TICK_MS = 1_000;
/** A wall runs for weeks: the ticker keeps this many entries, the oldest drop out. */
export const TICKER_MAX_ENTRIES = 40;
/**
 * After the alarm total changes, the farms (unacknowledged counts) are fetched again once
 * things settle: a burst of alarms costs one request, not one each.
 */
export const MAP_REFETCH_DEBOUNCE_MS = 1_000;
/** After an acknowledgement (one at a time, by hand) the farms are fetched again almost at once. */
export const ACK_REFETCH_DELAY_MS = 100;
/** A failed read of the farms is tried again after this (the server's busy answer asks for 5 s). */
export const FARMS_RETRY_MS = 5_000;
/** Today's alarms by cause change slowly; the console's own poll rate (30 s) is enough. */
export const TODAY_POLL_MS = 30_000;
/** Farm point radius at 1920 px wide: a base plus a term growing with the house count. */
export const POINT_BASE_PX = 7;
export const POINT_PER_SQRT_HOUSE_PX = 3;
/** Design width: sizes in pixels scale with the wall's width from here (4K doubles them). */
export const DESIGN_WIDTH_PX = 1920;
/**
 * Farms with an unacknowledged alarm pulse as DOM markers animated on the compositor (the Web
 * Animations API, WallMap.tsx), so a pulse never re-renders the WebGL map. Beyond this many,
 * the rest stay still.
 */
export const MAX_PULSE_MARKERS = 100;
/**
 * The map's content as text is bounded: with 10,000 farms a full list would cost more to render
 * each second than the map itself; the gravest farms come first.
 */
export const MAX_LISTED_FARMS = 200;
