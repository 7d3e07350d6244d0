import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LIVE_FLUSH_INTERVAL_MS,
  STATUS_STRIDE,
  STATUS_UNCHANGED,
  type HouseDelta,
} from '../../src/contract/live';
import { testDatabaseTargets } from '../helpers/databases';
import { houseLiveState } from '../helpers/houseStates';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { statusBatchOf } from '../../src/contract/statusPacking';

type Socket = Awaited<ReturnType<TestRoost['socket']>>;

/** Every delta a socket receives, in order; packed statuses as the deltas they stand for. */
function record(socket: Socket): HouseDelta[] {
  const seen: HouseDelta[] = [];
  socket.on('house:updated', (batch) => seen.push(...batch.deltas));
  socket.on('house:status', (wire) => {
    // The houses come as a binary attachment (a Buffer here): read as the console reads them.
    const batch = statusBatchOf(wire);
    if (!batch) throw new Error('house:status whose bytes are not whole houses');
    const { houses, tops } = batch;
    let top = 0;
    for (let i = 0; i < houses.length; i += STATUS_STRIDE) {
      const delta: HouseDelta = { houseId: houses[i]! };
      if (houses[i + 1] !== STATUS_UNCHANGED) delta.online = houses[i + 1] === 1;
      if (houses[i + 2] !== STATUS_UNCHANGED)
        delta.alarm = { count: houses[i + 2]!, top: tops[top++] ?? null };
      seen.push(delta);
    }
  });
  return seen;
}

/** The events a socket receives, by name. */
function events(socket: Socket): string[] {
  const names: string[] = [];
  socket.onAny((name: string) => names.push(name));
  return names;
}

/** Lets the hub's next flush (4 a second) go out and reach the sockets. */
const flushed = () => new Promise((resolve) => setTimeout(resolve, LIVE_FLUSH_INTERVAL_MS * 3));

describe.each(testDatabaseTargets())(
  'a socket that hears houses’ status only, on $name',
  (target) => {
    let t: TestRoost;
    let inFarm: number[];
    let otherFarm: number;
    let farmIdOf: Map<number, number>;

    beforeAll(async () => {
      t = await startTestRoost(target);
      const houses = await Promise.all([
        t.gatewayOf('Weifang Broiler Farm', 'House 5', 'tok-s5'),
        t.gatewayOf('Weifang Broiler Farm', 'House 6', 'tok-s6'),
        t.gatewayOf('Qingyuan Layer Farm', 'House 1', 'tok-sq1'),
      ]);
      inFarm = [houses[0].houseId, houses[1].houseId];
      otherFarm = houses[2].houseId;
      const rows = await t.roost.database.query<{ id: number; farm_id: number }>(
        `select id, farm_id from houses where id = any($1::int[])`,
        [[...inFarm, otherFarm]],
      );
      farmIdOf = new Map(rows.map((r) => [Number(r.id), Number(r.farm_id)]));
    });
    afterAll(() => t?.stop());

    /** A house's state as the bus announces it after a batch: online, one temperature, alarms. */
    const state = (houseId: number, temperature: number, online = true, alarms = 0) =>
      houseLiveState(houseId, {
        farmId: farmIdOf.get(houseId)!,
        online,
        metrics: { temperature },
        alarmCount: alarms,
      });

    it('hears only online and alarms of houses it does not follow, every field of those it does, and nothing outside its scope', async () => {
      const [a, b] = inFarm as [number, number];
      t.roost.live.publishStates([state(a, 20), state(b, 20), state(otherFarm, 20)]);
      await flushed();
      const farm = await t.socket(await t.signIn('farm'));
      const admin = await t.socket(await t.signIn('admin'));
      expect(
        await farm.emitWithAck('live:detail', { detail: 'status', follow: [a, otherFarm] }),
      ).toEqual({ ok: true });
      const farmSaw = record(farm);
      const farmEvents = events(farm);
      const adminSaw = record(admin);
      const adminEvents = events(admin);

      t.roost.live.publishStates([
        state(a, 21),
        state(b, 22, false, 1),
        state(otherFarm, 23, false),
      ]);
      await flushed();
      // The followed house in full; the other only in what decides its state; the house of
      // another farm not at all, though the socket asked to follow it.
      expect(farmSaw.find((d) => d.houseId === a)).toMatchObject({ metrics: { temperature: 21 } });
      expect(farmSaw.filter((d) => d.houseId === b)).toEqual([
        { houseId: b, online: false, alarm: { count: 1, top: null } },
      ]);
      expect(farmSaw.some((d) => d.houseId === otherFarm)).toBe(false);
      // A socket that asked for nothing hears every field, as before, and nothing packed.
      expect(adminSaw.find((d) => d.houseId === b)).toMatchObject({
        online: false,
        metrics: { temperature: 22 },
      });
      expect(adminEvents).not.toContain('house:status');
      // The other house's status came packed.
      expect(farmEvents).toContain('house:status');

      // Only a reading changed: nothing of it reaches the status-only socket.
      const before = farmSaw.length;
      t.roost.live.publishStates([state(b, 24, false, 1)]);
      await flushed();
      expect(farmSaw.slice(before).filter((d) => d.houseId === b)).toEqual([]);
      expect(adminSaw.at(-1)).toMatchObject({ houseId: b, metrics: { temperature: 24 } });
      farm.disconnect();
      admin.disconnect();
    });

    it('brings every field it missed before answering when it goes back to all, or follows the house', async () => {
      const [a, b] = inFarm as [number, number];
      const farm = await t.socket(await t.signIn('farm'));
      expect(await farm.emitWithAck('live:detail', { detail: 'status', follow: [] })).toEqual({
        ok: true,
      });
      const saw = record(farm);
      t.roost.live.publishStates([state(a, 30), state(b, 30)]);
      await flushed();
      t.roost.live.publishStates([state(a, 31), state(b, 32)]);
      await flushed();
      expect(saw.some((d) => d.metrics !== undefined)).toBe(false);

      // Following one house: its latest full state arrives before the answer.
      expect(await farm.emitWithAck('live:detail', { detail: 'status', follow: [a] })).toEqual({
        ok: true,
      });
      expect(saw.filter((d) => d.metrics)).toEqual([
        expect.objectContaining({ houseId: a, online: true, metrics: { temperature: 31 } }),
      ]);

      // Every field again: the other house it missed, once; the followed one is not behind.
      const mark = saw.length;
      expect(await farm.emitWithAck('live:detail', { detail: 'all' })).toEqual({ ok: true });
      expect(saw.slice(mark)).toEqual([
        expect.objectContaining({ houseId: b, online: true, metrics: { temperature: 32 } }),
      ]);
      t.roost.live.publishStates([state(b, 33)]);
      await flushed();
      expect(saw.at(-1)).toMatchObject({ houseId: b, metrics: { temperature: 33 } });
      farm.disconnect();
    });

    it('refuses a malformed request and keeps hearing as it did', async () => {
      const [a] = inFarm as [number];
      const farm = await t.socket(await t.signIn('farm'));
      const saw = record(farm);
      for (const bad of [
        { detail: 'status' },
        { detail: 'everything' },
        { detail: 'status', follow: ['1'] },
        { detail: 'status', follow: [-3] },
        { detail: 'all', follow: [a] },
        { detail: 'status', follow: Array.from({ length: 2_001 }, (_, i) => i + 1) },
        null,
      ])
        expect(await farm.emitWithAck('live:detail', bad as never)).toEqual({
          ok: false,
          error: 'invalid',
        });
      t.roost.live.publishStates([state(a, 40)]);
      await flushed();
      expect(saw.at(-1)).toMatchObject({ houseId: a, metrics: { temperature: 40 } });
      farm.disconnect();
    });
  },
);
