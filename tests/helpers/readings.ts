import type { Reading } from '../../server/ingest/types';
import { createFleet } from '../../server/simulator/houseModel';

/**
 * A decoded reading of one house, as the pipeline hands it to the writer and its listeners:
 * received when it was taken, mode 1, no faults or devices unless `fields` says otherwise.
 */
export function houseReading(
  house: { gatewayId: number; houseId: number; farmId: number; networkId?: string },
  ts: number,
  fields: Partial<Reading> = {},
): Reading {
  return {
    gatewayId: house.gatewayId,
    houseId: house.houseId,
    farmId: house.farmId,
    networkId: house.networkId ?? 'test-gateway',
    receivedAt: new Date(ts),
    ts: new Date(ts),
    seq: null,
    mode: 1,
    metrics: {},
    faults: {},
    devices: {},
    ...fields,
  };
}

/**
 * The messages the simulator's gateways send, one per house of 20 (controllers and collectors,
 * every device state): what the fast ways of decoding must take themselves.
 */
export function simulatorMessages(prefix: string): unknown[] {
  const fleet = createFleet(
    Array.from({ length: 20 }, (_, i) => ({
      networkId: `${prefix}${i}`,
      typeKey: i % 2 === 0 ? 25 : 3,
      breed: 'broiler',
      placedOn: '2026-11-01',
      ageAtPlacement: 1,
      headCount: 20_000,
      latitude: 36,
      longitude: 119,
    })),
    3,
    Date.now(),
  );
  return fleet.map((house) => house.next(Date.now()).message);
}
