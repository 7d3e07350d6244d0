import { and, count, eq, gt, lt, min, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loginFailures } from '../db/schema';

/** After 5 failed sign-ins within 15 minutes, for one user name or one address, answer 429. */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;

/**
 * Minutes until a sign-in for this user name or from this address may be tried again, or 0.
 * Checked before the password is hashed, so a stream of guesses cannot starve the server.
 */
export async function throttledForMinutes(
  db: Db,
  username: string,
  address: string,
  now = new Date(),
): Promise<number> {
  const since = new Date(now.getTime() - FAILURE_WINDOW_MS);
  const key = username.toLowerCase();
  const [byUser, byAddress] = await Promise.all([
    db
      .select({ n: count(), first: min(loginFailures.at) })
      .from(loginFailures)
      .where(and(eq(loginFailures.username, key), gt(loginFailures.at, since))),
    db
      .select({ n: count(), first: min(loginFailures.at) })
      .from(loginFailures)
      .where(and(eq(loginFailures.address, address), gt(loginFailures.at, since))),
  ]);
  let waitMs = 0;
  for (const row of [byUser[0], byAddress[0]]) {
    if (row && row.n >= MAX_FAILURES && row.first) {
      waitMs = Math.max(waitMs, new Date(row.first).getTime() + FAILURE_WINDOW_MS - now.getTime());
    }
  }
  return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 60_000)) : 0;
}

export async function recordFailure(
  db: Db,
  username: string,
  address: string,
  now = new Date(),
): Promise<void> {
  await db.insert(loginFailures).values({ username: username.toLowerCase(), address, at: now });
  // Old rows say nothing any more.
  await db
    .delete(loginFailures)
    .where(lt(loginFailures.at, new Date(now.getTime() - FAILURE_WINDOW_MS)));
}

/** A successful sign-in forgives the user name's earlier mistakes (not the address's). */
export async function clearFailures(db: Db, username: string): Promise<void> {
  await db.delete(loginFailures).where(or(eq(loginFailures.username, username.toLowerCase())));
}
