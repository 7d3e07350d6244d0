import {
  METRIC_BY_KEY,
  isDeviceKey,
  sentinelOf,
  type SentinelKind,
} from '../../src/contract/metrics';
import {
  MAX_BACKLOG_MS,
  MAX_CLOCK_AHEAD_MS,
  plainTelemetry,
  telemetrySchema,
  type TelemetryParsed,
} from '../../src/contract/gateway';
import type { ExtraRanges } from './gatewayDirectory';

/** Why a message was refused; each is counted separately and logged with its detail. */
export const REJECT_REASONS = [
  'malformed',
  'schema',
  'unknownMetric',
  'outOfRange',
  'unknownDevice',
  'clock',
  'unknownGateway',
  'badToken',
  'badTopic',
  /** A message over its topic's byte cap (MAX_PAYLOAD_BYTES): refused before parsing. */
  'tooLarge',
  /** A gateway's parameters (config/report, config/ack) holding a key outside the catalogue. */
  'unknownParam',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

export interface DecodedReading {
  ts: Date;
  seq: number | null;
  mode: number | null;
  /** Real measurements only: sentinels are in `faults`, never among the numbers. */
  metrics: Record<string, number>;
  faults: Record<string, SentinelKind>;
  devices: Record<string, { state: number; opening?: number }>;
  /**
   * Which of `metrics` are the house's extra parameters (a terminal device's own metrics, not
   * the catalogue's): null on the common path; the writer stores these in their own table.
   */
  extraKeys?: string[] | null;
}

export type DecodeResult =
  { ok: true; reading: DecodedReading } | { ok: false; reason: RejectReason; detail: string };

const refuse = (reason: RejectReason, detail: string): DecodeResult => ({
  ok: false,
  reason,
  detail,
});

/**
 * Decodes one telemetry payload (MQTT bytes or an HTTP body) and checks it against the metric
 * catalogue. Nothing is half-accepted: one bad value refuses the whole message, with its reason.
 */
export function decodeTelemetry(
  payload: Buffer | string | unknown,
  now: number,
  extras: ExtraRanges | null = null,
): DecodeResult {
  let json: unknown = payload;
  let ours = false;
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
    try {
      json = JSON.parse(payload.toString());
      ours = true;
    } catch {
      return refuse('malformed', 'not JSON');
    }
  }
  let message = ours ? plainTelemetry(json) : null;
  if (!message) {
    const parsed = telemetrySchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return refuse(
        'schema',
        `${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    message = parsed.data;
  }
  return checked(message, now, extras);
}

/** A message of the telemetry shape, checked against the clock and the metric catalogue. */
function checked(message: TelemetryParsed, now: number, extras: ExtraRanges | null): DecodeResult {
  if (message.ts > now + MAX_CLOCK_AHEAD_MS)
    return refuse('clock', `ts ${message.ts} is ahead of the server clock`);
  if (message.ts < now - MAX_BACKLOG_MS)
    return refuse('clock', `ts ${message.ts} is older than the backlog window`);
  // The message is an object of our own (parsed here, or zod's copy): it is kept as it is unless
  // a sentinel must come out of it (rare), rather than copied value by value for every reading.
  const values = message.metrics;
  let faults: Record<string, SentinelKind> | null = null;
  let extraKeys: string[] | null = null;
  for (const key in values) {
    const value = values[key]!;
    // Only a key the catalogue does not know looks further, so catalogue readings pay nothing.
    const definition = METRIC_BY_KEY.get(key) ?? extras?.get(key);
    if (!definition) return refuse('unknownMetric', key);
    if (extras?.has(key) && !METRIC_BY_KEY.has(key)) (extraKeys ??= []).push(key);
    const sentinel = sentinelOf(value);
    if (sentinel) {
      (faults ??= {})[key] = sentinel;
      continue;
    }
    if (value < definition.min || value > definition.max) {
      return refuse('outOfRange', `${key}=${value} (allowed ${definition.min}…${definition.max})`);
    }
  }
  let metrics = values;
  if (faults) {
    metrics = {};
    for (const key in values) if (!(key in faults)) metrics[key] = values[key]!;
  }
  const devices: DecodedReading['devices'] = message.devices ?? {};
  // Every device of every reading: a test, not a match array per key (~700 bytes a reading).
  for (const key in devices) if (!isDeviceKey(key)) return refuse('unknownDevice', key);
  return accepted(message, metrics, faults ?? {}, devices, extraKeys);
}

function accepted(
  message: TelemetryParsed,
  metrics: DecodedReading['metrics'],
  faults: DecodedReading['faults'],
  devices: DecodedReading['devices'],
  extraKeys: string[] | null,
): DecodeResult {
  const reading: DecodedReading = {
    ts: new Date(message.ts),
    seq: message.seq ?? null,
    mode: message.mode ?? null,
    metrics,
    faults,
    devices,
    extraKeys,
  };
  return { ok: true, reading };
}
