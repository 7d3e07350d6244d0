import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { settings } from '../db/schema';

/** Where the installation's link key is kept: made once, on the first link. */
const SECRET_KEY = 'notify.ackLinkSecret';

/**
 * The key acknowledge links are signed with: 256 random bits kept in the database, so every
 * process of the installation signs and checks alike and a restart keeps links working.
 */
export async function ackLinkSecret(database: Database): Promise<Buffer> {
  await database.db
    .insert(settings)
    .values({ key: SECRET_KEY, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing({ target: settings.key });
  // There now: inserted just above, or by whoever signed the first link.
  return (await existingAckLinkSecret(database))!;
}

/**
 * The key if a link was ever signed, else null: checking a link must not make one (a read that
 * wrote would let anyone who guesses at links change the database).
 */
export async function existingAckLinkSecret(database: Database): Promise<Buffer | null> {
  const [row] = await database.db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, SECRET_KEY));
  return row ? Buffer.from(row.value, 'base64url') : null;
}

const mac = (secret: Buffer, body: string) =>
  createHmac('sha256', secret).update(`ack.${body}`).digest('base64url');

/**
 * A token valid for one alarm, sent to one alarm phone entry, until `expiresAt`:
 * `<alarm>.<entry>.<expiry in s>.<HMAC-SHA256>`. Nothing is stored per link.
 */
export function signAckToken(
  secret: Buffer,
  alarmId: number,
  phoneId: number,
  expiresAt: Date,
): string {
  const body = `${alarmId}.${phoneId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${body}.${mac(secret, body)}`;
}

export type AckTokenCheck =
  | { ok: true; alarmId: number; phoneId: number; expiresAt: Date }
  | { ok: false; reason: 'invalid' | 'expired' };

/** Checks the signature first (a tampered token says nothing else), then the expiry. */
export function checkAckToken(secret: Buffer, token: string, now: Date): AckTokenCheck {
  const parts = token.split('.');
  if (parts.length !== 4 || !parts.slice(0, 3).every((p) => /^\d{1,12}$/.test(p)))
    return { ok: false, reason: 'invalid' };
  const body = parts.slice(0, 3).join('.');
  const expected = Buffer.from(mac(secret, body));
  const given = Buffer.from(parts[3]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'invalid' };
  const expiresAt = new Date(Number(parts[2]) * 1000);
  if (expiresAt <= now) return { ok: false, reason: 'expired' };
  return { ok: true, alarmId: Number(parts[0]), phoneId: Number(parts[1]), expiresAt };
}

/** Makes the dispatcher's `linkOf`: the page `/ack/<token>` under the public address. */
export function ackLinkMaker(database: Database, publicUrl: string, hours: number) {
  let secret: Promise<Buffer> | null = null;
  return async (alarmId: number, phoneId: number, now: Date) => {
    secret ??= ackLinkSecret(database);
    const token = signAckToken(
      await secret,
      alarmId,
      phoneId,
      new Date(now.getTime() + hours * 3_600_000),
    );
    return `${publicUrl}/ack/${token}`;
  };
}
