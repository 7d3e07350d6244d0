import { STATUS_STRIDE, type HouseStatusBatch, type HouseStatusWire } from './live';

const BYTES = 4;
/** Typed arrays use the platform's byte order: where it is little-endian, as on every
 * platform Roost runs on, the attachment's bytes are read in place. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The server's side: a batch's houses as the bytes of little-endian 32-bit integers. */
export function packStatusHouses(houses: readonly number[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(new ArrayBuffer(houses.length * BYTES));
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < houses.length; i += 1) view.setInt32(i * BYTES, houses[i]!, true);
  return bytes;
}

/**
 * The page's side: the batch with its houses as integers. Read in place where the bytes are
 * aligned (a browser's attachment is an ArrayBuffer of its own), else copied. Null for bytes
 * that are not whole houses: never sent by the server, and better dropped than misread.
 */
export function statusBatchOf(
  wire: HouseStatusWire,
): (HouseStatusBatch & { houses: Int32Array }) | null {
  const { houses } = wire;
  const buffer = ArrayBuffer.isView(houses) ? houses.buffer : houses;
  const offset = ArrayBuffer.isView(houses) ? houses.byteOffset : 0;
  const length = houses.byteLength;
  if (!(buffer instanceof ArrayBuffer) || length % (BYTES * STATUS_STRIDE) !== 0) return null;
  const count = length / BYTES;
  let numbers: Int32Array;
  if (LITTLE_ENDIAN && offset % BYTES === 0) numbers = new Int32Array(buffer, offset, count);
  else {
    const view = new DataView(buffer, offset, length);
    numbers = new Int32Array(count);
    for (let i = 0; i < count; i += 1) numbers[i] = view.getInt32(i * BYTES, true);
  }
  return { houses: numbers, tops: wire.tops, at: wire.at };
}
