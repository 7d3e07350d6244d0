import { BinaryFields, type CopyType, type CopyValue } from './binaryCopy';

/** Element type OIDs, which PostgreSQL checks against the parameter's declared array type. */
const ELEMENT_OID: Record<CopyType, number> = {
  int2: 21,
  int4: 23,
  float4: 700,
  float8: 701,
  timestamptz: 1184,
  jsonb: 3802,
  text: 25,
};

/**
 * A one-dimensional array in PostgreSQL's binary format, for a `$n::real[]` (etc.) parameter
 * of a hot statement. Both drivers send a Buffer parameter as binary, so no number is printed
 * in JavaScript and parsed again in the database: for a 2,000-reading batch the text arrays
 * cost the writer ~35 ms of printing per statement (bench/ingest.ts).
 */
export function binaryArray(type: CopyType, values: ArrayLike<CopyValue>): Buffer {
  const fields = new BinaryFields(20 + values.length * 12);
  fields.int32(1); // dimensions
  fields.int32(1); // may hold NULLs (the flag is not checked on input)
  fields.int32(ELEMENT_OID[type]);
  fields.int32(values.length);
  fields.int32(1); // lower bound
  for (let i = 0; i < values.length; i += 1) fields.field(type, values[i]);
  return fields.bytes();
}

/** The types numberArray writes. */
export type NumberType = 'int4' | 'float4' | 'float8';

/**
 * binaryArray of numbers, with one loop per type instead of a call and a type switch per value:
 * the writer's 100 hourly rollup columns of a batch whose readings come from 19,000 houses (a
 * row per house and hour) went through binaryArray for about 3 % of the main thread
 * (bench/scale.ts). The same bytes as binaryArray: a value that is not a finite number is NULL.
 */
export function numberArray(type: NumberType, values: ArrayLike<number | null>): Buffer {
  const n = values.length;
  const width = type === 'float8' ? 8 : 4;
  const buffer = Buffer.allocUnsafe(20 + n * (4 + width));
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.length);
  view.setInt32(0, 1); // dimensions
  view.setInt32(4, 1); // may hold NULLs
  view.setInt32(8, ELEMENT_OID[type]);
  view.setInt32(12, n);
  view.setInt32(16, 1); // lower bound
  let at = 20;
  for (let i = 0; i < n; i += 1) {
    const value = values[i];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      view.setInt32(at, -1);
      at += 4;
      continue;
    }
    view.setInt32(at, width);
    if (type === 'float4') view.setFloat32(at + 4, value);
    else if (type === 'float8') view.setFloat64(at + 4, value);
    else view.setInt32(at + 4, value);
    at += 4 + width;
  }
  return buffer.subarray(0, at);
}

/**
 * binaryArray('float4', …) of one key of each record, read straight from the records: the
 * writer's 25 metric columns of a 2,000-reading batch went through arrays of boxed numbers
 * (50,000 a batch) and a call per value. Not a finite number: NULL, as binaryArray does.
 */
export function float4ArrayOf(
  records: ReadonlyArray<Readonly<Record<string, number | null | undefined>>>,
  key: string,
): Buffer {
  const n = records.length;
  const buffer = Buffer.allocUnsafe(20 + n * 8);
  // A DataView, as numberArray: its writes are compiled inline, where Buffer's writeInt32BE and
  // writeFloatBE are calls that check their arguments (60,000 of them in a batch's metrics).
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.length);
  view.setInt32(0, 1); // dimensions
  view.setInt32(4, 1); // may hold NULLs
  view.setInt32(8, ELEMENT_OID.float4);
  view.setInt32(12, n);
  view.setInt32(16, 1); // lower bound
  let at = 20;
  for (let i = 0; i < n; i += 1) {
    const value = records[i]![key];
    if (typeof value === 'number' && Number.isFinite(value)) {
      view.setInt32(at, 4);
      view.setFloat32(at + 4, value);
      at += 8;
    } else {
      view.setInt32(at, -1);
      at += 4;
    }
  }
  return buffer.subarray(0, at);
}
