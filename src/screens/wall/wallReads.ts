import { action, compareStructural, makeObservable, observableRef } from 'mobx';
import { type z } from 'zod';
import { type ApiClient } from '../../api/client';

/**
 * The wall's refreshes: a failed one is retried by the next poll or reconnect (no toast on a
 * wall), and none shows in the progress bar (the wall refreshes itself, nobody waits on it).
 */
export const polled = { quiet: () => true, background: true } as const;

/**
 * The last answer of one of the wall's reads (today's causes, the day's production). An answer
 * equal to the one shown changes nothing, so its panel does not render again: on a quiet night
 * every 30 s read answers the same. A failed read keeps what was shown; the stale banner tells
 * the wall when the connection is gone, and the next refresh or reconnect reads again.
 */
export class LatestAnswer<T> {
  /** Null until the first answer (or for good, on a server without this read). */
  value: T | null = null;

  constructor(
    private readonly api: Pick<ApiClient, 'get'>,
    private readonly path: string,
    private readonly schema: z.ZodType<T>,
  ) {
    makeObservable(this, { value: observableRef });
  }

  async load(): Promise<void> {
    let answer: T;
    try {
      answer = await this.api.get(this.path, { schema: this.schema, ...polled });
    } catch {
      return;
    }
    if (!compareStructural(answer, this.value)) action(() => (this.value = answer))();
  }
}

/**
 * Runs each of `refreshes` once every `periodMs`, one at a time and evenly apart, rather than
 * all at once: answered together, the answers and the panels they change fell into one second
 * with a status batch. In the wall bench's traces (10,000 farms) the refresh's timer and answers
 * took 6–8 ms of that one second. Answers the disposer.
 */
export function spreadRefreshes(periodMs: number, refreshes: readonly (() => void)[]): () => void {
  if (refreshes.length === 0) return () => {};
  let turn = 0;
  const timer = setInterval(
    () => refreshes[turn++ % refreshes.length]!(),
    periodMs / refreshes.length,
  );
  return () => clearInterval(timer);
}
