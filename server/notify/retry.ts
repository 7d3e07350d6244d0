import type { TryResult } from '../alarms/channels';

/** Tries per message to one provider: a brief outage is ridden out, a dead one is shown. */
export const NOTIFY_TRIES = 3;
/** Wait before the second try, doubled for each later one (1 s, 2 s): inside the dispatcher's claim. */
export const NOTIFY_BACKOFF_MS = 1_000;
/** One provider request waits this long for an answer: a hung provider counts as failed. */
export const NOTIFY_TIMEOUT_MS = 10_000;

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds or the tries are used up, waiting longer between each, and
 * reports every try to `onTry` so the alarm shows what happened.
 */
export async function withRetry(
  attempt: () => Promise<TryResult>,
  onTry: (tryNo: number, result: TryResult) => Promise<void>,
  sleep: Sleep = realSleep,
  tries = NOTIFY_TRIES,
): Promise<TryResult> {
  let result: TryResult = { ok: false, detail: 'not sent' };
  for (let tryNo = 1; tryNo <= tries; tryNo += 1) {
    if (tryNo > 1) await sleep(NOTIFY_BACKOFF_MS * 2 ** (tryNo - 2));
    try {
      result = await attempt();
    } catch (error) {
      result = { ok: false, detail: (error as Error).message.slice(0, 200) };
    }
    await onTry(tryNo, result);
    if (result.ok) break;
  }
  return result;
}

/**
 * One HTTP request to a provider; `judge` reads the provider's own answer (most say failure in
 * a 200 body), so the detail stored is the provider's code and message.
 */
export async function request(
  url: string,
  init: RequestInit,
  judge: (status: number, body: unknown) => TryResult,
): Promise<TryResult> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: judged on the status and the raw text.
  }
  return judge(res.status, body);
}

/** The detail for a refused request: the status and what the provider said, kept short. */
export function refused(status: number, said: unknown): TryResult {
  const text = typeof said === 'string' ? said : JSON.stringify(said);
  return { ok: false, detail: `HTTP ${status} ${text}`.slice(0, 200) };
}

/** A phone number in E.164: numbers written without a country code get the configured one. */
export function e164(phone: string, countryCode: string): string {
  const digits = phone.replace(/[\s-]/g, '');
  return digits.startsWith('+') ? digits : `+${countryCode}${digits}`;
}
