import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file the camera key is kept in when ROOST_SECRET_KEY is not set. */
export const KEY_FILE = 'camera-secret.key';
const PREFIX = 'v1:';

/**
 * Encrypts camera credentials with AES-256-GCM. The key is ROOST_SECRET_KEY (64 hex digits or
 * base64 of 32 bytes) or, without it, a random key written once to DATA_DIR with mode 0600 so
 * the database alone (a backup, a copied data directory) never reveals a password. An
 * in-memory database keeps an in-memory key: nothing it stored outlives the process.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('camera secret key must be 32 bytes');
  }

  seal(plain: string): string {
    if (plain === '') return '';
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  open(sealed: string): string {
    if (sealed === '') return '';
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

function keyOf(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32)
    throw new Error('ROOST_SECRET_KEY must be 32 bytes: 64 hex digits or base64');
  return key;
}

export function secretBoxFrom(env: { ROOST_SECRET_KEY?: string }, dataDir: string): SecretBox {
  if (env.ROOST_SECRET_KEY) return new SecretBox(keyOf(env.ROOST_SECRET_KEY));
  if (dataDir === 'memory://') return new SecretBox(randomBytes(32));
  const file = path.join(dataDir, KEY_FILE);
  try {
    return new SecretBox(keyOf(readFileSync(file, 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // `wx`: two processes starting at once never overwrite each other's key.
  try {
    writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    return new SecretBox(key);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return new SecretBox(keyOf(readFileSync(file, 'utf8')));
  }
}
