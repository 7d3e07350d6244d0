import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url: well above the 128 bits ASVS asks of a session token. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as their sha256, so a database leak does not leak sessions. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
