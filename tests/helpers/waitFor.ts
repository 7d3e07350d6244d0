/**
 * Polls `probe` until it answers something other than undefined, and answers that; throws after
 * `ms`. For conditions a test waits on (a gateway online, a command applied), never for timing.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  ms = 30_000,
  everyMs = 50,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - start > ms) throw new Error(`nothing within ${ms} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
