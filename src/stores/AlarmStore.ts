import { makeAutoObservable } from 'mobx';

/** The real-time alarm count of the top bar; fed by src/realtime. */
export class AlarmStore {
  activeCount = 0;

  constructor() {
    makeAutoObservable(this);
  }

  setActiveCount(count: number): void {
    this.activeCount = Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;
  }
}
