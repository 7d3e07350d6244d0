import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '../../src/contract/envcontrol';
import { kioskCreatedSchema } from '../../src/contract/wallKiosk';
import { testDatabaseTargets } from '../helpers/databases';
import { houseLiveState } from '../helpers/houseStates';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';

const FARM = 'Weifang Broiler Farm';

/**
 * A wall opened by a kiosk link hangs in a public room: its socket hears its houses' changes
 * and alarms, and nothing of the staff's work in those houses (who sent which command with
 * which parameters to which gateway, silences), whichever feature emits it.
 */
describe.each(testDatabaseTargets())('what a kiosk wall socket hears on $name', (target) => {
  let t: TestRoost;
  let admin: string;
  beforeAll(async () => {
    t = await startTestRoost(target);
    admin = await t.signIn('admin');
  }, 180_000);
  afterAll(() => t?.stop());

  it('hears house changes and alarm counts, never commands or silences of its houses', async () => {
    const [house] = await t.roost.database.query<{ id: number; farm_id: number }>(
      `select h.id, h.farm_id from houses h join farms f on f.id = h.farm_id
       join gateways g on g.house_id = h.id where f.name = $1 order by h.id limit 1`,
      [FARM],
    );
    const { houseId, farmId } = { houseId: house!.id, farmId: house!.farm_id };
    const created = await t.api(admin, '/wall/kiosk/create', {
      name: 'Lobby',
      allFarms: false,
      farmIds: [farmId],
    });
    expect(created.status).toBe(200);
    const { token } = kioskCreatedSchema.parse(created.body.data);

    const staff = await t.socket(admin);
    const staffHeard: string[] = [];
    staff.onAny((event: string) => staffHeard.push(event));
    const staffCommands: Command[] = [];
    staff.on('command:updated', (c) => staffCommands.push(c));

    const wall = await t.socket(token);
    const wallHeard: string[] = [];
    wall.onAny((event: string) => wallHeard.push(event));
    /**
     * A change of the house reaches the wall: its socket is in its rooms. A socket hears its
     * events in order, so after the command and the silence, whatever they would have sent it
     * has arrived by the time this does. (The open-alarm count sent on connection may arrive
     * with the connection itself, before any listener: it proves nothing.)
     */
    const wallHearsHouse = async (temperature: number) => {
      const before = wallHeard.length;
      t.roost.live.publishStates([houseLiveState(houseId, { farmId, metrics: { temperature } })]);
      await expect
        .poll(() => wallHeard.slice(before).includes('house:updated'), { timeout: 10_000 })
        .toBe(true);
    };
    await wallHearsHouse(23.1);

    const sent = await t.api<{ commands: Command[] }>(admin, '/envcontrol/send', {
      houseIds: [houseId],
      params: { heat_offset: 2.5 },
    });
    expect(sent.status).toBe(200);
    const silence = await t.api(admin, '/notify/silence/create', {
      farmId,
      houseId,
      reason: 'Vaccination',
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(silence.status).toBe(200);
    await expect.poll(() => staffHeard.includes('silence:changed'), { timeout: 10_000 }).toBe(true);
    expect(staffCommands.map((c) => c.houseId)).toContain(houseId);

    await wallHearsHouse(23.4);
    expect(wallHeard).not.toContain('command:updated');
    expect(wallHeard).not.toContain('silence:changed');
    expect(JSON.stringify(wallHeard)).not.toMatch(/command|silence/);

    // Nor full-rate readings: a kiosk wall opens no monitor, and its socket may join none.
    expect(await wall.emitWithAck('house:subscribe', houseId)).toMatchObject({ ok: false });
    expect(await staff.emitWithAck('house:subscribe', houseId)).toMatchObject({ ok: true });
  });
});
