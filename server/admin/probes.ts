import { Refusal } from '../refusal';

/**
 * Login names and gateway network ids are unique across every organisation (a network id is the
 * gateway's identity on the broker, a login name the person's at sign-in), so "taken" also
 * answers for a name held in an organisation the caller cannot see. No answer avoids that
 * without giving up uniqueness; what can be bounded is how often one person may ask. Each such
 * refusal is counted per user; after TAKEN_LIMIT within TAKEN_WINDOW_MS, every further attempt
 * to choose one of these names is refused with 429 *before* it is tried, so success and
 * "taken" stop telling names apart until the window has passed. Kept per process (one budget
 * per app): with several processes the bound is that many times the limit, still far from
 * enumerating anything.
 */
export const TAKEN_LIMIT = 20;
export const TAKEN_WINDOW_MS = 60 * 60 * 1000;

export class TakenBudget {
  private readonly refusals = new Map<number, number[]>();

  /** Refuses (429) a user who has met too many "taken" answers within the window. */
  assert(userId: number, now = Date.now()): void {
    if (this.recent(userId, now).length >= TAKEN_LIMIT)
      throw new Refusal('tooMany', 'admin.tooManyTaken');
  }

  /** Counts one "taken" answer against the user. */
  note(userId: number, now = Date.now()): void {
    this.refusals.set(userId, [...this.recent(userId, now), now]);
  }

  private recent(userId: number, now: number): number[] {
    const kept = (this.refusals.get(userId) ?? []).filter((at) => now - at < TAKEN_WINDOW_MS);
    if (kept.length) this.refusals.set(userId, kept);
    else this.refusals.delete(userId);
    return kept;
  }
}
