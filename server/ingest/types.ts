import type { DecodedReading } from './decode';

/** A decoded reading with the gateway and house it belongs to. */
export interface Reading extends DecodedReading {
  gatewayId: number;
  houseId: number;
  farmId: number;
  networkId: string;
  receivedAt: Date;
}
