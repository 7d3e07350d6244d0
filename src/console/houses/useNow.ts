import { useEffect, useState } from 'react';

/** "12 s ago" needs a clock; one second is the resolution shown. */
export const CLOCK_TICK_MS = 1_000;

/** The current time, refreshed every `tickMs` while the component is mounted. */
export function useNow(tickMs = CLOCK_TICK_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}
