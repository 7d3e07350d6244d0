/** A task run at most once every `ms`: see atMostEvery. */
export interface SpacedTask {
  /** Asks for a run: now if the last was `ms` ago or more, else once when that time is up. */
  request(): void;
  /** Runs now whatever the spacing (a new list, a new language), dropping a waiting run. */
  now(): void;
  /** Drops a waiting run; nothing runs after this. */
  dispose(): void;
}

/**
 * Spaces a task's runs at least `ms` apart, running the first request at once and the last of
 * a burst when its time comes: what the task shows is never more than `ms` behind.
 */
export function atMostEvery(ms: number, run: () => void): SpacedTask {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const runNow = () => {
    clearTimeout(timer);
    timer = undefined;
    last = Date.now();
    run();
  };
  return {
    request() {
      if (timer !== undefined) return;
      const wait = last + ms - Date.now();
      if (wait <= 0) runNow();
      else timer = setTimeout(runNow, wait);
    },
    now: runNow,
    dispose() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
