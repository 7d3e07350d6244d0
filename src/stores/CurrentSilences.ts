import { makeObservable, observableRef, runInAction } from 'mobx';
import { type ApiClient } from '../api/client';
import { type AlarmCause } from '../contract/alarms';
import { silenceSchema, type Silence } from '../contract/notify';
import { pagedSchema } from '../contract/paged';
import { LatestAsk } from './latestAsk';

const listSchema = pagedSchema(silenceSchema);

/**
 * The silences in force now for the houses this user sees, so that a house card says when its
 * alarm reaches nobody (the alarm list's "Silenced" tag, on the card). Read again on every
 * snapshot and whenever the live hub says a silence began or ended (`silence:changed`, which a
 * planned one's start and an expiry send too). A handful at most: a lookup walks them.
 */
export class CurrentSilences {
  private active: readonly Silence[] = [];
  /** An answer is taken only if no later load was asked meanwhile. */
  private readonly latest = new LatestAsk();

  constructor(private readonly api: ApiClient) {
    makeObservable<CurrentSilences, 'active'>(this, { active: observableRef });
  }

  async load(): Promise<void> {
    const ask = this.latest.ask();
    const list = await this.api.get('/notify/silence/list', {
      query: { state: 'current' },
      schema: listSchema,
      // A console without the notification feature (or offline) shows cards without the tag.
      quiet: () => true,
    });
    // A snapshot's load and a `silence:changed` one may cross: the later one says what is now.
    if (!this.latest.isLatest(ask)) return;
    runInAction(() => (this.active = list.rows.filter((s) => s.state === 'active')));
  }

  /** Whether an alarm of this cause in this house reaches nobody now. */
  holds(farmId: number, houseId: number, cause: AlarmCause): boolean {
    return this.active.some(
      (s) =>
        s.farmId === farmId &&
        (s.houseId === null || s.houseId === houseId) &&
        (s.cause === null || s.cause === cause),
    );
  }

  clear(): void {
    this.latest.forget();
    runInAction(() => (this.active = []));
  }
}
