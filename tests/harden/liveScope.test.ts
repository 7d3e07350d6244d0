import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STATUS_STRIDE,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '../../src/contract/live';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { statusBatchOf } from '../../src/contract/statusPacking';

const FARM = 'Weifang Broiler Farm';
type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Every house id a socket heard about, by event. */
function heard(socket: LiveSocket) {
  const houses = { reading: new Set<number>(), updated: new Set<number>() };
  socket.on('house:reading', (r) => houses.reading.add(r.houseId));
  socket.on('house:updated', (u) => {
    for (const d of u.deltas) houses.updated.add(d.houseId);
  });
  // Packed statuses: every STATUS_STRIDE numbers, a house's id first.
  socket.on('house:status', (wire) => {
    const s = statusBatchOf(wire);
    if (!s) throw new Error('house:status whose bytes are not whole houses');
    for (let i = 0; i < s.houses.length; i += STATUS_STRIDE) houses.updated.add(s.houses[i]!);
  });
  return {
    houses,
    clear() {
      houses.reading.clear();
      houses.updated.clear();
    },
  };
}

const subscribe = (socket: LiveSocket, houseId: number) =>
  new Promise<boolean>((resolve) => socket.emit('house:subscribe', houseId, (a) => resolve(a.ok)));

const until = async (check: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
  return check();
};

describe.each(testDatabaseTargets())(
  'live scope follows changes made while connected on $name',
  (target) => {
    let r: TestRoost;
    let admin: string;
    beforeAll(async () => {
      r = await startTestRoost(target);
      admin = await r.signIn('admin');
    }, 180_000);
    afterAll(() => r?.stop());

    const api = async (method: string, path: string, body: object, token = admin) =>
      fetch(`${r.url}/api${path}`, {
        method,
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const publish = async (client: Awaited<ReturnType<TestRoost['gateway']>>, networkId: string) =>
      client.publishAsync(
        `roost/v1/${networkId}/telemetry`,
        JSON.stringify({ ts: Date.now(), metrics: { temperature: 20 + Math.random() } }),
        { qos: 1 },
      );

    it('a house taken from a house manager stops reaching its open socket at once', async () => {
      const token = await r.signIn('shack');
      const socket = await r.socket(token);
      const log = heard(socket);
      const h1 = await r.gatewayOf(FARM, 'House 1', 'scope-1');
      const h2 = await r.gatewayOf(FARM, 'House 2', 'scope-2');
      const g1 = await r.gateway(h1.networkId, 'scope-1');
      const g2 = await r.gateway(h2.networkId, 'scope-2');
      expect(await subscribe(socket, h1.houseId)).toBe(true);
      expect(await subscribe(socket, h2.houseId)).toBe(true);
      // The same user's wall, hearing houses' status only but following both houses in full.
      const wall = await r.socket(token);
      const wallLog = heard(wall);
      expect(
        await wall.emitWithAck('live:detail', {
          detail: 'status',
          follow: [h1.houseId, h2.houseId],
        }),
      ).toEqual({ ok: true });
      await publish(g1, h1.networkId);
      expect(await until(() => log.houses.reading.has(h1.houseId))).toBe(true);

      const [user] = await r.roost.database.query<{ id: number }>(
        `select id from users where username = 'shack'`,
      );
      const res = await api('PUT', '/user/saveUserShacks', {
        id: user!.id,
        roleKey: 'shack_manager',
        shackIds: [h2.houseId],
      });
      expect(res.status).toBe(200);
      log.clear();
      wallLog.clear();
      await publish(g1, h1.networkId);
      await publish(g2, h2.networkId);
      // House 2 still arrives, read and updated; house 1 neither.
      expect(await until(() => log.houses.updated.has(h2.houseId))).toBe(true);
      expect(log.houses.reading.has(h2.houseId)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(log.houses.reading.has(h1.houseId)).toBe(false);
      expect(log.houses.updated.has(h1.houseId)).toBe(false);
      expect(wallLog.houses.updated.has(h2.houseId)).toBe(true);
      expect(wallLog.houses.updated.has(h1.houseId)).toBe(false);
      expect(await subscribe(socket, h1.houseId)).toBe(false);
      // REST says the same.
      const rest = await fetch(`${r.url}/api/alarm/limits?houseId=${h1.houseId}`, {
        headers: { authorization: token },
      });
      expect(rest.status).toBe(404);
    });

    it('a house moved to another farm leaves the old farm manager’s socket', async () => {
      const token = await r.signIn('farm');
      const socket = await r.socket(token);
      const log = heard(socket);
      const h4 = await r.gatewayOf(FARM, 'House 4', 'scope-4');
      const g4 = await r.gateway(h4.networkId, 'scope-4');
      expect(await subscribe(socket, h4.houseId)).toBe(true);
      const [other] = await r.roost.database.query<{ id: number }>(
        `select id from farms where name = 'Gaocheng Broiler Farm'`,
      );
      const moved = await api('PUT', '/house/update', {
        id: h4.houseId,
        farmId: other!.id,
        name: 'House 4',
      });
      expect(moved.status).toBe(200);
      log.clear();
      await publish(g4, h4.networkId);
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(log.houses.reading.has(h4.houseId)).toBe(false);
      expect(log.houses.updated.has(h4.houseId)).toBe(false);
      expect(await subscribe(socket, h4.houseId)).toBe(false);
    });

    it("a role change re-scopes the user's open socket; deleting the user ends it", async () => {
      const [weifang] = await r.roost.database.query<{ id: number }>(
        `select id from farms where name = $1`,
        [FARM],
      );
      const username = `live${Date.now()}`;
      const user = { username, password: 'Keeper12345', realName: 'Live' };
      const made = await api('POST', '/user/save', {
        ...user,
        roleKey: 'farm_manager',
        farmIds: [weifang!.id],
        shackIds: [],
      });
      expect(made.status).toBe(200);
      const [row] = await r.roost.database.query<{ id: number }>(
        `select id from users where username = $1`,
        [username],
      );
      const token = await r.signIn(username, 'Keeper12345');
      const socket = await r.socket(token);
      const h5 = await r.gatewayOf(FARM, 'House 5', 'scope-5');
      const h2 = await r.gatewayOf(FARM, 'House 2', 'scope-2b');
      expect(await subscribe(socket, h5.houseId)).toBe(true);
      const demoted = await api('POST', '/user/save', {
        ...user,
        id: row!.id,
        roleKey: 'shack_manager',
        farmIds: [],
        shackIds: [h2.houseId],
      });
      expect(demoted.status).toBe(200);
      expect(await subscribe(socket, h5.houseId)).toBe(false);
      expect(await subscribe(socket, h2.houseId)).toBe(true);
      const gone = new Promise<boolean>((resolve) => {
        socket.once('disconnect', () => resolve(true));
        setTimeout(() => resolve(false), 3_000);
      });
      expect((await api('DELETE', '/user/delete', { id: row!.id })).status).toBe(200);
      expect(await gone).toBe(true);
    });
  },
);
