import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startRealtime } from '../../src/realtime';
import { LiveConnection } from '../../src/realtime/LiveConnection';
import { createLiveSocket, type LiveSocketFactory } from '../../src/realtime/socket';
import { testDatabaseTargets } from '../helpers/databases';
import { startFaultProxy, type FaultProxy } from '../helpers/faultProxy';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';
import { createTestStores, type TestStores } from '../stores/fakeApi';

/**
 * The console's live connection in Node, against a whole running server: its hub, its API and
 * its broker. No DOM is installed, so the few browser parts the class touches stand in as
 * plain objects: `window` and `document` as event targets (online, offline, a tab coming back
 * into view), and animation frames as short timers.
 */
function standInBrowser() {
  const document = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  let next = 0;
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('document', document);
  vi.stubGlobal('requestAnimationFrame', (callback: (at: number) => void) => {
    const handle = ++next;
    timers.set(
      handle,
      setTimeout(() => {
        timers.delete(handle);
        callback(performance.now());
      }, 16),
    );
    return handle;
  });
  vi.stubGlobal('cancelAnimationFrame', (handle: number) => {
    clearTimeout(timers.get(handle));
    timers.delete(handle);
  });
  return { tabShown: () => document.dispatchEvent(new Event('visibilitychange')) };
}

const publish = (client: MqttClient, id: string, metrics: Record<string, number>) =>
  client.publishAsync(`roost/v1/${id}/telemetry`, JSON.stringify({ ts: Date.now(), metrics }), {
    qos: 1,
  });

const [pglite] = testDatabaseTargets();

describe('LiveConnection against a running server', () => {
  let t: TestRoost;
  let proxy: FaultProxy;
  /** The socket reaches the hub through the proxy, so the stream can drop while HTTP stays. */
  let throughProxy: LiveSocketFactory;
  let browser: ReturnType<typeof standInBrowser>;
  let house: { networkId: string; houseId: number };
  let gateway: MqttClient;
  const running: Array<() => void> = [];

  /** A console signed in as `username`: real HTTP to the server, its stores recording sign-outs. */
  async function consoleOf(username: string): Promise<TestStores<never>> {
    const token = await t.signIn(username);
    const fetch: typeof globalThis.fetch = (input, init) =>
      globalThis.fetch(new URL(String(input), t.url), init);
    return createTestStores({}, { fetch, cookies: { 'Admin-Token': token, 'Admin-UserId': '1' } });
  }

  function connect(s: TestStores<never>): LiveConnection {
    const { stores } = s;
    const connection = new LiveConnection(
      stores.api,
      () => stores.session.token,
      stores,
      throughProxy,
    );
    connection.start();
    running.push(() => connection.stop());
    return connection;
  }

  beforeAll(async () => {
    browser = standInBrowser();
    t = await startTestRoost(pglite!);
    proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(t.url).port) });
    throughProxy = (token) => createLiveSocket(token, `http://127.0.0.1:${proxy.port}`);
    const found = await t.gatewayOf('Weifang Broiler Farm', 'House 5', 'tok-live');
    house = found;
    gateway = await t.gateway(found.networkId, 'tok-live');
  });
  afterEach(() => {
    for (const stop of running.splice(0)) stop();
    proxy.restore();
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.stop();
    vi.unstubAllGlobals();
  });

  it('goes live on a snapshot of its own and applies what the hub sends after it', async () => {
    const s = await consoleOf('admin');
    const connection = connect(s);
    expect(connection.state).toBe('connecting');
    await waitFor(() => (connection.state === 'live' ? true : undefined));
    const overview = await t.api<{ total: number }>(
      s.stores.session.token!,
      '/overview/listOverview/',
    );
    expect(s.stores.houses.loaded).toBe(true);
    expect(s.stores.houses.all.length).toBe(overview.body.data.total);

    await publish(gateway, house.networkId, { temperature: 25.5 });
    await waitFor(() =>
      s.stores.houses.get(house.houseId)?.live.metrics['temperature'] === 25.5 ? true : undefined,
    );
  });

  it('polls when the stream drops, fetches what it missed, and goes live again on its return', async () => {
    const s = await consoleOf('admin');
    const connection = connect(s);
    await waitFor(() => (connection.state === 'live' ? true : undefined));
    const liveSince = s.stores.live.lastUpdateAt!;

    proxy.cutOff();
    await waitFor(() => (connection.state === 'polling' ? true : undefined));
    // Falling back fetches a snapshot at once, not 30 s later.
    await waitFor(() => (s.stores.live.lastUpdateAt! > liveSince ? true : undefined));

    // A change the stream cannot carry now: a tab back in view fetches it.
    await publish(gateway, house.networkId, { temperature: 31.5 });
    const token = s.stores.session.token!;
    await waitFor(async () => {
      const rows = await t.api<{ rows: Array<{ houseId: number; live: { metrics: object } }> }>(
        token,
        '/overview/listOverview/',
      );
      const row = rows.body.data.rows.find((r) => r.houseId === house.houseId);
      return (row?.live.metrics as Record<string, number>)['temperature'] === 31.5
        ? true
        : undefined;
    });
    browser.tabShown();
    await waitFor(() =>
      s.stores.houses.get(house.houseId)?.live.metrics['temperature'] === 31.5 ? true : undefined,
    );
    expect(connection.state).toBe('polling');

    proxy.restore();
    await waitFor(() => (connection.state === 'live' ? true : undefined), 30_000);
    await publish(gateway, house.networkId, { temperature: 22.5 });
    await waitFor(() =>
      s.stores.houses.get(house.houseId)?.live.metrics['temperature'] === 22.5 ? true : undefined,
    );
  });

  it('follows a house at full rate, asks again after a reconnection, and lets go', async () => {
    const s = await consoleOf('admin');
    const connection = connect(s);
    await waitFor(() => (connection.state === 'live' ? true : undefined));
    const leave = connection.subscribeHouse(house.houseId);
    // Only `house:reading`, the full-rate stream of a followed house, adds to its curves.
    const curve = () => s.stores.houses.get(house.houseId)?.readings['humidity'] ?? [];
    await waitFor(async () => {
      await publish(gateway, house.networkId, { humidity: 61 });
      return curve().some((p) => p.v === 61) ? true : undefined;
    });

    proxy.cutOff();
    await waitFor(() => (connection.state === 'polling' ? true : undefined));
    proxy.restore();
    await waitFor(() => (connection.state === 'live' ? true : undefined), 30_000);
    await waitFor(async () => {
      await publish(gateway, house.networkId, { humidity: 62 });
      return curve().some((p) => p.v === 62) ? true : undefined;
    });

    leave();
    // The leave travels through the proxy and the reading through the broker: nothing orders
    // the two, so the reading is sent once the hub has let the house go.
    await waitFor(async () =>
      (await t.roost.live.io.in(`monitor:${house.houseId}`).fetchSockets()).length === 0
        ? true
        : undefined,
    );
    await publish(gateway, house.networkId, { humidity: 63 });
    await waitFor(() =>
      s.stores.houses.get(house.houseId)?.live.metrics['humidity'] === 63 ? true : undefined,
    );
    expect(curve().some((p) => p.v === 63)).toBe(false);
  });

  it('ends when the session ends elsewhere: the refused handshake signs the console out', async () => {
    const s = await consoleOf('farm');
    const stopRealtime = startRealtime(s.stores, throughProxy);
    running.push(stopRealtime);
    await waitFor(() => (s.stores.live.state === 'live' ? true : undefined));
    expect(s.stores.houses.loaded).toBe(true);

    // Signed out in another tab: the hub closes this session's socket.
    const logout = await t.api(s.stores.session.token!, '/logout', {});
    expect(logout.status).toBe(200);
    await waitFor(() => (s.signedOut.length > 0 ? true : undefined));
    expect(s.stores.session.token).toBeUndefined();
    await waitFor(() => (s.stores.live.state === 'idle' ? true : undefined));
    expect(s.stores.houses.loaded).toBe(false);
    expect(s.stores.houses.all).toEqual([]);
  });

  it('stops for good: no socket, no poll, no house kept', async () => {
    const s = await consoleOf('admin');
    const connection = connect(s);
    await waitFor(() => (connection.state === 'live' ? true : undefined));
    connection.stop();
    expect(connection.state).toBe('idle');
    expect(s.stores.houses.all).toEqual([]);
    await publish(gateway, house.networkId, { temperature: 19.5 });
    browser.tabShown();
    await new Promise((r) => setTimeout(r, 500));
    expect(s.stores.houses.all).toEqual([]);
    expect(s.stores.live.state).toBe('idle');
  });
});
