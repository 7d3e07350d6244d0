import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` of @node-rs/argon2 (an ambient const enum, not importable as a value here). */
const ARGON2ID = 2;

/**
 * argon2id at the OWASP minimum (19 MiB, t=2, p=1): 13–19 ms a check on this hardware
 * (about 157 checks a second on 2 cores), which is why sign-in is throttled before hashing:
 * a stream of wrong passwords would otherwise starve the API.
 */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A real hash of nothing anybody knows, checked for unknown users so both cases cost the same. */
let decoy: Promise<string> | null = null;

export async function verifyPassword(
  storedHash: string | null,
  password: string,
): Promise<boolean> {
  if (storedHash === null) {
    decoy ??= hashPassword(`decoy-${Math.random()}`);
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
