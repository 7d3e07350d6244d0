import { and, count, eq, gt, lt, min, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { knownSignInAddresses } from '../db/hardenSchema';
import { loginFailures, users } from '../db/schema';

/**
 * The sign-in throttle, checked before the password is hashed (so guessing cannot starve the
 * server), and built so that it stops guessing without handing anyone a lever to lock others
 * out:
 * - one user name from one address: after 5 failures within 15 minutes that pair waits;
 * - one address, any user names (spraying): after 50 failures within 15 minutes the address
 *   waits, except for users who have signed in from it before (a farm's shared address);
 * - one user name from anywhere: after 100 failures within an hour, only addresses the user
 *   has signed in from before may still try (each still bound by its pair limit).
 * So strangers get at most 100 evaluated guesses per account per hour, and the right password
 * from a known address is never refused because of someone else's failures.
 */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_ADDRESS_FAILURES = 50;
export const MAX_ACCOUNT_FAILURES_PER_HOUR = 100;
const HOUR_MS = 60 * 60 * 1000;

/** Minutes until this user name may be tried from this address again, or 0. */
export async function throttledForMinutes(
  db: Db,
  username: string,
  address: string,
  now = new Date(),
): Promise<number> {
  const since = new Date(now.getTime() - FAILURE_WINDOW_MS);
  const hourAgo = new Date(now.getTime() - HOUR_MS);
  const key = username.toLowerCase();
  const failures = (where: ReturnType<typeof and>) =>
    db
      .select({ n: count(), first: min(loginFailures.at) })
      .from(loginFailures)
      .where(where);
  const [[pair], [byAddress], [byAccount], known] = await Promise.all([
    failures(
      and(
        eq(loginFailures.username, key),
        eq(loginFailures.address, address),
        gt(loginFailures.at, since),
      ),
    ),
    failures(and(eq(loginFailures.address, address), gt(loginFailures.at, since))),
    failures(and(eq(loginFailures.username, key), gt(loginFailures.at, hourAgo))),
    isKnownAddress(db, key, address),
  ]);
  const waits = [wait(pair, MAX_FAILURES, FAILURE_WINDOW_MS, now)];
  if (!known) {
    waits.push(wait(byAddress, MAX_ADDRESS_FAILURES, FAILURE_WINDOW_MS, now));
    waits.push(wait(byAccount, MAX_ACCOUNT_FAILURES_PER_HOUR, HOUR_MS, now));
  }
  const waitMs = Math.max(...waits);
  return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 60_000)) : 0;
}

function wait(
  row: { n: number; first: Date | string | null } | undefined,
  limit: number,
  windowMs: number,
  now: Date,
): number {
  if (!row || row.n < limit || !row.first) return 0;
  return new Date(row.first).getTime() + windowMs - now.getTime();
}

async function isKnownAddress(db: Db, username: string, address: string): Promise<boolean> {
  // The user is looked up by name as sign-in does: case-insensitively.
  const rows = await db
    .select({ known: sql<number>`1` })
    .from(knownSignInAddresses)
    .innerJoin(users, eq(users.id, knownSignInAddresses.userId))
    .where(
      and(eq(sql`lower(${users.username})`, username), eq(knownSignInAddresses.address, address)),
    )
    .limit(1);
  return rows.length > 0;
}

export async function recordFailure(
  db: Db,
  username: string,
  address: string,
  now = new Date(),
): Promise<void> {
  await db.insert(loginFailures).values({ username: username.toLowerCase(), address, at: now });
  // Rows older than the longest window say nothing any more.
  await db.delete(loginFailures).where(lt(loginFailures.at, new Date(now.getTime() - HOUR_MS)));
}

/**
 * A successful sign-in forgives this address's mistakes for the user name and makes the
 * address known to the user. Failures from elsewhere still count against the hourly budget.
 */
export async function clearFailures(
  db: Db,
  username: string,
  address: string,
  userId: number,
  now = new Date(),
): Promise<void> {
  await db
    .delete(loginFailures)
    .where(
      and(eq(loginFailures.username, username.toLowerCase()), eq(loginFailures.address, address)),
    );
  await db
    .insert(knownSignInAddresses)
    .values({ userId, address, lastAt: now })
    .onConflictDoUpdate({
      target: [knownSignInAddresses.userId, knownSignInAddresses.address],
      set: { lastAt: now },
    });
}
