import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateFromRow, STATE_COLUMNS, type StateRow } from '../../server/houses/state';
import { presentLive } from '../../server/live/presenter';
import { overviewListSchema, type HouseOverview } from '../../src/contract/overview';
import type { HouseLive } from '../../src/contract/live';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';

/** A house never heard from, as the console is told: offline, no values, no alarm. */
const neverHeard = (houseId: number): HouseLive => ({
  houseId,
  online: false,
  network: null,
  gatewayVersion: null,
  onlineSince: null,
  lastSeenAt: null,
  lastTs: null,
  mode: null,
  metrics: {},
  faults: {},
  devices: {},
  alarm: { count: 0, top: null },
});

/**
 * The overview's JSON is written by the database (server/houses/overview.sql.ts); the live hub
 * presents the same house_state rows in JavaScript (presentLive). A console that loads the
 * overview and then follows the live stream must be told the same thing by both.
 */
describe.each(testDatabaseTargets())('the overview the database writes ($name)', (target) => {
  let t: TestApp;
  let admin: string;
  let silent: number;

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = await t.signIn('admin');
    const houses = await t.database.query<{ id: number }>('select id from houses order by id');
    const [odd, quiet, alarmed] = houses.map((h) => h.id) as [number, number, number];
    silent = quiet;
    // Microseconds a JavaScript Date cuts, a network the console does not know, decimals
    // written with a trailing zero, a sentinel, a device with an opening, an alarm summary.
    await t.database.query(
      `insert into house_state as hs (house_id, online, network, gateway_version, online_since,
         last_seen_at, last_ts, mode, metrics, faults, devices)
       values ($1, true, 'cellular', 'v2.1.0', '2026-11-25 10:11:12.345678+00',
         '2026-11-25 10:11:59.999999+00', '2026-11-25 10:11:58.000500+08', 3,
         '{"temperature": 24.10, "humidity": 61, "co2": 1800}',
         '{"nh3": "notConnected"}', '{"fan1": {"state": 1, "opening": 45.5}, "heater": {"state": 0}}')
       on conflict (house_id) do update set online = excluded.online, network = excluded.network,
         gateway_version = excluded.gateway_version, online_since = excluded.online_since,
         last_seen_at = excluded.last_seen_at, last_ts = excluded.last_ts, mode = excluded.mode,
         metrics = excluded.metrics, faults = excluded.faults, devices = excluded.devices`,
      [odd],
    );
    await t.database.query('delete from house_state where house_id = $1', [quiet]);
    await t.database.query(
      `insert into house_state (house_id, online, alarm_count, alarm_top)
       values ($1, true, 2, $2::jsonb)
       on conflict (house_id) do update set alarm_count = 2, alarm_top = excluded.alarm_top`,
      [
        alarmed,
        JSON.stringify({
          cause: 'temperatureHigh',
          severity: 'critical',
          subject: 'temperature',
          value: 39.5,
          limit: 35,
          text: '温度过高 "39.5"',
          acknowledged: false,
        }),
      ],
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const overview = async (url: string) => {
    const res = await t.app.inject({ url, headers: { authorization: `Bearer ${admin}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = bodyOf<{ rows: HouseOverview[]; total: number }>(res);
    expect(body).toMatchObject({ success: true, code: 200 });
    return overviewListSchema.parse(body.data);
  };

  it("tells each house's live state as the live hub presents it, a house never heard from as offline", async () => {
    const { rows, total } = await overview('/api/overview/listOverview/');
    expect(total).toBe(rows.length);
    const houses = await t.database.query<{ id: number; farm_id: number }>(
      'select id, farm_id from houses',
    );
    expect(rows.map((r) => r.houseId).sort((a, b) => a - b)).toEqual(
      houses.map((h) => h.id).sort((a, b) => a - b),
    );
    const states = await t.database.query<StateRow & { farm_id: number }>(
      `select ${STATE_COLUMNS}, h.farm_id from house_state join houses h on h.id = house_id`,
    );
    const expected = new Map(houses.map((h) => [h.id, neverHeard(h.id)]));
    for (const row of states)
      expected.set(row.house_id, presentLive(stateFromRow(row, row.farm_id)));
    for (const row of rows) expect(row.live).toEqual(expected.get(row.houseId));
    expect(rows.find((r) => r.houseId === silent)!.live).toEqual(neverHeard(silent));
  });

  it('lists the houses in the console order with what they are, for all or one farm or one house', async () => {
    const { rows } = await overview('/api/overview/listOverview/');
    const expected = await t.database.query<{
      house_id: number;
      house_name: string;
      farm_id: number;
      farm_name: string;
      province_name: string | null;
      network_id: string | null;
      type_key: number | null;
      breed_name: string | null;
      head_count: number | null;
      age_days: number | null;
    }>(
      `select h.id as house_id, h.name as house_name, f.id as farm_id, f.name as farm_name,
         f.province_name, g.network_id, g.type_key, b.name as breed_name, fl.head_count,
         ((now() at time zone $1)::date - fl.placed_on + fl.age_at_placement) as age_days
       from houses h join farms f on f.id = h.farm_id
       left join gateways g on g.house_id = h.id
       left join flocks fl on fl.house_id = h.id and fl.closed_on is null
       left join breeds b on b.id = fl.breed_id
       order by f.name, h.sort, h.id`,
      [t.config.timeZone],
    );
    expect(rows.map(({ live: _live, ...rest }) => rest)).toEqual(
      expected.map((e) => ({
        houseId: e.house_id,
        houseName: e.house_name,
        farmId: e.farm_id,
        farmName: e.farm_name,
        provinceName: e.province_name,
        networkId: e.network_id,
        gatewayType: e.type_key,
        breedName: e.breed_name,
        ageDays: e.age_days === null ? null : Number(e.age_days),
        headCount: e.head_count,
      })),
    );
    expect(rows.some((r) => r.ageDays !== null && r.breedName !== null)).toBe(true);
    const farmId = rows[0]!.farmId;
    const farm = await overview(`/api/overview/listOverview/?farmId=${farmId}`);
    expect(farm.rows).toEqual(rows.filter((r) => r.farmId === farmId));
    const one = await overview(`/api/overview/listOverview/?houseId=${silent}`);
    expect(one.rows).toEqual(rows.filter((r) => r.houseId === silent));
    expect(one.total).toBe(1);
  });

  it('answers the kiosk wall the same houses', async () => {
    const { rows } = await overview('/api/overview/listOverview/');
    const wall = await overview('/api/wall/houses');
    expect(wall).toEqual({ rows, total: rows.length });
  });
});
