import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerEvents } from '../../server/events';
import { rollUp } from '../../server/ingest/rollup';
import { addDays } from '../../server/production/kpi';
import { localDay } from '../../server/production/records';
import { checkEarlyWarnings } from '../../server/production/warningTick';
import { demoHouse } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';

describe.each(testDatabaseTargets())(
  'the early warnings on the maintenance tick on $name',
  (target) => {
    let t: TestApp;
    let ctx: Parameters<typeof checkEarlyWarnings>[0];
    beforeAll(async () => {
      t = await createTestApp(target, { ROOST_TIMEZONE: 'UTC' });
      const events = new ServerEvents(pino({ level: 'silent' }));
      ctx = { database: t.database, config: t.config, events };
    }, 180_000);
    afterAll(() => t?.close());

    it('a metered 30 % water drop raises the water alarm once, and a recovery clears it', async () => {
      const house = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 3');
      const today = localDay(new Date(), 'UTC');
      const [d1, d2, d3] = [addDays(today, -5), addDays(today, -4), addDays(today, -3)];
      // A fresh flock of 10,000 on feed that matches its standard closely enough to stay quiet.
      await t.database.query(
        `update flocks set closed_on = $2 where house_id = $1 and closed_on is null`,
        [house.houseId, addDays(today, -11)],
      );
      const [flock] = await t.database.query<{ id: number }>(
        `insert into flocks (house_id, breed_id, placed_on, age_at_placement, head_count)
       select $1, breed_id, $2, 20, 10000 from flocks where house_id = $1 limit 1 returning id`,
        [house.houseId, addDays(today, -10)],
      );
      const water = async (day: string, litres: number) => {
        // Two metered readings of half the day's water each, no water entered by hand.
        for (const hour of ['09', '15']) {
          const result = await t.ingest.submitTelemetry(house.networkId, {
            ts: Date.parse(`${day}T${hour}:00:00Z`),
            metrics: { water: litres / 2 },
          });
          expect(result.status).toBe('stored');
        }
        await t.ingest.drain();
        await rollUp(t.database, 'UTC');
        await t.database.query(
          `insert into daily_records (flock_id, day, deaths_am, deaths_pm, culls_am, culls_pm, feed_kg)
         select $1, $2, 1, 0, 0, 0, std.feed_per_head * 10000 / 1000.0
         from flocks f join breed_targets std on std.breed_id = f.breed_id
         where f.id = $1 order by abs(std.age_day - (20 + ($2::date - f.placed_on))) limit 1`,
          [flock!.id, day],
        );
      };
      const waterAlarms = () =>
        t.database.query<{ state: string; value: number; text: string }>(
          `select state, value, text from alarms where house_id = $1 and cause = 'waterDrop' order by id`,
          [house.houseId],
        );
      const at = (day: string) => new Date(`${day}T20:00:00Z`);

      await water(d1, 1000);
      await checkEarlyWarnings(ctx, at(d1));
      expect(await waterAlarms()).toEqual([]);

      await water(d2, 700);
      // The clock is still on the 1st: the 2nd is the future and judges nothing yet.
      await checkEarlyWarnings(ctx, at(d1));
      expect(await waterAlarms()).toEqual([]);
      await checkEarlyWarnings(ctx, at(d2));
      await checkEarlyWarnings(ctx, new Date(at(d2).getTime() + 600_000));
      expect(await waterAlarms()).toEqual([
        { state: 'active', value: 30, text: '1000 → 700 L (−30 %, ≥ 25 %)' },
      ]);

      await water(d3, 690);
      // Still down 1.4 % only, under the clear limit (20 %): the alarm clears, once.
      await checkEarlyWarnings(ctx, at(d3));
      await checkEarlyWarnings(ctx, new Date(at(d3).getTime() + 600_000));
      const after = await waterAlarms();
      expect(after).toHaveLength(1);
      expect(after[0]!.state).toBe('cleared');
    });
  },
);
