import { computed, makeObservable, observableRef } from 'mobx';
import { type AlarmChanges } from './alarmChanges';
import { type AlarmChange } from './wallModel';
import { TICKER_MAX_ENTRIES } from './constants';

/** One line of the ticker: a raise or a clear, named, with when the wall saw it. */
export interface TickerEntry extends AlarmChange {
  id: number;
  houseName: string;
  at: number;
}

/**
 * The ticker's entries, newest first: the raises and clears the wall saw while it runs,
 * bounded (TICKER_MAX_ENTRIES) for a wall that stays on for weeks.
 */
export class TickerFeed {
  entries: TickerEntry[] = [];
  private nextId = 1;

  constructor() {
    makeObservable<TickerFeed, 'nextId'>(this, {
      entries: observableRef,
      empty: computed,
      nextId: false,
    });
  }

  /** No line yet (a computed: the ticker's panel renders only when this flips). */
  get empty(): boolean {
    return this.entries.length === 0;
  }

  /**
   * One update's raises and clears, named here for the few the ticker keeps (the tally counts
   * changes by id only); a house no longer known is left out. Called inside an action.
   */
  add(changes: AlarmChanges, houseNameOf: (houseId: number) => string | undefined): void {
    if (changes.size === 0) return;
    const at = Date.now();
    const added: TickerEntry[] = [];
    changes.forEachNewest((change) => {
      const houseName = houseNameOf(change.houseId);
      if (houseName !== undefined) added.push({ ...change, id: this.nextId++, houseName, at });
    });
    this.entries = [...added.reverse(), ...this.entries].slice(0, TICKER_MAX_ENTRIES);
  }
}
