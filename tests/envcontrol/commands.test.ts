import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkParam, type Command, type GatewayDetails } from '../../src/contract/envcontrol';
import { startSimulator, type RunningSimulator } from '../../server/simulator/simulator';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { waitFor } from '../helpers/waitFor';

describe.each(testDatabaseTargets())('remote configuration on $name', (target) => {
  let t: TestRoost;
  let sim: RunningSimulator;
  let admin: string;
  let farm: string;
  let weifang: Array<{ houseId: number; networkId: string; token: string }>;

  const api = <T>(token: string, path: string, body?: unknown, locale?: string) =>
    t.api<T>(token, path, body, locale);
  const house = (houseId: number) =>
    api<GatewayDetails>(admin, `/envcontrol/house?houseId=${houseId}`).then((r) => r.body.data);
  const commandOf = async (houseId: number, id: string) =>
    (await house(houseId)).commands.find((c) => c.id === id);
  const finalState = (houseId: number, id: string, state: Command['state']) =>
    waitFor(async () => {
      const c = await commandOf(houseId, id);
      return c?.state === state ? c : undefined;
    });

  beforeAll(async () => {
    t = await startTestRoost(target);
    const gateways = t.roost.boot.demoGateways!.filter(
      (g) => g.farmName === 'Weifang Broiler Farm',
    );
    weifang = gateways.map((g) => ({ houseId: g.houseId, networkId: g.networkId, token: g.token }));
    sim = await startSimulator({
      url: t.mqttUrl,
      gateways,
      intervalMs: 1_000,
      seed: 7,
      controller: { applyDelayMs: [50, 200], localChangeChance: 0 },
    });
    [admin, farm] = [await t.signIn('admin'), await t.signIn('farm')];
    // Every controller has reported its parameters: they are listening for commands.
    for (const g of weifang)
      await waitFor(async () =>
        Object.keys((await house(g.houseId)).params).length ? 1 : undefined,
      );
    // Generous: a shared, loaded machine starts a demo server slowly.
  }, 180_000);
  afterAll(async () => {
    await sim?.stop();
    await t?.stop();
  });

  it('applies a set-point, shows the read-back value to every socket in scope, and records who changed what', async () => {
    const [g] = weifang;
    const socket = await t.socket(admin);
    const farmSocket = await t.socket(farm);
    const seen: Command[] = [];
    const farmSeen: Command[] = [];
    socket.on('command:updated', (c) => seen.push(c));
    farmSocket.on('command:updated', (c) => farmSeen.push(c));
    const before = (await house(g!.houseId)).params.heat_offset;
    const sent = await api<{ commands: Command[] }>(admin, '/envcontrol/send', {
      houseIds: [g!.houseId],
      params: { heat_offset: 2.5 },
    });
    expect(sent.status).toBe(200);
    const [command] = sent.body.data.commands;
    expect(command!.state).toBe('queued');
    const applied = await finalState(g!.houseId, command!.id, 'applied');
    expect(applied.readBack).toEqual({ heat_offset: 2.5 });
    expect((await house(g!.houseId)).params.heat_offset).toBe(2.5);
    await waitFor(() => (farmSeen.some((c) => c.state === 'applied') ? 1 : undefined));
    expect(seen.map((c) => c.state)).toEqual(expect.arrayContaining(['queued', 'sent', 'applied']));
    const records = await api<{
      rows: Array<{ key: string; oldValue: number; newValue: number; source: string }>;
    }>(admin, `/envcontrol/records?houseId=${g!.houseId}`);
    expect(records.body.data.rows[0]).toMatchObject({
      key: 'heat_offset',
      oldValue: before,
      newValue: 2.5,
      source: 'console',
    });
    const log = await t.roost.database.query<{ n: number }>(
      `select count(*)::int as n from operation_logs where function = 'envcontrol.send' and params->>'command' = $1`,
      [command!.id],
    );
    expect(Number(log[0]!.n)).toBe(1);
  });

  it('keeps a command for an offline gateway until it returns', async () => {
    const g = weifang[1]!;
    const gw = sim.gateway(g.networkId)!;
    gw.holdOffline(true);
    await waitFor(async () => ((await house(g.houseId)).gateway?.online === false ? 1 : undefined));
    const sent = await api<{ commands: Command[] }>(admin, '/envcontrol/send', {
      houseIds: [g.houseId],
      params: { alarm_temp_high: 36 },
    });
    const id = sent.body.data.commands[0]!.id;
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await commandOf(g.houseId, id))?.state).toBe('queued');
    gw.holdOffline(false);
    const applied = await finalState(g.houseId, id, 'applied');
    expect(applied.readBack).toEqual({ alarm_temp_high: 36 });
  });

  it('shows the controller’s reason for a rejection, and expires what nobody answered', async () => {
    const g = weifang[2]!;
    const rejected = await api<{ commands: Command[] }>(admin, '/envcontrol/send', {
      houseIds: [g.houseId],
      params: { alarm_temp_low: 34, alarm_temp_high: 30 },
    });
    const r = await finalState(g.houseId, rejected.body.data.commands[0]!.id, 'rejected');
    expect(r.reason).toMatch(/low temperature alarm must be below/);

    const off = weifang[3]!;
    sim.gateway(off.networkId)!.holdOffline(true);
    await waitFor(async () =>
      (await house(off.houseId)).gateway?.online === false ? 1 : undefined,
    );
    const expiring = await api<{ commands: Command[] }>(admin, '/envcontrol/send', {
      houseIds: [off.houseId],
      params: { light_hours: 20 },
      expiresInSeconds: 5,
    });
    const e = await finalState(off.houseId, expiring.body.data.commands[0]!.id, 'expired');
    expect(e.reason).toBe('expired');
    sim.gateway(off.networkId)!.holdOffline(false);
  });

  it('refuses empty and out-of-range values, and users without remote configuration (403)', async () => {
    const g = weifang[0]!;
    const empty = await api(admin, '/envcontrol/send', {
      houseIds: [g.houseId],
      params: { heat_offset: null },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toMatch(/must not be empty/);
    const range = await api(admin, '/envcontrol/send', {
      houseIds: [g.houseId],
      params: { heat_offset: 50 },
    });
    expect(range.status).toBe(400);
    expect(range.body.msg).toMatch(/between 0 and 5/);
    const forbidden = await api(farm, '/envcontrol/send', {
      houseIds: [g.houseId],
      params: { heat_offset: 1 },
    });
    expect(forbidden.status).toBe(403);
    const view = await api<GatewayDetails>(farm, `/envcontrol/house?houseId=${g.houseId}`);
    expect(view.body.data.canSend).toBe(false);
    // A house outside the caller's scope is not there.
    const shack = await t.signIn('shack');
    const outside = await api(shack, `/envcontrol/house?houseId=${weifang[7]!.houseId}`);
    expect(outside.status).toBe(404);
  });

  it('changes nothing on a duplicated acknowledgement, and ignores another gateway’s acknowledgement', async () => {
    const [a, b] = [weifang[4]!, weifang[5]!];
    sim.gateway(a.networkId)!.holdOffline(true);
    await waitFor(async () => ((await house(a.houseId)).gateway?.online === false ? 1 : undefined));
    const sent = await api<{ commands: Command[] }>(admin, '/envcontrol/send', {
      houseIds: [a.houseId],
      params: { feed_hour_1: 7 },
    });
    const id = sent.body.data.commands[0]!.id;
    // Gateway b tries to acknowledge a's command, and may not subscribe to a's commands. Its
    // simulated self stays away meanwhile: a new connection of a gateway takes over from the
    // older one, and the two would take turns.
    sim.gateway(b.networkId)!.holdOffline(true);
    const intruder = await t.gateway(b.networkId, b.token);
    await intruder.publishAsync(
      `roost/v1/${b.networkId}/config/ack`,
      JSON.stringify({ id, status: 'rejected', reason: 'forged' }),
      { qos: 1 },
    );
    // Another gateway's commands are refused in the SUBACK (0x80), where the gateway sees it;
    // its connection stays open and its own wildcard is taken.
    await expect(
      intruder.subscribeAsync(`roost/v1/${a.networkId}/config/set`, { qos: 1 }),
    ).rejects.toMatchObject({ packet: { granted: [128] } });
    expect(intruder.connected).toBe(true);
    const itsOwn = await intruder.subscribeAsync(`roost/v1/${b.networkId}/#`, { qos: 1 });
    expect(itsOwn.map((g) => g.qos)).toEqual([1]);
    expect((await commandOf(a.houseId, id))?.state).toBe('queued');
    intruder.end(true);
    sim.gateway(b.networkId)!.holdOffline(false);
    sim.gateway(a.networkId)!.holdOffline(false);
    const applied = await finalState(a.houseId, id, 'applied');
    // The same acknowledgement again, now saying rejected: nothing changes.
    sim.gateway(a.networkId)!.holdOffline(true);
    const own = await t.gateway(a.networkId, a.token);
    await own.publishAsync(
      `roost/v1/${a.networkId}/config/ack`,
      JSON.stringify({ id, status: 'rejected', reason: 'again' }),
      { qos: 1 },
    );
    own.end(true);
    sim.gateway(a.networkId)!.holdOffline(false);
    expect(await commandOf(a.houseId, id)).toEqual(applied);
  });

  it('fills the curve and the alarm limits from the flock’s breed standard, every value one the API accepts', async () => {
    const g = weifang[0]!;
    const typeKey = (await house(g.houseId)).gateway!.typeKey;
    const auto = await api<{ params: Record<string, number> }>(
      admin,
      `/envcontrol/autoConfig?houseId=${g.houseId}`,
    );
    const params = auto.body.data.params;
    expect(Object.keys(params)).toEqual(
      expect.arrayContaining([
        'curve_temp_d1',
        'curve_temp_d42',
        'alarm_temp_high',
        'alarm_temp_low',
      ]),
    );
    // A broiler curve falls with age.
    expect(params.curve_temp_d1!).toBeGreaterThan(params.curve_temp_d42!);
    for (const [key, value] of Object.entries(params))
      expect(checkParam(typeKey, key, value)).toBeNull();
  });

  it('records a change made at the controller as a local change', async () => {
    const g = weifang[6]!;
    const before = (await house(g.houseId)).params.heat_offset!;
    sim.gateway(g.networkId)!.controller.changeLocally('heat_offset', 0.5);
    const rows = await waitFor(async () => {
      const r = await api<{ rows: Array<{ source: string; oldValue: number; newValue: number }> }>(
        admin,
        `/envcontrol/records?houseId=${g.houseId}&source=local`,
      );
      return r.body.data.rows.length > 0 ? r.body.data.rows : undefined;
    });
    expect(rows[0]).toMatchObject({ source: 'local', oldValue: before, newValue: before + 0.5 });
    // Among the day's reminders: what changed, to what, by whom (here: the controller itself).
    const today = await api<{ rows: Array<{ kind: string; text: string; params: object }> }>(
      admin,
      `/reminder/today?houseId=${g.houseId}`,
    );
    expect(today.body.data.rows).toContainEqual(
      expect.objectContaining({
        kind: 'paramChange',
        text: 'envcontrol.reminder.changed',
        params: {
          parameterKey: 'envcontrol.param.heat_offset',
          value: `${before + 0.5} ℃`,
          whoKey: 'envcontrol.records.controller',
        },
      }),
    );
  });
});
