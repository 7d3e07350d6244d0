import {
  FAULT_VALUES,
  widthOf,
  type Profile,
  type ProfileParam,
  type RegisterFunction,
  type ValueType,
} from './profile';

/** One read request: `count` registers (or bits) of one function from `start`. */
export interface ReadBlock {
  function: RegisterFunction;
  start: number;
  count: number;
}

/** The largest read Modbus allows in one request: 125 registers, 2000 bits. */
const MAX_REGISTERS = 125;
const MAX_BITS = 2000;

/**
 * The fewest requests that read everything a profile names: per function, addresses in order,
 * neighbours (within `readGap`) joined into one request up to Modbus' size limit.
 */
export function planReads(profile: Profile): ReadBlock[] {
  const spans = new Map<RegisterFunction, Array<[number, number]>>();
  const add = (fn: RegisterFunction, start: number, width: number) => {
    const list = spans.get(fn) ?? [];
    list.push([start, start + width - 1]);
    spans.set(fn, list);
  };
  for (const p of profile.points) add(p.function, p.register, widthOf(p.type));
  if (profile.mode) add(profile.mode.function, profile.mode.register, widthOf(profile.mode.type));
  for (const a of profile.alarms) add(a.function, a.register, 1);
  for (const p of profile.params) add('holding', p.register, widthOf(p.type));
  const blocks: ReadBlock[] = [];
  for (const [fn, list] of spans) {
    const limit = fn === 'coil' || fn === 'discrete' ? MAX_BITS : MAX_REGISTERS;
    list.sort((a, b) => a[0] - b[0]);
    let [start, end] = list[0]!;
    for (const [s, e] of list.slice(1)) {
      if (s <= end + 1 + profile.readGap && Math.max(end, e) - start + 1 <= limit) {
        end = Math.max(end, e);
      } else {
        blocks.push({ function: fn, start, count: end - start + 1 });
        [start, end] = [s, e];
      }
    }
    blocks.push({ function: fn, start, count: end - start + 1 });
  }
  return blocks;
}

/** What one poll read: per function, register address → raw 16-bit word (or 0/1 for bits). */
export type RawImage = Record<RegisterFunction, Map<number, number>>;

export const emptyImage = (): RawImage => ({
  holding: new Map(),
  input: new Map(),
  coil: new Map(),
  discrete: new Map(),
});

interface Located {
  function: RegisterFunction;
  register: number;
  type: ValueType;
  wordOrder: 'high-first' | 'low-first';
}

/** The raw value at a location, as its type reads it; undefined when it was not read. */
export function rawValue(image: RawImage, at: Located): number | undefined {
  const words = image[at.function];
  const first = words.get(at.register);
  if (first === undefined) return undefined;
  if (at.type === 'bool') return first ? 1 : 0;
  if (at.type === 'uint16') return first;
  if (at.type === 'int16') return first >= 0x8000 ? first - 0x10000 : first;
  const second = words.get(at.register + 1);
  if (second === undefined) return undefined;
  const [high, low] = at.wordOrder === 'high-first' ? [first, second] : [second, first];
  const buffer = Buffer.alloc(4);
  buffer.writeUInt16BE(high, 0);
  buffer.writeUInt16BE(low, 2);
  if (at.type === 'uint32') return buffer.readUInt32BE(0);
  if (at.type === 'int32') return buffer.readInt32BE(0);
  return buffer.readFloatBE(0);
}

/** A raw value in the unit Roost counts in: scaled, offset, and rid of float noise. */
export const scaled = (raw: number, scale: number, offset: number): number =>
  Number((raw * scale + offset).toFixed(6));

export interface Decoded {
  metrics: Record<string, number>;
  mode?: number;
  /** Alarm and input codes → active. */
  alarms: Record<string, boolean>;
  params: Record<string, number>;
}

/** Everything a profile reads in one poll's image, in Roost's terms. */
export function decode(profile: Profile, image: RawImage): Decoded {
  const out: Decoded = { metrics: {}, alarms: {}, params: {} };
  for (const p of profile.points) {
    const raw = rawValue(image, p);
    if (raw === undefined) continue;
    const fault = p.sentinels[String(raw)];
    out.metrics[p.metric] = fault ? FAULT_VALUES[fault] : scaled(raw, p.scale, p.offset);
  }
  if (profile.mode) {
    const raw = rawValue(image, profile.mode);
    const code = raw === undefined ? undefined : profile.mode.values[String(raw)];
    if (code !== undefined) out.mode = code;
  }
  for (const a of profile.alarms) {
    const raw = image[a.function].get(a.register);
    if (raw === undefined) continue;
    out.alarms[a.code] = a.bit === undefined ? raw !== 0 : ((raw >> a.bit) & 1) === 1;
  }
  for (const p of profile.params) {
    const raw = rawValue(image, { ...p, function: 'holding' });
    if (raw !== undefined) out.params[p.param] = scaled(raw, p.scale, p.offset);
  }
  return out;
}

const RANGES: Record<string, [number, number]> = {
  int16: [-0x8000, 0x7fff],
  uint16: [0, 0xffff],
  int32: [-0x80000000, 0x7fffffff],
  uint32: [0, 0xffffffff],
};

/**
 * The register words that hold `value` for a parameter, or why the profile refuses it (out of
 * the controller's limits, or not representable in its register).
 */
export function encodeParam(p: ProfileParam, value: number): number[] | { refused: string } {
  if (p.min !== undefined && value < p.min)
    return { refused: `${p.param} ${value} is below the controller's minimum ${p.min}` };
  if (p.max !== undefined && value > p.max)
    return { refused: `${p.param} ${value} is above the controller's maximum ${p.max}` };
  const buffer = Buffer.alloc(4);
  if (p.type === 'float32') buffer.writeFloatBE((value - p.offset) / p.scale, 0);
  else {
    const raw = Math.round((value - p.offset) / p.scale);
    const [lo, hi] = RANGES[p.type]!;
    if (raw < lo || raw > hi)
      return { refused: `${p.param} ${value} does not fit the controller's register` };
    if (p.type === 'int16' || p.type === 'uint16') return [raw & 0xffff];
    if (p.type === 'int32') buffer.writeInt32BE(raw, 0);
    else buffer.writeUInt32BE(raw, 0);
  }
  const high = buffer.readUInt16BE(0);
  const low = buffer.readUInt16BE(2);
  return p.wordOrder === 'high-first' ? [high, low] : [low, high];
}
