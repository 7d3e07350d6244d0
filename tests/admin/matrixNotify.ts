import type { Fixtures, Role } from './matrixFixtures';
import { ADMIN, ALL, expectAbsent, per, type Endpoint, type Req } from './matrixShared';

/**
 * The alarm notification rows: silences and escalation levels. A silence is made by each role
 * in turn (admin, company, area, farm, shack: ids 1–5 of a fresh database, as the create row
 * runs first and only those inside succeed), and each role then ends its own.
 */
const HOUR_MS = 3_600_000;
const silence = (farmId: number, houseId: number | null): Req => ({
  url: '/notify/silence/create',
  body: {
    farmId,
    houseId,
    reason: 'matrix',
    endsAt: new Date(Date.now() + HOUR_MS).toISOString(),
  },
});

/** Where each role may silence: a farm it manages, or (house manager) one of its houses. */
const OWN: Record<Role, (f: Fixtures) => Req> = {
  admin: (f) => silence(f.node.qingyuan, null),
  company: (f) => silence(f.node.tieling, null),
  area: (f) => silence(f.node.gaocheng, null),
  farm: (f) => silence(f.node.weifang, null),
  shack: (f) => silence(f.node.weifang, f.house.wf1),
};
const SILENCE_ID: Record<Role, number> = { admin: 1, company: 2, area: 3, farm: 4, shack: 5 };

/** One's own preferences, choosing these farms. */
const prefs = (farmIds: number[]): Req => ({
  url: '/notify/prefs/save',
  body: { farmIds, severities: ['critical', 'major'], channels: ['sms'] },
});

/** A read that names no farm outside the caller's scope (silences, the farms to choose from). */
const HIDES_OTHER_FARMS: Endpoint['check'] = {
  company: (_d, body) => expectAbsent(body, 'Qingyuan Layer Farm'),
  area: (_d, body) => expectAbsent(body, 'Tieling Broiler Farm'),
  farm: (_d, body) => expectAbsent(body, 'Gaocheng Broiler Farm'),
  shack: (_d, body) => expectAbsent(body, 'Gaocheng Broiler Farm'),
};

/** A drill read: the administrator's alone, the others get the same request and a 403. */
const adminRead = (path: string, query = ''): Endpoint => ({
  method: 'GET',
  path,
  roles: ADMIN,
  inside: { admin: () => ({ url: `${path}${query}` }) },
});

const hasRows = (data: unknown) => {
  if (!Array.isArray((data as { rows?: unknown[] }).rows)) throw new Error('no rows');
};

export const NOTIFY_ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    path: '/notify/silence/create',
    roles: ALL,
    inside: OWN,
    outside: {
      company: [
        { why: 'a farm of the other company', build: (f) => silence(f.node.qingyuan, null) },
      ],
      area: [{ why: 'a farm it does not manage', build: (f) => silence(f.node.tieling, null) }],
      farm: [
        { why: 'another farm', build: (f) => silence(f.node.gaocheng, null) },
        { why: "another farm's house", build: (f) => silence(f.node.gaocheng, f.house.gc1) },
      ],
      shack: [
        { why: 'the whole farm', build: (f) => silence(f.node.weifang, null) },
        { why: 'a house it does not run', build: (f) => silence(f.node.weifang, f.house.wf4) },
      ],
    },
  },
  {
    method: 'GET',
    path: '/notify/silence/list',
    roles: ALL,
    inside: per(() => ({ url: '/notify/silence/list?state=all' }), ALL),
    check: HIDES_OTHER_FARMS,
  },
  {
    method: 'POST',
    path: '/notify/silence/end',
    roles: ALL,
    inside: per(
      (_f, role) => ({ url: '/notify/silence/end', body: { id: SILENCE_ID[role] } }),
      ALL,
    ),
    outside: {
      company: [
        {
          why: "the other company's",
          build: () => ({ url: '/notify/silence/end', body: { id: 1 } }),
        },
      ],
      area: [
        {
          why: "a farm it does not manage's",
          build: () => ({ url: '/notify/silence/end', body: { id: 2 } }),
        },
      ],
      farm: [
        { why: "another farm's", build: () => ({ url: '/notify/silence/end', body: { id: 3 } }) },
      ],
      shack: [
        { why: 'a farm-wide one', build: () => ({ url: '/notify/silence/end', body: { id: 4 } }) },
      ],
    },
  },
  {
    method: 'GET',
    path: '/notify/escalation/list',
    roles: ALL,
    inside: per(() => ({ url: '/notify/escalation/list' }), ALL),
    // The demo has no alarm phone entries; tests/notify/routes.test.ts checks the scope with some.
    check: {
      company: hasRows,
      area: hasRows,
      farm: hasRows,
      shack: hasRows,
    },
  },
  {
    method: 'GET',
    path: '/notify/prefs/mine',
    roles: ALL,
    inside: per(() => ({ url: '/notify/prefs/mine' }), ALL),
    // The farms offered to choose from are the caller's own.
    check: HIDES_OTHER_FARMS,
  },
  {
    method: 'POST',
    path: '/notify/prefs/save',
    roles: ALL,
    inside: {
      admin: (f) => prefs([f.node.qingyuan]),
      company: (f) => prefs([f.node.tieling]),
      area: (f) => prefs([f.node.gaocheng]),
      farm: (f) => prefs([f.node.weifang]),
      shack: (f) => prefs([f.node.weifang]),
    },
    outside: {
      company: [{ why: 'a farm of the other company', build: (f) => prefs([f.node.qingyuan]) }],
      area: [{ why: 'a farm it does not manage', build: (f) => prefs([f.node.tieling]) }],
      farm: [{ why: 'another farm', build: (f) => prefs([f.node.gaocheng]) }],
      shack: [{ why: 'another farm', build: (f) => prefs([f.node.gaocheng]) }],
    },
  },
  // Drills are the administrator's: the other roles get the admin's request and a 403.
  {
    method: 'POST',
    path: '/notify/drill/start',
    roles: ADMIN,
    inside: {
      admin: async (f) => {
        // The demo has no alarm phone entries: a drill needs someone to call.
        await f.make.query(
          `insert into alarm_phones (farm_id, house_id, phone, period1_start, period1_end, date_type,
             repeat_minutes, closable, alarm_type, delay_minutes, status, notice_types)
           select $1, $2, '13800000099', '00:00', '00:00', 'daily', 0, true, 'message', 0, 'open', '[]'
           where not exists (select 1 from alarm_phones where phone = '13800000099')`,
          [f.node.qingyuan, f.house.qy1],
        );
        return { url: '/notify/drill/start', body: { houseId: f.house.qy1 } };
      },
    },
  },
  adminRead('/notify/drill/list'),
  adminRead('/notify/drill/report', '?id=1'),
  adminRead('/notify/drill/report.csv', '?id=1'),
  {
    method: 'POST',
    path: '/notify/drill/schedule',
    roles: ADMIN,
    inside: {
      admin: (f) => ({
        url: '/notify/drill/schedule',
        body: { houseId: f.house.qy1, weekday: 1, time: '09:30' },
      }),
    },
  },
  adminRead('/notify/drill/schedules'),
];
