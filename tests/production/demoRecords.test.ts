import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlockKpis } from '../../src/contract/production';
import { ServerEvents } from '../../server/events';
import { checkEarlyWarnings } from '../../server/production/warningTick';
import { demoDays } from '../../server/demo/history/dailyRecords';
import { addDays } from '../../server/production/kpi';
import { localDay } from '../../server/production/records';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

describe("the demo's daily records", () => {
  const flock = {
    id: 7,
    placedOn: '2026-10-01',
    closedOn: null,
    ageAtPlacement: 1,
    headCount: 20_000,
    layer: false,
  };

  it('fill every day of the past up to yesterday, with fewer birds and more feed as they grow', () => {
    const days = demoDays(flock, '2026-10-05', '2026-10-20');
    expect(days.map((d) => d.day)).toEqual(
      Array.from({ length: 15 }, (_, i) => addDays('2026-10-05', i)),
    );
    expect(days.every((d) => d.deathsAm >= 0 && d.deathsPm >= 0 && d.feedKg > 0)).toBe(true);
    expect(days.at(-1)!.feedKg).toBeGreaterThan(days[0]!.feedKg);
    // Broilers are weighed twice a week (days of age 7n and 7n + 3).
    expect(days.filter((d) => d.bodyWeightG !== null).length).toBe(4);
    expect(days.every((d) => d.eggs === null)).toBe(true);
    // The same past on every start.
    expect(demoDays(flock, '2026-10-05', '2026-10-20')).toEqual(days);
  });

  it('stop at the closing day and lay eggs for layers', () => {
    const layer = { ...flock, ageAtPlacement: 200, closedOn: '2026-10-10', layer: true };
    const days = demoDays(layer, '2026-09-01', '2026-10-20');
    expect(days.at(-1)!.day).toBe('2026-10-10');
    expect(days.every((d) => (d.eggs ?? 0) > 10_000 && (d.eggKg ?? 0) > 0)).toBe(true);
  });
});

describe.each(testDatabaseTargets())("a new demo's past on $name", (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { ROOST_DEMO_HISTORY: 'on' });
  }, 300_000);
  afterAll(() => t?.close());

  it("gives the flocks their days: KPIs from the first start, only today's day missing", async () => {
    const admin = await t.signIn('admin');
    const [house] = await t.database.query<{ id: number }>(
      `select h.id from houses h join farms f on f.id = h.farm_id
       where f.name = 'Weifang Broiler Farm' and h.name = 'House 4'`,
    );
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/production/kpi?houseId=${house!.id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    const kpis = bodyOf<FlockKpis>(res).data;
    const today = localDay(new Date(), t.config.timeZone);
    expect(kpis.flock.closedOn).toBeNull();
    expect(kpis.days.at(-1)!.day).toBe(today);
    expect(kpis.toDate.missingDays).toBe(1);
    expect(kpis.toDate.recordedDays).toBe(kpis.days.length - 1);
    expect(kpis.toDate.fcr).toBeGreaterThan(0.5);
    expect(kpis.toDate.alive).toBeLessThan(kpis.flock.headCount);
    // The closed flocks of the demo's past have their records too.
    const [closed] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from daily_records r join flocks f on f.id = r.flock_id
       where f.closed_on is not null`,
    );
    expect(Number(closed!.n)).toBeGreaterThan(0);
  });

  it('tells its stories: each early warning is raised on its house, on the figures its KPIs show', async () => {
    const stories = new Map(
      t.boot.demoGateways!.flatMap((g) => (g.story ? [[g.story, g] as const] : [])),
    );
    expect([...stories.keys()].sort()).toEqual(
      ['feedBinLow', 'feedOffStandard', 'waterDrop', 'weightGainSlow'].sort(),
    );
    // Spread over the map: no farm tells two stories.
    expect(new Set([...stories.values()].map((g) => g.farmName)).size).toBe(4);

    const events = new ServerEvents(pino({ level: 'silent' }));
    await checkEarlyWarnings({ database: t.database, config: t.config, events }, new Date());
    const admin = await t.signIn('admin');
    const kpisOf = async (houseId: number) =>
      bodyOf<FlockKpis>(
        await t.app.inject({
          method: 'GET',
          url: `/api/production/kpi?houseId=${houseId}`,
          headers: { authorization: `Bearer ${admin}` },
        }),
      ).data;
    const openWarning = async (houseId: number, cause: string) => {
      const rows = await t.database.query<{ value: number }>(
        `select value from alarms where house_id = $1 and cause = $2 and state <> 'cleared'`,
        [houseId, cause],
      );
      expect(rows, `${cause} open on its house`).toHaveLength(1);
      return Number(rows[0]!.value);
    };
    // Each house's yesterday is the last recorded day: the warning reads it, the page shows it.
    const lastTwo = (k: FlockKpis) => {
      const recorded = k.days.filter((d) => d.recorded);
      return [recorded.at(-2)!, recorded.at(-1)!] as const;
    };

    const water = stories.get('waterDrop')!;
    const [before, yesterday] = lastTwo(await kpisOf(water.houseId));
    const drop = ((before.waterL! - yesterday.waterL!) / before.waterL!) * 100;
    expect(drop).toBeGreaterThan(25);
    expect(await openWarning(water.houseId, 'waterDrop')).toBeCloseTo(drop, 0);

    const feed = stories.get('feedOffStandard')!;
    const [, fed] = lastTwo(await kpisOf(feed.houseId));
    const off =
      ((fed.feedPerBirdG! - fed.standard.feedPerBirdG!) / fed.standard.feedPerBirdG!) * 100;
    expect(off).toBeLessThan(-15);
    expect(await openWarning(feed.houseId, 'feedOffStandard')).toBeCloseTo(off, 0);

    const gain = stories.get('weightGainSlow')!;
    const weighed = (await kpisOf(gain.houseId)).days.filter((d) => d.bodyWeightG !== null);
    const [w4, w2, w0] = weighed.slice(-3).map((d) => d.bodyWeightG!);
    const ratio = ((w0! - w2!) / (w2! - w4!)) * 100;
    expect(ratio).toBeLessThan(50);
    expect(await openWarning(gain.houseId, 'weightGainSlow')).toBeCloseTo(ratio, 0);

    // The other houses follow their standard: nothing else is raised.
    const [others] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from alarms
       where cause in ('waterDrop', 'feedOffStandard', 'weightGainSlow', 'feedBinLow')
         and not (house_id = any($1::int[]))`,
      [[...stories.values()].map((g) => g.houseId)],
    );
    expect(Number(others!.n)).toBe(0);
  });
});
