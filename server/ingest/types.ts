import type { AlarmSummary } from '../../src/contract/alarms';
import type { DecodedReading } from './decode';

/** A decoded reading with the gateway and house it belongs to. */
export interface Reading extends DecodedReading {
  gatewayId: number;
  houseId: number;
  farmId: number;
  networkId: string;
  receivedAt: Date;
}

/** The latest state of one house as stored in house_state: what the live hub presents. */
export interface HouseLiveState {
  houseId: number;
  farmId: number;
  online: boolean;
  network: string | null;
  gatewayVersion: string | null;
  onlineSince: Date | null;
  lastSeenAt: Date | null;
  lastTs: Date | null;
  mode: number | null;
  metrics: Record<string, number>;
  faults: Record<string, string>;
  devices: Record<string, { state: number; opening?: number }>;
  alarmCount: number;
  alarmTop: AlarmSummary | null;
}

/** Whatever wants to hear about stored readings: alarms, the live hub. */
export interface IngestListener {
  /**
   * A reading that passed validation, before it is stored: only for what may show a reading
   * the moment it arrives (the monitor's full-rate stream). It may be a resend of one already
   * stored, and is stored a moment later (or resent by its gateway if the write fails).
   */
  onAccepted?(reading: Reading): void;
  onStored?(readings: readonly Reading[], states: readonly HouseLiveState[]): void | Promise<void>;
  onStatus?(states: readonly HouseLiveState[]): void | Promise<void>;
}
