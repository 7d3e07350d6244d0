/**
 * Rows in PostgreSQL's binary COPY format, for `copy … from '/dev/blob' with (format binary)`
 * on the embedded database. Measured on PGlite: a house's 91 days of hourly rollups (2,185 rows
 * of 100 numbers) took 610 ms as unnest() of text arrays, 390 ms as CSV and 60 ms in this
 * format, where no number is printed and parsed again.
 */
export type CopyType = 'int2' | 'int4' | 'float4' | 'float8' | 'timestamptz' | 'jsonb';

/** Microseconds between the Unix epoch and PostgreSQL's (2000-01-01 UTC). */
const PG_EPOCH_US = 946_684_800_000_000n;
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const WIDTH: Record<Exclude<CopyType, 'jsonb'>, number> = {
  int2: 2,
  int4: 4,
  float4: 4,
  float8: 8,
  timestamptz: 8,
};

export type CopyValue = number | Date | string | null | undefined;

export class BinaryCopy {
  private buffer = Buffer.alloc(1 << 20);
  private at = 0;
  rows = 0;

  constructor(private readonly types: readonly CopyType[]) {
    this.reserve(SIGNATURE.length + 8);
    this.at += SIGNATURE.copy(this.buffer, this.at);
    this.at = this.buffer.writeInt32BE(0, this.at); // flags: no OIDs
    this.at = this.buffer.writeInt32BE(0, this.at); // no header extension
  }

  /** One row, its values in the order of the types; null or undefined is SQL NULL. */
  row(values: readonly CopyValue[]): void {
    this.reserve(2 + this.types.length * 12);
    this.at = this.buffer.writeInt16BE(this.types.length, this.at);
    for (let i = 0; i < this.types.length; i += 1) this.field(this.types[i]!, values[i]);
    this.rows += 1;
  }

  /** The whole copy, trailer included. */
  finish(): Uint8Array {
    this.reserve(2);
    this.at = this.buffer.writeInt16BE(-1, this.at);
    return this.buffer.subarray(0, this.at);
  }

  private field(type: CopyType, value: CopyValue): void {
    const b = this.buffer;
    if (value === null || value === undefined) {
      this.at = b.writeInt32BE(-1, this.at);
      return;
    }
    if (type === 'jsonb') {
      const text = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
      this.reserve(5 + text.length);
      this.at = this.buffer.writeInt32BE(text.length + 1, this.at);
      this.at = this.buffer.writeUInt8(1, this.at); // jsonb's binary format version
      this.at += text.copy(this.buffer, this.at);
      return;
    }
    this.at = b.writeInt32BE(WIDTH[type], this.at);
    switch (type) {
      case 'int2':
        this.at = b.writeInt16BE(Number(value), this.at);
        break;
      case 'int4':
        this.at = b.writeInt32BE(Number(value), this.at);
        break;
      case 'float4':
        this.at = b.writeFloatBE(Number(value), this.at);
        break;
      case 'float8':
        this.at = b.writeDoubleBE(Number(value), this.at);
        break;
      case 'timestamptz': {
        const ms = value instanceof Date ? value.getTime() : Number(value);
        this.at = b.writeBigInt64BE(BigInt(Math.round(ms)) * 1000n - PG_EPOCH_US, this.at);
        break;
      }
    }
  }

  private reserve(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.at + bytes) size *= 2;
    const grown = Buffer.alloc(size);
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }
}

/** The statement that takes a BinaryCopy's bytes as `copyData`. */
export function copyStatement(table: string, columns: readonly string[]): string {
  return `copy ${table} (${columns.join(', ')}) from '/dev/blob' with (format binary)`;
}
