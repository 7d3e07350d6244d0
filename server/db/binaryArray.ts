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
