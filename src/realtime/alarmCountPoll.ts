import { type ApiClient } from '../api/client';
import { fetchAlarmAmount } from '../api/endpoints';
import { type AlarmStore } from '../stores/AlarmStore';

/** Spec §7/§9: the alarm count is fetched on load and every 30 s. */
export const ALARM_POLL_INTERVAL_MS = 30_000;

/**
 * Feeds the top bar's alarm count until the returned function is called. Until the live hub
 * sends counts, this poll is the only source; failures keep the last count.
 */
export function startAlarmCountPoll(api: ApiClient, alarms: AlarmStore): () => void {
  let stopped = false;
  const poll = async () => {
    try {
      const count = await fetchAlarmAmount(api);
      if (!stopped) alarms.setActiveCount(count);
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
