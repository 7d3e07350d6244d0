import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wallMapSchema } from '../../src/contract/wall';
import { kioskCreatedSchema, kioskListSchema } from '../../src/contract/wallKiosk';
import { houseOverviewSchema } from '../../src/contract/overview';
import { DEMO_FARMS } from '../../server/demo/demoFarms';
import { testDatabaseTargets } from '../helpers/databases';
import { houseLiveState } from '../helpers/houseStates';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';

interface Answer {
  status: number;
  body: { code: number; msg: string; data: unknown };
}

describe.each(testDatabaseTargets())('wall kiosk links on $name', (target) => {
  let t: TestRoost;
  let admin: string;

  const call = async (
    method: 'GET' | 'POST',
    path: string,
    token: string | null,
    body?: unknown,
  ): Promise<Answer> => {
    const res = await fetch(`${t.url}/api${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  };
  const create = async (body: unknown) => {
    const res = await call('POST', '/wall/kiosk/create', admin, body);
    expect(res.status).toBe(200);
    return kioskCreatedSchema.parse(res.body.data);
  };
  const farmIdOf = async (name: string) => {
    const [row] = await t.roost.database.query<{ id: number }>(
      `select id from farms where name = $1`,
      [name],
    );
    return row!.id;
  };

  beforeAll(async () => {
    t = await startTestRoost(target);
    admin = await t.signIn('admin');
  });
  afterAll(() => t?.stop());

  it('creates a link whose token is stored only as its hash, lists it and logs the change', async () => {
    const created = await create({ name: 'Control room', allFarms: true });
    expect(created.token).toMatch(/^rk_[\w-]{40,}$/);
    const stored = await t.roost.database.query<{ token_hash: string }>(
      `select token_hash from wall_kiosk_links where id = $1`,
      [created.link.id],
    );
    expect(stored[0]!.token_hash).not.toContain(created.token);
    expect(stored[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const list = kioskListSchema.parse((await call('GET', '/wall/kiosk/list', admin)).body.data);
    const listed = list.find((l) => l.id === created.link.id)!;
    expect(listed).toMatchObject({ name: 'Control room', allFarms: true, lastUsedAt: null });
    expect(listed.createdBy).not.toBe('');
    expect(JSON.stringify(list)).not.toContain(created.token);

    // Using it is seen in the list as its last use.
    expect((await call('GET', '/wall/map', created.token)).status).toBe(200);
    const after = kioskListSchema.parse((await call('GET', '/wall/kiosk/list', admin)).body.data);
    expect(after.find((l) => l.id === created.link.id)!.lastUsedAt).not.toBeNull();

    const log = await t.roost.database.query<{ function: string; remark: string }>(
      `select function, remark from operation_logs where function like 'wall.kiosk%'`,
    );
    expect(log).toContainEqual({
      function: 'wall.kioskCreate',
      remark:
        'Control room (all farms; left counters,today,night,ranking,legend | right alarms,production,ticker; no tour)',
    });
  });

  it('shows a chosen scope only, in REST and on the live socket', async () => {
    const weifang = await farmIdOf('Weifang Broiler Farm');
    const { link, token } = await create({ name: 'Weifang', allFarms: false, farmIds: [weifang] });
    expect(link.farms).toEqual([{ farmId: weifang, name: 'Weifang Broiler Farm' }]);

    const map = wallMapSchema.parse((await call('GET', '/wall/map', token)).body.data);
    expect(map.farms.map((f) => f.farmId)).toEqual([weifang]);
    expect(map.mapType).toBe('1');
    const houses = (await call('GET', '/wall/houses', token)).body.data as { rows: unknown[] };
    const rows = houses.rows.map((r) => houseOverviewSchema.parse(r));
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.farmId))).toEqual(new Set([weifang]));
    const other = await farmIdOf(DEMO_FARMS.find((f) => f.name !== 'Weifang Broiler Farm')!.name);
    expect((await call('GET', `/wall/farm/${other}`, token)).status).toBe(404);
    expect((await call('GET', `/wall/farm/${weifang}`, token)).status).toBe(200);
    expect((await call('GET', '/wall/today', token)).status).toBe(200);
    expect((await call('GET', '/wall/alarmAmt', token)).status).toBe(200);

    // A kiosk token opens the wall only: every console endpoint refuses it.
    for (const path of ['/user/getCurrent', '/overview/listOverview/', '/wall/kiosk/list'])
      expect((await call('GET', path, token)).status).toBe(401);
    expect((await call('POST', '/alarm/acknowledge', token, { id: 1 })).status).toBe(401);

    // Live: a house of another farm changing is never sent to this socket; its own farm's is.
    const socket = await t.socket(token);
    const seen: number[] = [];
    socket.on('house:updated', (batch) => seen.push(...batch.deltas.map((d) => d.houseId)));
    const own = rows[0]!.houseId;
    const [foreign] = await t.roost.database.query<{ id: number }>(
      `select id from houses where farm_id <> $1 order by id limit 1`,
      [weifang],
    );
    const state = (houseId: number, farmId: number) =>
      houseLiveState(houseId, { farmId, metrics: { temperature: 23.4 } });
    t.roost.live.publishStates([state(foreign!.id, other), state(own, weifang)]);
    await expect.poll(() => seen.includes(own), { timeout: 5_000 }).toBe(true);
    expect(seen).not.toContain(foreign!.id);
    // Read-only: subscribing to another farm's house for full-rate readings is refused.
    const answer = await socket.emitWithAck('house:subscribe', foreign!.id);
    expect(answer).toMatchObject({ ok: false });
  });

  it('stops a revoked link at once: REST answers 401 and its live socket is closed', async () => {
    const { link, token } = await create({ name: 'Lobby', allFarms: true });
    const socket = await t.socket(token);
    const closed = new Promise<string>((resolve) => socket.on('disconnect', resolve));
    const revoked = await call('POST', '/wall/kiosk/revoke', admin, { id: link.id });
    expect(revoked.status).toBe(200);
    // The server ends the socket itself, without waiting for the next request of the wall.
    expect(await closed).toBe('io server disconnect');
    const after = await call('GET', '/wall/map', token);
    expect(after.status).toBe(401);
    expect(after.body.msg).toMatch(/revoked/);
    // A new connection with the revoked token is refused.
    await expect(t.socket(token)).rejects.toThrow(/unauthorized/);
    const list = kioskListSchema.parse((await call('GET', '/wall/kiosk/list', admin)).body.data);
    expect(list.map((l) => l.id)).not.toContain(link.id);
    expect((await call('POST', '/wall/kiosk/revoke', admin, { id: link.id })).status).toBe(404);
    const log = await t.roost.database.query<{ remark: string }>(
      `select remark from operation_logs where function = 'wall.kioskRevoke'`,
    );
    expect(log.map((l) => l.remark)).toContain('Lobby');
  });

  it('lets administrators only manage links, and checks what they send', async () => {
    for (const user of ['company', 'farm']) {
      const token = await t.signIn(user);
      expect((await call('GET', '/wall/kiosk/list', token)).status).toBe(403);
      expect(
        (await call('POST', '/wall/kiosk/create', token, { name: 'x', allFarms: true })).status,
      ).toBe(403);
      expect((await call('POST', '/wall/kiosk/revoke', token, { id: 1 })).status).toBe(403);
    }
    expect((await call('GET', '/wall/kiosk/list', null)).status).toBe(401);
    const noScope = await call('POST', '/wall/kiosk/create', admin, {
      name: 'Empty',
      allFarms: false,
      farmIds: [],
    });
    expect(noScope.status).toBe(400);
    const noName = await call('POST', '/wall/kiosk/create', admin, { name: ' ', allFarms: true });
    expect(noName.status).toBe(400);
    const unknown = await call('POST', '/wall/kiosk/create', admin, {
      name: 'Ghost',
      allFarms: false,
      farmIds: [999_999],
    });
    expect(unknown.status).toBe(400);
    // A made-up kiosk token is refused like a revoked one.
    expect((await call('GET', '/wall/map', 'rk_not-a-real-token')).status).toBe(401);
  });
});
