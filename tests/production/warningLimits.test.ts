import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HouseWarningAnswer } from '../../src/contract/earlyWarnings';
import { ServerEvents } from '../../server/events';
import { addDays } from '../../server/production/kpi';
import { localDay } from '../../server/production/records';
import { checkEarlyWarnings } from '../../server/production/warningTick';
import { demoHouse } from '../alarms/helpers';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

describe.each(testDatabaseTargets())(
  'early-warning limits per breed and house on $name',
  (target) => {
    let t: TestApp;
    let ctx: Parameters<typeof checkEarlyWarnings>[0];
    beforeAll(async () => {
      t = await createTestApp(target, { ROOST_TIMEZONE: 'UTC' });
      ctx = {
        database: t.database,
        config: t.config,
        events: new ServerEvents(pino({ level: 'silent' })),
      };
    }, 180_000);
    afterAll(() => t?.close());

    const api = async <T = unknown>(
      token: string,
      method: 'GET' | 'PUT' | 'POST',
      url: string,
      body?: object,
      locale = 'en',
    ) => {
      const res = await t.app.inject({
        method,
        url: `/api${url}`,
        headers: { authorization: `Bearer ${token}`, locale },
        ...(body === undefined ? {} : { payload: body }),
      });
      const envelope = bodyOf<T>(res);
      return { status: res.statusCode, msg: envelope.msg, data: envelope.data };
    };

    it("a house's override decides whether a 20 % water drop raises, over its breed's limit", async () => {
      const house = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 2');
      const today = localDay(new Date(), 'UTC');
      // A breed of the company's own, so its limits are its own to set.
      const [breed] = await t.database.query<{ id: number }>(
        `insert into breeds (name, code, org_id, is_common, operator)
       select 'Warning broiler', 'WARN-1', org_id, false, 'test' from farms where id = $1
       returning id`,
        [house.farmId],
      );
      await t.database.query(
        `insert into breed_targets (breed_id, age_day, feed_per_head)
       select $1, age_day, feed_per_head from breed_targets
       where breed_id = (select id from breeds where code = 'BROILER-STD')`,
        [breed!.id],
      );
      await t.database.query(
        `update flocks set closed_on = $2 where house_id = $1 and closed_on is null`,
        [house.houseId, addDays(today, -11)],
      );
      const [flock] = await t.database.query<{ id: number }>(
        `insert into flocks (house_id, breed_id, placed_on, age_at_placement, head_count)
       values ($1, $2, $3, 1, 10000) returning id`,
        [house.houseId, breed!.id, addDays(today, -10)],
      );
      // Water entered by hand: 1000 L, then 800 L (down 20 %, under the default 25 %).
      const farm = await t.signIn('farm');
      const saved = await api(farm, 'POST', '/production/day', {
        records: [
          {
            houseId: house.houseId,
            day: addDays(today, -2),
            deathsAm: 1,
            deathsPm: 0,
            cullsAm: 0,
            cullsPm: 0,
            feedKg: 500,
            waterL: 1000,
          },
          {
            houseId: house.houseId,
            day: addDays(today, -1),
            deathsAm: 1,
            deathsPm: 0,
            cullsAm: 0,
            cullsPm: 0,
            feedKg: 500,
            waterL: 800,
          },
        ],
      });
      expect(saved.status).toBe(200);
      const waterAlarms = () =>
        t.database.query<{ state: string; limit: number; text: string }>(
          `select state, limit_value as "limit", text from alarms where house_id = $1 and cause = 'waterDrop' order by id`,
          [house.houseId],
        );
      expect(await waterAlarms()).toEqual([]);

      // The breed says 15 %: the same days now raise, and the text names the breed's limit.
      const admin = await t.signIn('admin');
      const breedSaved = await api(admin, 'PUT', '/production/warnings/breed', {
        breedId: breed!.id,
        limits: { waterDropPct: 15 },
      });
      expect(breedSaved.status).toBe(200);
      await checkEarlyWarnings(ctx, new Date());
      expect(await waterAlarms()).toEqual([
        { state: 'active', limit: 15, text: '1000 → 800 L (−20 %, ≥ 15 %)' },
      ]);

      // The house overrides it with 30 %: the alarm clears when the override is saved.
      const override = await api<HouseWarningAnswer>(farm, 'PUT', '/production/warnings/house', {
        houseId: house.houseId,
        limits: { waterDropPct: 30 },
      });
      expect(override.status).toBe(200);
      expect(override.msg).toBe('Early-warning limits saved.');
      expect(override.data.inherited.waterDropPct).toBe(15);
      expect(override.data.effective.waterDropPct).toBe(30);
      expect((await waterAlarms()).map((a) => a.state)).toEqual(['cleared']);
      await checkEarlyWarnings(ctx, new Date());
      expect((await waterAlarms()).map((a) => a.state)).toEqual(['cleared']);

      // Back to the breed's limit but with the water warning switched off for this house: nothing raises.
      await api(farm, 'PUT', '/production/warnings/house', {
        houseId: house.houseId,
        limits: { waterDrop: false },
      });
      await checkEarlyWarnings(ctx, new Date());
      expect((await waterAlarms()).map((a) => a.state)).toEqual(['cleared']);

      // Each change is one operation-log row, with the limits as saved.
      const logs = await t.database.query<{ house_name: string; params: { value: string } }>(
        `select house_name, params from operation_logs where function like 'production.warnings.%'
       order by id`,
      );
      expect(logs.map((l) => JSON.parse(l.params.value) as unknown)).toEqual([
        { waterDropPct: 15 },
        { waterDropPct: 30 },
        { waterDrop: false },
      ]);
      expect(logs[1]!.house_name).toBe('House 2');

      const read = await api<HouseWarningAnswer>(
        farm,
        'GET',
        `/production/warnings/house?houseId=${house.houseId}`,
      );
      expect(read.data).toMatchObject({
        limits: { waterDrop: false },
        breed: { id: breed!.id, name: 'Warning broiler' },
        effective: { waterDrop: false, waterDropPct: 15, feedOffPct: 15 },
      });
      void flock;
    });

    it("a limit out of range is refused in the caller's language", async () => {
      const house = await demoHouse(t.database, 'Weifang Broiler Farm', 'House 1');
      const farm = await t.signIn('farm');
      const body = { houseId: house.houseId, limits: { waterDropPct: 1 } };
      const zh = await api(farm, 'PUT', '/production/warnings/house', body, 'zh');
      expect(zh).toMatchObject({ status: 400, msg: '预警限值超出允许范围。' });
      const en = await api(farm, 'PUT', '/production/warnings/house', {
        ...body,
        limits: { nope: 3 },
      });
      expect(en).toMatchObject({ status: 400, msg: 'There is no such early-warning setting.' });
    });
  },
);
