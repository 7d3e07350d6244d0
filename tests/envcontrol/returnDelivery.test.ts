import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command, GatewayDetails } from '../../src/contract/envcontrol';
import { RESEND_AFTER_MS } from '../../server/envcontrol/dispatcher';
import { gatewayTopic } from '../../src/contract/gateway';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';

/**
 * A gateway that comes back says "online" on connecting, and may subscribe to its commands
 * only afterwards, on a session the broker did not keep (a clean session, a restarted
 * broker). What the server sent on the "online" reached nobody: the gateway must still get
 * its waiting command as soon as it listens, not a resend period later.
 */
describe.each(testDatabaseTargets())('a returning gateway on $name', (target) => {
  let t: TestRoost;
  let admin: string;
  let gw: { networkId: string; houseId: number };
  const TOKEN = 'token-returning-gateway';

  const api = <T>(path: string, body?: unknown, locale?: string) =>
    t.api<T>(admin, path, body, locale);
  const house = () =>
    api<GatewayDetails>(`/envcontrol/house?houseId=${gw.houseId}`).then((r) => r.body.data);
  const stateOf = async (id: string) => (await house()).commands.find((c) => c.id === id)?.state;
  const status = (online: boolean) =>
    JSON.stringify({ online, network: 'wired', version: '2.8.4' });

  beforeAll(async () => {
    t = await startTestRoost(target);
    admin = await t.signIn('admin');
    gw = await t.gatewayOf('Weifang Broiler Farm', 'House 1', TOKEN);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('gets a command that waited as soon as it subscribes, even after "online" came first', async () => {
    const statusTopic = gatewayTopic(gw.networkId, 'status');
    // Online once, then away: the command waits.
    const first = await t.gateway(gw.networkId, TOKEN, { clean: true });
    await first.publishAsync(statusTopic, status(true), { qos: 1, retain: true });
    await waitFor(async () => ((await house()).gateway?.online ? 1 : undefined));
    await first.publishAsync(statusTopic, status(false), { qos: 1, retain: true });
    await first.endAsync();
    await waitFor(async () => ((await house()).gateway?.online === false ? 1 : undefined));
    const sent = await api<{ commands: Command[] }>('/envcontrol/send', {
      houseIds: [gw.houseId],
      params: { heat_offset: 3 },
    });
    expect(sent.status).toBe(200);
    const id = sent.body.data.commands[0]!.id;
    expect(await stateOf(id)).toBe('queued');

    // Back, on a fresh clean session: "online" first, the subscription only after the server
    // has sent the command on that news (to no subscriber yet).
    const back = await t.gateway(gw.networkId, TOKEN, { clean: true });
    const received: string[] = [];
    back.on('message', (topic, payload) => {
      if (topic === gatewayTopic(gw.networkId, 'config/set'))
        received.push((JSON.parse(payload.toString()) as { id: string }).id);
    });
    await back.publishAsync(statusTopic, status(true), { qos: 1, retain: true });
    await waitFor(async () => ((await stateOf(id)) === 'sent' ? 1 : undefined));
    expect(received).toEqual([]);
    await back.subscribeAsync(gatewayTopic(gw.networkId, 'config/set'), { qos: 1 });
    // Well before the resend would carry it: the subscription itself brings it.
    await waitFor(() => (received.includes(id) ? 1 : undefined), RESEND_AFTER_MS / 2);

    await back.publishAsync(
      gatewayTopic(gw.networkId, 'config/ack'),
      JSON.stringify({ id, status: 'applied', values: { heat_offset: 3 } }),
      { qos: 1 },
    );
    await waitFor(async () => ((await stateOf(id)) === 'applied' ? 1 : undefined));
    await back.endAsync();
  });
});
