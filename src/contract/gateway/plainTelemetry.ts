import type { z } from 'zod';
import type { telemetrySchema } from './telemetry';

export type TelemetryParsed = z.output<typeof telemetrySchema>;

const TOP_KEYS = new Set(['ts', 'seq', 'metrics', 'mode', 'devices']);
const MAX_KEY = 40;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A key zod's copy would not keep as an own key (assigning it sets the copy's prototype). */
const badKey = (key: string) => key.length > MAX_KEY || key === '__proto__';

const isWhole = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;

/**
 * The plain shape nearly every gateway sends, checked by hand at the rate of readings: zod's
 * parse was 7–9 % of the server's main thread and copied every reading once more. What this
 * accepts, `telemetrySchema` accepts with the same output (the message itself: no key is
 * stripped, no value changed; a property test holds the two together). Anything else (an ISO
 * `ts`, an unknown key, a value out of range) answers null and goes through the schema, which
 * also words the refusal. Only for a message this process parsed itself: the answer is the
 * message, not a copy.
 */
export function plainTelemetry(json: unknown): TelemetryParsed | null {
  if (!isRecord(json)) return null;
  for (const key in json) if (!TOP_KEYS.has(key)) return null;
  if (!isWhole(json.ts, 1, Number.MAX_SAFE_INTEGER)) return null;
  if ('seq' in json && !isWhole(json.seq, 0, Number.MAX_SAFE_INTEGER)) return null;
  if ('mode' in json && !isWhole(json.mode, 0, 255)) return null;
  const metrics = json.metrics;
  if (!isRecord(metrics)) return null;
  for (const key in metrics) {
    const value = metrics[key];
    if (badKey(key) || typeof value !== 'number' || !Number.isFinite(value)) return null;
  }
  if ('devices' in json) {
    const devices = json.devices;
    if (!isRecord(devices)) return null;
    for (const key in devices) {
      const device = devices[key];
      if (badKey(key) || !isRecord(device)) return null;
      for (const field in device) if (field !== 'state' && field !== 'opening') return null;
      if (!isWhole(device.state, 0, 3)) return null;
      if ('opening' in device) {
        const opening = device.opening;
        if (typeof opening !== 'number' || !(opening >= 0 && opening <= 100)) return null;
      }
    }
  }
  return json as TelemetryParsed;
}
