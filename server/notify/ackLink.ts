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

const mailMac = (secret: Buffer, body: string) =>
  createHmac('sha256', secret).update(`mail.${body}`).digest('base64url');

/**
 * A mailed acknowledge link's token: `m<alarm>.<mailbox, base64url>.<expiry in s>.<HMAC>`. It
 * names the mailbox it went to, so the tap acknowledges as that person (their account when the
 * address is one, else the address), not as an alarm phone entry. Signed under its own prefix:
 * no phone or drill token passes as a mail token or back.
 */
export function signMailToken(
  secret: Buffer,
  alarmId: number,
  mailbox: string,
  expiresAt: Date,
): string {
  const body = `${alarmId}.${Buffer.from(mailbox).toString('base64url')}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `m${body}.${mailMac(secret, body)}`;
}

export const isMailToken = (token: string) => token.startsWith('m');

export type MailTokenCheck =
  | { ok: true; alarmId: number; mailbox: string; expiresAt: Date }
  | { ok: false; reason: 'invalid' | 'expired' };

export function checkMailToken(secret: Buffer, token: string, now: Date): MailTokenCheck {
  const parts = token.slice(1).split('.');
  if (
    parts.length !== 4 ||
    !/^\d{1,12}$/.test(parts[0]!) ||
    !/^[A-Za-z0-9_-]{1,250}$/.test(parts[1]!) ||
    !/^\d{1,12}$/.test(parts[2]!)
  )
    return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(mailMac(secret, parts.slice(0, 3).join('.')));
  const given = Buffer.from(parts[3]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'invalid' };
  const expiresAt = new Date(Number(parts[2]) * 1000);
  if (expiresAt <= now) return { ok: false, reason: 'expired' };
  const mailbox = Buffer.from(parts[1]!, 'base64url').toString('utf8');
  return { ok: true, alarmId: Number(parts[0]), mailbox, expiresAt };
}
