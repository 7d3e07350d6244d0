import { type ApiClient } from '../api/client';
import { fetchAlarmAmount } from '../api/endpoints';
import { type AlarmStore } from '../stores/AlarmStore';
import { fetchUnacknowledgedCount } from './alarmsApi';
import { isRealtimeRunning } from './index';

/** Spec §7/§9: the alarm count is fetched on load and every 30 s. */
export const ALARM_POLL_INTERVAL_MS = 30_000;

/**
 * Feeds the top bar's alarm count until the returned function is called. The live connection
 * (src/realtime/LiveConnection) now owns the count — fetched on (re)connect, every 30 s while
 * polling, or pushed by 'alarm:count' — so while it runs this does nothing; it remains for a
 * page without the connection.
 */
export function startAlarmCountPoll(api: ApiClient, alarms: AlarmStore): () => void {
  if (isRealtimeRunning()) return () => undefined;
  let stopped = false;
  const poll = async () => {
    try {
      const [count, unacknowledged] = await Promise.all([
        fetchAlarmAmount(api),
        fetchUnacknowledgedCount(api),
      ]);
      if (stopped) return;
      alarms.setActiveCount(count);
      alarms.setUnacknowledgedCount(unacknowledged);
    } catch {
      // The client has told the user; the next poll tries again.
    }
  };
  void poll();
  const timer = setInterval(() => void poll(), ALARM_POLL_INTERVAL_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
