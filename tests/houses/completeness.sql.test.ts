import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Completeness } from '../../src/contract/completeness';
import type { Reminders } from '../../src/contract/reminders';
import { completenessReminders } from '../../server/houses/completenessReminders';
import { demoHouse } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import { cutOffDay, shanghaiDay } from './completenessDay';

describe.each(testDatabaseTargets())('data completeness on $name', (target) => {
  let t: TestApp;
  let admin: string;
  let house: Awaited<ReturnType<typeof demoHouse>>;
  const yesterday = shanghaiDay(-1);

  beforeAll(async () => {
    // A threshold above the day's share, so the reminder shows; the default (90) would not.
    t = await createTestApp(target, {
      ROOST_TIMEZONE: 'Asia/Shanghai',
      ROOST_COMPLETENESS_MIN_PERCENT: '95',
    });
    admin = await t.signIn('admin');
    house = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
    await cutOffDay(t.database, t.ingest, house, yesterday);
  }, 180_000);
  afterAll(() => t?.close());

  const get = async <T>(url: string, locale = 'en') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api${url}`,
      headers: { authorization: `Bearer ${admin}`, locale },
    });
    return { status: res.statusCode, ...bodyOf<T>(res) };
  };

  it('a gateway cut off for 2 of 24 hours has 91.7 % of its readings that day', async () => {
    const res = await get<Completeness>(
      `/houses/completeness?houseIds=${house.houseId}&from=${yesterday}&to=${yesterday}`,
    );
    expect(res.status).toBe(200);
    expect(res.data.rows).toEqual([
      {
        houseId: house.houseId,
        intervalSeconds: 60,
        days: [{ day: yesterday, readings: 1320, expected: 1440, percent: 91.7 }],
      },
    ]);
  });

  it('the day before the gateway was there expects nothing, and a house without one is null', async () => {
    const before = shanghaiDay(-5);
    const res = await get<Completeness>(
      `/houses/completeness?houseIds=${house.houseId}&from=${before}&to=${before}`,
    );
    expect(res.data.rows[0]!.days[0]).toEqual({
      day: before,
      readings: 0,
      expected: 0,
      percent: null,
    });
  });

  it('the curve of that day has no bucket inside the gap', async () => {
    const from = Date.parse(`${yesterday}T00:00:00+08:00`);
    const res = await get<{ times: number[] }>(
      `/trend/house?houseId=${house.houseId}&metrics=temperature&from=${from}&to=${from + 86_400_000}&granularity=minute`,
    );
    const gapStart = from + 10 * 3_600_000;
    const inGap = res.data.times.filter((x) => x >= gapStart && x < gapStart + 2 * 3_600_000);
    expect(inGap).toEqual([]);
    const steps = res.data.times.slice(1).map((x, i) => x - res.data.times[i]!);
    expect(Math.max(...steps)).toBe(2 * 3_600_000 + 60_000);
  });

  it('reminds of the house below the set share, and not below a lower one', async () => {
    const res = await get<Reminders>(`/reminder/today?houseId=${house.houseId}`);
    const rows = res.data.rows.filter((r) => r.kind === 'completeness');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      houseId: house.houseId,
      text: 'houses.reminder.completeness',
      params: { percent: 91.7, min: 95, readings: 1320, expected: 1440 },
    });
    const scope = { all: true } as const;
    const at90 = await completenessReminders.read({
      database: t.database,
      scope,
      now: new Date(),
      timeZone: 'Asia/Shanghai',
      completenessMinPercent: 90,
    });
    expect(at90.filter((r) => r.houseId === house.houseId)).toEqual([]);
  });

  it('refuses a window that runs backwards or is too long, in the reader’s language', async () => {
    const back = await get(
      `/houses/completeness?houseIds=${house.houseId}&from=${yesterday}&to=${shanghaiDay(-3)}`,
      'zh',
    );
    expect(back.status).toBe(400);
    expect(back.msg).toContain('开始时间必须早于结束时间');
    const long = await get(
      `/houses/completeness?houseIds=${house.houseId}&from=${shanghaiDay(-80)}&to=${yesterday}`,
    );
    expect(long.status).toBe(400);
    expect(long.msg).toContain('at most 62 days');
    const bad = await get(`/houses/completeness?houseIds=${house.houseId}&from=yesterday&to=x`);
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('YYYY-MM-DD');
    const none = await get(`/houses/completeness?houseIds=${house.houseId}&from=2026-02-30`);
    expect(none.status).toBe(400);
    expect(none.msg).toContain('YYYY-MM-DD');
  });

  it('without a window answers the last 7 days to today, and reads moments as their days', async () => {
    const week = await get<Completeness>(`/houses/completeness?houseIds=${house.houseId}`);
    expect(week.data.rows[0]!.days.map((d) => d.day)).toEqual(
      [-6, -5, -4, -3, -2, -1, 0].map((offset) => shanghaiDay(offset)),
    );
    const noon = Date.parse(`${yesterday}T12:00:00+08:00`);
    const moments = await get<Completeness>(
      `/houses/completeness?houseIds=${house.houseId}&from=${noon}&to=${noon}`,
    );
    expect(moments.data.rows[0]!.days[0]!.percent).toBe(91.7);
  });
});
