import type { Reading } from '../../server/ingest/types';

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
