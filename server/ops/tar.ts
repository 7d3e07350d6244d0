import type { FileHandle } from 'node:fs/promises';

/**
 * The little of POSIX tar (ustar) a backup needs: regular files with short names, written as a
 * stream and read back by offset. Any `tar` reads what this writes, so an operator can look
 * into a backup without Roost. Names longer than 100 bytes and files of 8 GiB or more do not
 * fit a plain ustar header; a backup has neither (the caller gets an error if it ever would).
 */
export const BLOCK = 512;
const MAX_SIZE = 8 ** 11 - 1;

/** The zero blocks that end an archive. */
export const TAR_END = Buffer.alloc(2 * BLOCK);

/** The zeros after a file's bytes that fill its last block. */
export function tarPadding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** A file's bytes as stored in an archive, its header and padding included. */
export function tarEntryBytes(size: number): number {
  return BLOCK + size + tarPadding(size).length;
}

function writeOctal(block: Buffer, at: number, width: number, value: number): void {
  block.write(`${value.toString(8).padStart(width - 1, '0')}\0`, at, width, 'latin1');
}

/** The header of a regular file (mode 0600: a backup holds secrets). */
export function tarHeader(name: string, size: number, modified: Date): Buffer {
  const block = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 100) throw new Error(`${name}: a name longer than 100 bytes`);
  if (size > MAX_SIZE) throw new Error(`${name}: 8 GiB or more does not fit a tar header`);
  block.write(name, 0, 100, 'utf8');
  writeOctal(block, 100, 8, 0o600);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, Math.floor(modified.getTime() / 1000));
  block.write('0', 156, 'latin1');
  block.write('ustar\u000000', 257, 8, 'latin1');
  // The checksum is counted with its own field as spaces.
  block.fill(0x20, 148, 156);
  writeOctal(block, 148, 7, checksum(block));
  return block;
}

function checksum(block: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return sum;
}

const text = (block: Buffer, at: number, width: number) =>
  block.toString('utf8', at, at + width).replace(/\0.*$/s, '');

export interface TarEntry {
  name: string;
  /** Where the file's bytes start in the archive. */
  offset: number;
  size: number;
}

/**
 * The regular files of an archive, in order, read header by header (the bytes themselves are
 * not read). Throws on a damaged header or an archive cut short: a backup is whole or refused.
 */
export async function readTarEntries(handle: FileHandle): Promise<TarEntry[]> {
  const length = (await handle.stat()).size;
  const entries: TarEntry[] = [];
  const block = Buffer.alloc(BLOCK);
  for (let at = 0; ;) {
    if (at + BLOCK > length) throw new Error('the archive is cut short');
    await handle.read(block, 0, BLOCK, at);
    if (block.every((b) => b === 0)) return entries;
    if (Number.parseInt(text(block, 148, 8).trim(), 8) !== checksum(block))
      throw new Error(`damaged tar header at byte ${at}`);
    const size = Number.parseInt(text(block, 124, 12).trim() || '0', 8);
    const prefix = text(block, 345, 155);
    const name = prefix ? `${prefix}/${text(block, 0, 100)}` : text(block, 0, 100);
    const type = text(block, 156, 1);
    if (!Number.isSafeInteger(size) || size < 0) throw new Error(`${name}: a damaged size`);
    if (type === '0' || type === '') entries.push({ name, offset: at + BLOCK, size });
    at += tarEntryBytes(size);
    if (at > length) throw new Error(`the archive is cut short inside ${name}`);
  }
}
