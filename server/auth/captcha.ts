import { randomUUID } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import type { Db } from '../db/client';
import { captchas } from '../db/schema';

/** A captcha is good for one try within 2 minutes: a captcha cannot be collected now and used later. */
export const CAPTCHA_TTL_MS = 2 * 60 * 1000;

export interface IssuedCaptcha {
  codeId: string;
  /** The SVG as a data URL the console can put in an <img>. */
  image: string;
}

export async function issueCaptcha(db: Db, now = new Date()): Promise<IssuedCaptcha> {
  // Letters that look alike (0/o, 1/l/i) are left out: a person reads them off a small image.
  const { text, data } = svgCaptcha.create({
    size: 4,
    noise: 2,
    ignoreChars: '0oO1ilIL',
    color: true,
    background: '#f5f7fa',
  });
  const codeId = randomUUID();
  await db.delete(captchas).where(lt(captchas.expiresAt, now));
  await db.insert(captchas).values({
    id: codeId,
    answer: text.toLowerCase(),
    expiresAt: new Date(now.getTime() + CAPTCHA_TTL_MS),
  });
  return { codeId, image: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}` };
}

/** Checks and consumes a captcha: whatever the answer, the same codeId never works twice. */
export async function consumeCaptcha(
  db: Db,
  codeId: string,
  answer: string,
  now = new Date(),
): Promise<boolean> {
  if (!codeId) return false;
  const rows = await db.delete(captchas).where(eq(captchas.id, codeId)).returning();
  const row = rows[0];
  return row !== undefined && row.expiresAt > now && row.answer === answer.trim().toLowerCase();
}
