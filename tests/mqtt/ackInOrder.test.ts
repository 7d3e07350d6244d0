import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';

/**
 * A gateway's readings reach the monitor as they arrive, even while its earlier ones wait for
 * their commit, and each is acknowledged only after its commit, in the order they were sent.
 */
describe.each(testDatabaseTargets())('acknowledgements on $name', (target) => {
  let t: TestRoost;
  let gw: { networkId: string; houseId: number };
  let client: MqttClient;
  const accepted: number[] = [];

  beforeAll(async () => {
    t = await startTestRoost(target);
    gw = await t.gatewayOf('Weifang Broiler Farm', 'House 4', 'token-w4');
    client = await t.gateway(gw.networkId, 'token-w4');
    t.roost.events.on('readingAccepted', (r) => {
      if (r.houseId === gw.houseId) accepted.push(r.ts.getTime());
    });
  });
  afterAll(() => t?.stop());

  const send = (ts: number) =>
    client.publishAsync(
      `roost/v1/${gw.networkId}/telemetry`,
      JSON.stringify({ ts, metrics: { temperature: 24 + (ts % 7) / 10 } }),
      { qos: 1 },
    );
  const until = async (check: () => boolean, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const stored = async (times: number[]) =>
    (
      await t.roost.database.query<{ n: number }>(
        'select count(*)::int as n from telemetry where house_id = $1 and ts = any($2::timestamptz[])',
        [gw.houseId, times.map((ms) => new Date(ms).toISOString())],
      )
    )[0]!.n;

  it("hears a gateway's next reading while its last ones wait for the database, and acknowledges each after its commit, in order", async () => {
    const base = Date.now() - 120_000;
    await send(base); // the house's state row exists from here on
    // Hold the writer: PGlite's one lock, or the house's state row on PostgreSQL.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const held = t.roost.database.transaction(async ({ query }) => {
      await query('select 1 from house_state where house_id = $1 for update', [gw.houseId]);
      locked();
      await gate;
    });
    await holding;
    const acks: number[] = [];
    const [first, second, third] = [1_000, 2_000, 3_000].map((ms) => base + ms) as [
      number,
      number,
      number,
    ];
    // Two readings in one TCP segment, as a busy gateway's arrive: the broker reads them together.
    const stream = (client as unknown as { stream: { cork(): void; uncork(): void } }).stream;
    stream.cork();
    const sent = [send(first), send(second)];
    stream.uncork();
    sent.forEach((ack, i) => void ack.then(() => acks.push([first, second][i]!)));
    await until(() => accepted.includes(first) && accepted.includes(second));
    // Before, the broker read nothing more of this gateway until both were acknowledged, after
    // their commit: the monitor saw nothing of the third for a whole write.
    const thirdAck = send(third).then(() => acks.push(third));
    await until(() => accepted.includes(third), 5_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(acks).toEqual([]);
    release();
    await held;
    await Promise.all([...sent, thirdAck]);
    expect(acks).toEqual([first, second, third]);
    expect(await stored([first, second, third])).toBe(3);
  }, 60_000);
});
