import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import type { Command, GatewayDetails } from '../../src/contract/envcontrol';
import { EnvControlStore } from '../../src/stores/EnvControlStore';

const command = (state: Command['state']): Command => ({
  id: 'c1',
  houseId: 7,
  houseName: 'House 1',
  networkId: 'GW1',
  kind: 'config',
  state,
  params: { heat_offset: 2 },
  readBack: state === 'applied' ? { heat_offset: 2 } : null,
  reason: null,
  requestedBy: 'admin',
  createdAt: '2026-11-23T10:00:00.000Z',
  sentAt: null,
  finishedAt: null,
  expiresAt: '2026-11-23T11:00:00.000Z',
});

describe('EnvControlStore.applyCommand', () => {
  it('keeps a final state when an older "sent" event arrives after it', () => {
    // No house loaded through the API (houseId stays null): nothing is fetched again.
    const store = new EnvControlStore({} as ApiClient);
    store.details = {
      houseId: 7,
      params: { heat_offset: 1 },
      commands: [command('queued')],
    } as unknown as GatewayDetails;
    store.applyCommand(command('applied'));
    store.applyCommand(command('sent'));
    expect(store.details.commands[0]!.state).toBe('applied');
    expect(store.details.params.heat_offset).toBe(2);
  });
});
