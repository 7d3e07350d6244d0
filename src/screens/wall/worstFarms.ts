import type { RankedFarm } from '../../contract/wallRanking';

/** A farm off target this far on the way to its alarm limit is worth a stop of the tour. */
export const TOUR_SHARE_MIN = 0.5;

/**
 * The farms the tour visits, in the ranking's order: those with an open alarm, then those well
 * on the way to one. The tour visits the first few of them.
 */
export function worstFarmIds(top: readonly RankedFarm[]): number[] {
  return top
    .filter((f) => f.alarmCount > 0 || (f.distance?.share ?? 0) >= TOUR_SHARE_MIN)
    .map((f) => f.farmId);
}
