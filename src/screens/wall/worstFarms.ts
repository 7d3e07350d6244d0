import type { FarmView } from './wallModel';

/**
 * The farms with an open alarm, most open alarms first (ties by name, so the order holds still
 * between two looks). The tour visits the first few of them.
 */
export function worstFarmIds(store: { views: readonly FarmView[] }): number[] {
  return store.views
    .filter((f) => f.alarmCount > 0)
    .sort((a, b) => b.alarmCount - a.alarmCount || a.name.localeCompare(b.name))
    .map((f) => f.farmId);
}
