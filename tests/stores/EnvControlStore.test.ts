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

  it('keeps "sent" when the send’s own answer ("queued") arrives after the live event', () => {
    const store = new EnvControlStore({} as ApiClient);
    store.details = { houseId: 7, params: {}, commands: [] } as unknown as GatewayDetails;
    store.applyCommand(command('sent'));
    store.applyCommand(command('queued'));
    expect(store.details.commands.map((c) => c.state)).toEqual(['sent']);
  });
});

/** An API whose reads wait until the test answers them, in any order. */
function heldApi() {
  const reads: { path: string; answer: (value: unknown) => void }[] = [];
  const api = {
    get: (path: string) => new Promise((resolve) => reads.push({ path, answer: resolve })),
  } as unknown as ApiClient;
  /** Answers the n-th read of the house (and its records) with these commands. */
  const answer = (n: number, commands: Command[]) => {
    const [house, records] = reads.slice(n * 2, n * 2 + 2);
    house!.answer({ houseId: 7, params: { heat_offset: 1 }, commands });
    records!.answer({ rows: [], total: 0 });
  };
  return { api, reads, answer };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A store with house 7 read once (no commands), and the held API's `answer`. */
async function loadedStore() {
  const { api, answer } = heldApi();
  const store = new EnvControlStore(api);
  const first = store.load(7);
  answer(0, []);
  await first;
  return { store, answer };
}

describe('EnvControlStore.load', () => {
  it('keeps a command sent while a read was on its way when the read answers without it', async () => {
    const { store, answer } = await loadedStore();
    // A read starts (as an "applied" event would start one), then the send's answer lands
    // before the read's, which the server answered before the command existed.
    const second = store.load(7);
    store.applyCommand(command('queued'));
    expect(store.pending.map((c) => c.id)).toEqual(['c1']);
    answer(1, []);
    await second;
    expect(store.pending.map((c) => c.state)).toEqual(['queued']);
  });

  it('takes only the latest read when two answer out of order', async () => {
    const { store, answer } = await loadedStore();
    const older = store.load(7);
    const newer = store.load(7);
    answer(2, [command('sent')]);
    await newer;
    answer(1, []);
    await older;
    await settle();
    expect(store.pending.map((c) => c.state)).toEqual(['sent']);
  });

  it('does not take a read’s older state over a newer one heard while it was on its way', async () => {
    const { store, answer } = await loadedStore();
    const second = store.load(7);
    store.applyCommand(command('sent'));
    answer(1, [command('queued')]);
    await second;
    expect(store.pending.map((c) => c.state)).toEqual(['sent']);
  });
});
