import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether an `Authorization` header carries exactly `Bearer <expected>`. Both sides are hashed
 * first, so the comparison takes the same time whatever the header holds (its length too).
 */
export function bearerMatches(header: string | undefined, expected: string): boolean {
  const given = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected)) && given.length > 0;
}
