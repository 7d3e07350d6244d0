/**
 * A PostgreSQL array literal of numbers, dates or strings, built in one pass: the drivers'
 * own array encoding (a call and an escape per element) was 5 % of the server's CPU at full
 * ingest. Strings are quoted and escaped; dates go as ISO text, which needs no quoting. The
 * ingest writer now sends binary arrays (binaryArray.ts); the demo's past, which also writes
 * calendar dates, keeps this.
 */
export function arrayLiteral(values: ReadonlyArray<number | string | Date | null>): string {
  let out = '{';
  for (let i = 0; i < values.length; i += 1) {
    if (i > 0) out += ',';
    const v = values[i];
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'number') out += Number.isFinite(v) ? String(v) : 'NULL';
    else if (v instanceof Date) out += v.toISOString();
    else out += `"${v.replace(/[\\"]/g, '\\$&')}"`;
  }
  return out + '}';
}
