import { type GatewayEventMessage } from '../../src/contract/gateway';
import { type ActiveFaults } from './faults';

/** An alarm unit raises its own alarm this far above target, and clears it 1 °C lower. */
const HIGH_TEMPERATURE_ALARM_C = 4;

/**
 * The alarms a gateway raises itself, on its `event` topic: controllers report unplugged
 * probes and failed fans, alarm units unplugged probes and high temperature; collectors raise
 * none. Each alarm is sent when it starts (active) and when it ends.
 */
export class GatewayAlarms {
  private previous: ActiveFaults | null = null;
  private highTemperature = false;

  constructor(private readonly kind: 'controller' | 'collector' | 'alarm') {}

  update(ts: number, faults: ActiveFaults, overshootC: number): GatewayEventMessage[] {
    const before = this.previous;
    this.previous = faults;
    if (this.kind === 'collector') return [];
    const events: GatewayEventMessage[] = [];
    const probeBefore = before?.probe ?? null;
    if (probeBefore !== faults.probe) {
      if (probeBefore !== null) events.push(probeEvent(ts, probeBefore, false));
      if (faults.probe !== null) events.push(probeEvent(ts, faults.probe, true));
    }
    if (this.kind === 'controller') {
      const failedBefore = before?.failedFans ?? 0;
      if (failedBefore > 0 !== faults.failedFans > 0) {
        const fans = Math.max(failedBefore, faults.failedFans);
        events.push({
          ts,
          kind: 'alarm',
          code: 'fan_failure',
          active: faults.failedFans > 0,
          text: `Fans 1–${fans} failed`,
        });
      }
      return events;
    }
    const alarm = this.highTemperature
      ? overshootC > HIGH_TEMPERATURE_ALARM_C - 1
      : overshootC > HIGH_TEMPERATURE_ALARM_C;
    if (alarm !== this.highTemperature) {
      this.highTemperature = alarm;
      events.push({
        ts,
        kind: 'alarm',
        code: 'high_temperature',
        active: alarm,
        text: `Indoor temperature ${alarm ? 'above' : 'back below'} target + ${HIGH_TEMPERATURE_ALARM_C} °C`,
      });
    }
    return events;
  }
}

function probeEvent(ts: number, probe: number, active: boolean): GatewayEventMessage {
  return {
    ts,
    kind: 'alarm',
    code: `probe_${probe}_disconnected`,
    active,
    text: `Temperature probe ${probe} not connected`,
  };
}
