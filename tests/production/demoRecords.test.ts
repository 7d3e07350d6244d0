import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlockKpis } from '../../src/contract/production';
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
});
