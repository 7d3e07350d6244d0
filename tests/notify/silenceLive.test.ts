import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SilenceChanged } from '../../src/contract/live';
import type { Silence } from '../../src/contract/notify';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';

const until = async (check: () => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
  return check();
};

/**
 * Open consoles hear when a silence begins or ends (made, ended early, run out), for the
 * houses it covers that their user may see now, and nothing about the others.
 */
describe.each(testDatabaseTargets())('silence changes on the live socket on $name', (target) => {
  let r: TestRoost;
  let farm: string;
  beforeAll(async () => {
    r = await startTestRoost(target);
    farm = await r.signIn('farm');
  }, 180_000);
  afterAll(() => r?.stop());

  const api = async (path: string, body: object) => {
    const res = await fetch(`${r.url}/api${path}`, {
      method: 'POST',
      headers: { authorization: farm, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: Silence }).data;
  };
  const listen = async (token: string) => {
    const heard: number[][] = [];
    const socket = await r.socket(token);
    socket.on('silence:changed', (c: SilenceChanged) => heard.push([...c.houseIds].sort()));
    return heard;
  };

  it('tells each console about the houses it sees, on create, early end and expiry', async () => {
    const houses = await r.roost.database.query<{ id: number; farm_id: number; name: string }>(
      `select h.id, h.farm_id, h.name from houses h join farms f on f.id = h.farm_id
       where f.name = 'Weifang Broiler Farm' order by h.id`,
    );
    const farmId = houses[0]!.farm_id;
    const all = houses.map((h) => h.id).sort();
    const shackHouses = (
      await r.roost.database.query<{ house_id: number }>(
        `select house_id from user_houses uh join users u on u.id = uh.user_id where u.username = 'shack'`,
      )
    )
      .map((h) => h.house_id)
      .sort();
    const notShacks = houses.find((h) => !shackHouses.includes(h.id))!.id;
    const farmHeard = await listen(farm);
    const shackHeard = await listen(await r.signIn('shack'));
    const hour = () => new Date(Date.now() + 3_600_000).toISOString();

    // A house the house manager does not run: only the farm manager hears of it.
    const one = await api('/notify/silence/create', {
      farmId,
      houseId: notShacks,
      reason: 'Fan change',
      endsAt: hour(),
    });
    expect(await until(() => farmHeard.length === 1)).toBe(true);
    expect(farmHeard).toEqual([[notShacks]]);

    // The whole farm: each hears its own houses; the house manager's first word is this one.
    await api('/notify/silence/create', { farmId, reason: 'Vaccination', endsAt: hour() });
    expect(await until(() => farmHeard.length === 2 && shackHeard.length === 1)).toBe(true);
    expect(farmHeard[1]).toEqual(all);
    expect(shackHeard).toEqual([shackHouses]);

    await api('/notify/silence/end', { id: one.id });
    expect(await until(() => farmHeard.length === 3)).toBe(true);
    expect(farmHeard[2]).toEqual([notShacks]);

    // The farm-wide one runs out: both hear it from the server's own look, nobody ended it.
    await r.roost.database.query(
      `update notify_silences set ends_at = now() + interval '1 second' where ended_at is null`,
    );
    expect(await until(() => farmHeard.length === 4 && shackHeard.length === 2)).toBe(true);
    expect(farmHeard[3]).toEqual(all);
    expect(shackHeard[1]).toEqual(shackHouses);
  });
});
