import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { sweepDelayMs } from '../../server/ingest/maintenance';
import { sweepSilentGateways } from '../../server/ingest/status';
import { testDatabaseTargets } from '../helpers/databases';
import { openDemoDatabase } from '../helpers/demoDatabase';

/**
 * The offline sweep takes a gateway silent for 3 intervals offline, and says when the next one
 * can be: the server sweeps then (at least a second apart, at most 5 s), not every second.
 */
describe.each(testDatabaseTargets())('the offline sweep on $name', (target) => {
  let database: Database;
  let close: () => Promise<void>;
  let gateways: { id: number; house_id: number }[];

  beforeAll(async () => {
    ({ database, close } = await openDemoDatabase(target));
    gateways = await database.query<{ id: number; house_id: number }>(
      'select id, house_id from gateways where house_id is not null order by id limit 3',
    );
    expect(gateways).toHaveLength(3);
  }, 120_000);
  afterAll(async () => close?.());

  /** Every gateway offline, these online with the interval and silence given. */
  const seen = async (houses: { gateway: number; interval: number; silentFor: number }[]) => {
    await database.query('update house_state set online = false');
    await database.query('update gateways set interval_seconds = 60');
    for (const { gateway, interval, silentFor } of houses) {
      const g = gateways[gateway]!;
      await database.query('update gateways set interval_seconds = $2 where id = $1', [
        g.id,
        interval,
      ]);
      await database.query(
        `insert into house_state (house_id, gateway_id, online, last_seen_at)
         values ($1, $2, true, now() - make_interval(secs => $3))
         on conflict (house_id) do update set gateway_id = $2, online = true,
           last_seen_at = excluded.last_seen_at`,
        [g.house_id, g.id, silentFor],
      );
    }
  };

  it('takes the silent gateway offline and says when the next can be', async () => {
    // Silent 31 s at 10 s (due), 5 s at 10 s (due in 25 s), 100 s at 60 s (due in 80 s).
    await seen([
      { gateway: 0, interval: 10, silentFor: 31 },
      { gateway: 1, interval: 10, silentFor: 5 },
      { gateway: 2, interval: 60, silentFor: 100 },
    ]);
    const swept = await sweepSilentGateways(database, 3_600);
    expect(swept.states.map((s) => s.houseId)).toEqual([gateways[0]!.house_id]);
    expect(swept.states[0]!.online).toBe(false);
    expect(swept.dueInSeconds).toBeGreaterThan(23);
    expect(swept.dueInSeconds).toBeLessThanOrEqual(25);
    // The shortest interval of all gateways, online or not: a gateway coming online meanwhile.
    const [shortest] = await database.query<{ s: number }>(
      'select min(interval_seconds) as s from gateways',
    );
    expect(swept.newcomerSeconds).toBe(3 * shortest!.s);
    // Nothing due for 20 s: the next sweep in 5 s, not 1.
    expect(sweepDelayMs(swept)).toBe(5_020);
  });

  it('counts a gateway only from when this process could hear it', async () => {
    await seen([{ gateway: 1, interval: 10, silentFor: 29 }]);
    // Due in 1 s by its silence, but the process has heard for 12 s only: 18 s more.
    const swept = await sweepSilentGateways(database, 12);
    expect(swept.states).toEqual([]);
    expect(swept.dueInSeconds).toBeCloseTo(18, 0);
  });

  it('sweeps again when the next house is due, a second apart at the soonest', async () => {
    await seen([{ gateway: 1, interval: 10, silentFor: 27.5 }]);
    const swept = await sweepSilentGateways(database, 3_600);
    expect(swept.states).toEqual([]);
    const delay = sweepDelayMs(swept);
    expect(delay).toBeGreaterThan(2_000);
    expect(delay).toBeLessThan(2_600);
    expect(sweepDelayMs({ dueInSeconds: 0.01, newcomerSeconds: 30 })).toBe(1_000);
    expect(sweepDelayMs({ dueInSeconds: null, newcomerSeconds: 3 })).toBe(3_020);
    expect(sweepDelayMs({ dueInSeconds: null, newcomerSeconds: null })).toBe(5_020);
  });
});
