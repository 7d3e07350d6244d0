import type { IngestPipeline } from '../ingest/pipeline';
import type { AlarmChange } from './lifecycle';

/** Whatever wants to hear about alarm changes made in this process: the live hub. */
export interface AlarmListener {
  alarmChanged(change: AlarmChange): void;
}

/**
 * Alarm changes of one server process, told after their transaction commits. The routes and
 * the engine find the same bus through the ingest pipeline they share (the app context carries
 * the pipeline, not the hub), so neither needs to know who listens.
 */
export class AlarmBus {
  private readonly listeners: AlarmListener[] = [];
  private readonly rulesListeners: Array<(houseId: number | null) => void> = [];

  listen(listener: AlarmListener): void {
    this.listeners.push(listener);
  }

  emit(changes: readonly AlarmChange[]): void {
    for (const change of changes) for (const l of this.listeners) l.alarmChanged(change);
  }

  /** A house's limits (or, with null, alarm inputs) changed: the engine drops its cache. */
  onRulesChanged(fn: (houseId: number | null) => void): void {
    this.rulesListeners.push(fn);
  }

  rulesChanged(houseId: number | null): void {
    for (const fn of this.rulesListeners) fn(houseId);
  }
}

const buses = new WeakMap<IngestPipeline, AlarmBus>();

export function alarmBusOf(pipeline: IngestPipeline): AlarmBus {
  let bus = buses.get(pipeline);
  if (!bus) {
    bus = new AlarmBus();
    buses.set(pipeline, bus);
  }
  return bus;
}
