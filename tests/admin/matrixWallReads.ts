/**
 * The wall's map, drill-down, house list and alarm figures in the role × endpoint matrix: every
 * role reads the wall of its own scope, and the kiosk link of Fixtures (Weifang alone) the wall
 * of its farm. Each read is checked against a farm or house the reader may not see.
 */
import type { WallFarmHouses, WallMap, WallProvince } from '../../src/contract/wall';
import type { HouseOverview } from '../../src/contract/overview';
import type { WallOpenAlarms } from '../../src/contract/wallAlarms';
import type { AlarmToday } from '../../src/contract/alarms';
import type { Paged } from '../../src/contract/paged';
import type { Fixtures, Role } from './matrixFixtures';
import { ALL, OUTSIDE_HOUSE, per, type Check, type Endpoint, type Outside } from './matrixShared';

/** A signed-in role or the kiosk link. */
export type Viewer = Role | 'kiosk';
type Scoped = Exclude<Viewer, 'admin'>;

/** A house each scoped viewer may not see (the kiosk: Gaocheng's, outside its one farm). */
export const outsideHouseOf = (f: Fixtures, v: Scoped) =>
  v === 'kiosk' ? f.house.gc1 : f.house[OUTSIDE_HOUSE[v].house];

/** A farm each scoped viewer may not see at all. */
const OUTSIDE_FARM = {
  company: 'qingyuan',
  area: 'tieling',
  farm: 'gaocheng',
  shack: 'gaocheng',
  kiosk: 'gaocheng',
} as const satisfies Record<Scoped, keyof Fixtures['node']>;
const outsideFarmOf = (f: Fixtures, v: Scoped) => f.node[OUTSIDE_FARM[v]];

/**
 * Leaves exactly the alarms named, each raised now and open: Weifang House 1 (every viewer sees
 * it) and, but for an administrator, one house the viewer may not see.
 */
export async function alarmsFor(f: Fixtures, v: Viewer): Promise<void> {
  const houses = v === 'admin' ? [f.house.wf1, f.house.qy1] : [f.house.wf1, outsideHouseOf(f, v)];
  await f.make.query(`delete from alarms`);
  await f.make.query(
    `insert into alarms (house_id, farm_id, cause, subject, severity, state, raised_at)
     select id, farm_id, 'temperatureHigh', 'matrix', 'critical', 'active', now()
     from houses where id = any($1::int[])`,
    [houses],
  );
}

/** Each viewer's share of alarmsFor's two alarms: both for an administrator, one for the rest. */
const expectAlarms =
  (v: Viewer, count: (data: unknown) => number): Check =>
  (data) => {
    const n = count(data);
    if (n !== (v === 'admin' ? 2 : 1)) throw new Error(`${v} counts ${n} of alarmsFor's alarms`);
  };

/** An alarm figure of the wall, read after alarmsFor. */
function alarmRead(path: string, count: (data: unknown) => number): Endpoint {
  const build = (v: Viewer) => async (f: Fixtures) => {
    await alarmsFor(f, v);
    return { url: path };
  };
  return {
    method: 'GET',
    path,
    roles: ALL,
    inside: Object.fromEntries(ALL.map((r) => [r, build(r)])),
    check: Object.fromEntries(ALL.map((r) => [r, expectAlarms(r, count)])),
    kiosk: { inside: build('kiosk'), check: expectAlarms('kiosk', count) },
  };
}

/** The farms a read lists include Weifang (every viewer's) and not the viewer's outside farm. */
const farmsSeen =
  (v: Viewer, farmsOf: (data: unknown) => number[]): Check =>
  (data, _body, f) => {
    const ids = farmsOf(data);
    if (!ids.includes(f.node.weifang)) throw new Error(`${v} does not see Weifang`);
    if (v === 'admin') {
      if (!ids.includes(f.node.qingyuan)) throw new Error('admin does not see Qingyuan');
    } else if (ids.includes(outsideFarmOf(f, v))) throw new Error(`${v} sees a farm outside`);
    if (v === 'kiosk' && ids.length !== 1) throw new Error(`the kiosk sees farms ${ids.join()}`);
  };

/** The province of the farm a viewer may not see (Qingyuan's for an administrator). */
const provinceOf = async (f: Fixtures, v: Viewer) => {
  const farm = v === 'admin' ? f.node.qingyuan : outsideFarmOf(f, v);
  const [row] = await f.make.query<{ adcode: string }>(
    `select province_adcode as adcode from farms where id = $1`,
    [farm],
  );
  return { url: `/wall/province/${row!.adcode}` };
};

/** The province's farms: the outside farm is not among them (for an administrator, it is). */
const provinceCheck =
  (v: Viewer): Check =>
  (data, _body, f) => {
    const ids = (data as WallProvince).farms.map((x) => x.farmId);
    const farm = v === 'admin' ? f.node.qingyuan : outsideFarmOf(f, v);
    if (ids.includes(farm) !== (v === 'admin')) throw new Error(`${v} province: ${ids.join()}`);
  };

/** Another farm's drill-down looks like no farm at all. */
const farmOutside = (v: Scoped, path: (farmId: number) => string): Outside[] => [
  {
    why: `a farm it may not see (${OUTSIDE_FARM[v]})`,
    build: (f) => ({ url: path(outsideFarmOf(f, v)) }),
  },
];

/** The houses a read lists include Weifang House 1 and not the viewer's outside house. */
const housesSeen =
  (v: Viewer, housesOf: (data: unknown) => number[]): Check =>
  (data, _body, f) => {
    const ids = housesOf(data);
    if (!ids.includes(f.house.wf1)) throw new Error(`${v} does not see Weifang House 1`);
    const outside = v === 'admin' ? null : outsideHouseOf(f, v);
    if (outside !== null && ids.includes(outside)) throw new Error(`${v} sees a house outside`);
  };

const mapFarms = (data: unknown) => (data as WallMap).farms.map((x) => x.farmId);
const listedHouses = (data: unknown) => (data as Paged<HouseOverview>).rows.map((h) => h.houseId);
const drilledHouses = (data: unknown) => (data as WallFarmHouses).houses.map((h) => h.houseId);
const weifang = (f: Fixtures) => ({ url: `/wall/farm/${f.node.weifang}` });

export const WALL_READ_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/wall/map',
    roles: ALL,
    inside: per(() => ({ url: '/wall/map' }), ALL),
    check: Object.fromEntries(ALL.map((r) => [r, farmsSeen(r, mapFarms)])),
    kiosk: { inside: () => ({ url: '/wall/map' }), check: farmsSeen('kiosk', mapFarms) },
  },
  {
    method: 'GET',
    path: '/wall/province/:adcode',
    roles: ALL,
    inside: Object.fromEntries(ALL.map((r) => [r, (f: Fixtures) => provinceOf(f, r)])),
    check: Object.fromEntries(ALL.map((r) => [r, provinceCheck(r)])),
    kiosk: { inside: (f) => provinceOf(f, 'kiosk'), check: provinceCheck('kiosk') },
  },
  {
    method: 'GET',
    path: '/wall/farm/:farmId',
    roles: ALL,
    inside: per(weifang, ALL),
    outside: Object.fromEntries(
      (['company', 'area', 'farm', 'shack'] as const).map((r) => [
        r,
        farmOutside(r, (id) => `/wall/farm/${id}`),
      ]),
    ),
    // Its own farm's drill-down leaves out the houses it was not given.
    check: { shack: (data, body, f) => housesSeen('shack', drilledHouses)(data, body, f) },
    kiosk: { inside: weifang, outside: farmOutside('kiosk', (id) => `/wall/farm/${id}`) },
  },
  {
    method: 'GET',
    path: '/wall/houses',
    roles: ALL,
    inside: per(() => ({ url: '/wall/houses' }), ALL),
    check: Object.fromEntries(ALL.map((r) => [r, housesSeen(r, listedHouses)])),
    kiosk: { inside: () => ({ url: '/wall/houses' }), check: housesSeen('kiosk', listedHouses) },
  },
  alarmRead('/wall/today', (data) => (data as AlarmToday).reduce((n, c) => n + c.count, 0)),
  alarmRead('/wall/alarms', (data) => (data as WallOpenAlarms).total),
  alarmRead('/wall/alarmAmt', (data) => data as number),
];
