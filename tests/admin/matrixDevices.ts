import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Fixtures, Role } from './matrixFixtures';
import {
  ALL,
  name,
  OUTSIDE_HOUSE,
  outsideHouse,
  per,
  type Endpoint,
  type Outside,
  type Req,
} from './matrixShared';

const outside = (
  build: (f: Fixtures, houseId: number) => Req | Promise<Req>,
): Partial<Record<Role, Outside[]>> => outsideHouse((houseId, f) => build(f, houseId));

const insertId = async (f: Fixtures, sql: string, params: unknown[]) =>
  (await f.make.query<{ id: number }>(`${sql} returning id`, params))[0]!.id;

const concentrator = (f: Fixtures, houseId: number) =>
  insertId(
    f,
    `insert into concentrators (house_id, type, code, name) values ($1, 'controller', $2, 'M')`,
    [houseId, name('MC')],
  );
const device = (f: Fixtures, houseId: number) =>
  insertId(
    f,
    `insert into terminal_devices (house_id, name, code, type) values ($1, 'M', $2, 'fan')`,
    [houseId, name('MD')],
  );
const plan = (f: Fixtures, houseId: number) =>
  insertId(
    f,
    `insert into maintenance_plans (house_id, type, content, planned_date, interval) values ($1, 'regular', 'M', '2026-01-01', 7)`,
    [houseId],
  );

const camera = (f: Fixtures, houseId: number) =>
  insertId(
    f,
    `insert into cameras (org_id, house_id, name, code, vendor)
     select f.org_id, h.id, $2, $2, 'dahua' from houses h join farms f on f.id = h.farm_id where h.id = $1`,
    [houseId, name('MK')],
  );

/** A media gateway on this machine answering any playlist (started once, on first use). */
let mediaUrl: Promise<string> | null = null;
const mediaGateway = () =>
  (mediaUrl ??= new Promise((resolve) => {
    const server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end('#EXTM3U\n'),
    );
    server.unref();
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/cam/index.m3u8`),
    );
  }));
const playable = async (f: Fixtures, houseId: number) => {
  const id = await camera(f, houseId);
  await f.make.query('update cameras set stream_url = $2 where id = $1', [
    id,
    await mediaGateway(),
  ]);
  return id;
};

const concentratorBody = (houseId: number) => ({
  houseId,
  type: 'controller',
  code: name('C'),
  name: 'Matrix',
});
const deviceBody = (houseId: number) => ({ houseId, name: 'Matrix', code: name('D'), type: 'fan' });
const cameraBody = (houseId: number) => ({
  houseId,
  name: name('K'),
  code: name('KC'),
  vendor: 'hikvision',
  password: 'matrix-secret',
});
const planBody = (houseId: number) => ({
  houseId,
  type: 'regular',
  content: 'Matrix',
  plannedDate: '2026-12-01',
  interval: 7,
});

/** A list, create, update and delete of one device resource, for every role, in and out of scope. */
function crud(
  resource: string,
  make: (f: Fixtures, houseId: number) => Promise<number>,
  body: (houseId: number) => object,
): Endpoint[] {
  return [
    {
      method: 'GET',
      path: `/${resource}/list`,
      roles: ALL,
      inside: per((f) => ({ url: `/${resource}/list?houseId=${f.house.wf1}` }), ALL),
      outside: outside((_f, houseId) => ({ url: `/${resource}/list?houseId=${houseId}` })),
    },
    {
      method: 'POST',
      path: `/${resource}/create`,
      roles: ALL,
      inside: per((f) => ({ url: `/${resource}/create`, body: body(f.house.wf1) }), ALL),
      outside: outside((_f, houseId) => ({ url: `/${resource}/create`, body: body(houseId) })),
    },
    {
      method: 'PUT',
      path: `/${resource}/update`,
      roles: ALL,
      inside: per(
        async (f) => ({
          url: `/${resource}/update`,
          body: { ...body(f.house.wf1), id: await make(f, f.house.wf1) },
        }),
        ALL,
      ),
      outside: outside(async (f, houseId) => ({
        url: `/${resource}/update`,
        body: { ...body(houseId), id: await make(f, houseId) },
      })),
    },
    {
      method: 'DELETE',
      path: `/${resource}/delete`,
      roles: ALL,
      inside: per(
        async (f) => ({ url: `/${resource}/delete`, body: { id: await make(f, f.house.wf1) } }),
        ALL,
      ),
      outside: outside(async (f, houseId) => ({
        url: `/${resource}/delete`,
        body: { id: await make(f, houseId) },
      })),
    },
  ];
}

/** Concentrators, terminal devices, maintenance and cameras: every role, inside its houses only. */
export const DEVICE_ENDPOINTS: Endpoint[] = [
  ...crud('concentrator', concentrator, concentratorBody),
  ...crud('terminal', device, deviceBody),
  ...crud('maintenance', plan, planBody),
  ...crud('camera', camera, cameraBody),
  {
    method: 'POST',
    path: '/maintenance/complete',
    roles: ALL,
    inside: per(
      async (f) => ({ url: '/maintenance/complete', body: { id: await plan(f, f.house.wf1) } }),
      ALL,
    ),
    outside: outside(async (f, houseId) => ({
      url: '/maintenance/complete',
      body: { id: await plan(f, houseId) },
    })),
  },
  {
    method: 'GET',
    path: '/maintenance/history',
    roles: ALL,
    inside: per((f) => ({ url: `/maintenance/history?houseId=${f.house.wf1}` }), ALL),
    outside: outside((_f, houseId) => ({ url: `/maintenance/history?houseId=${houseId}` })),
  },
];

/** A camera's live stream, relayed: every role, the cameras of its houses only. */
export const CAMERA_PLAY_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/camera/play/:id/*',
    roles: ALL,
    inside: per(
      async (f) => ({ url: `/camera/play/${await playable(f, f.house.wf1)}/index.m3u8` }),
      ALL,
    ),
    outside: outside(async (f, houseId) => ({
      url: `/camera/play/${await playable(f, houseId)}/index.m3u8`,
    })),
  },
];

/** Shack Manage's summary: every role, only the houses of its scope. */
export const DEVICE_SUMMARY_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/device/houseSummary',
    roles: ALL,
    inside: per(() => ({ url: '/device/houseSummary' }), ALL),
    check: Object.fromEntries(
      (['company', 'area', 'farm', 'shack'] as const).map((role) => [
        role,
        (data: unknown, _body: string, f: Fixtures) => {
          const ids = (data as { rows: Array<{ houseId: number }> }).rows.map((r) => r.houseId);
          if (ids.includes(f.house[OUTSIDE_HOUSE[role].house]))
            throw new Error(`${role} sees a house outside its scope`);
        },
      ]),
    ),
  },
];

/** The monitor's charts of extra parameters: every role, its houses only. */
export const DEVICE_EXTRA_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/device/extraTrend',
    roles: ALL,
    inside: per(
      (f) => ({
        url: `/device/extraTrend?houseId=${f.house.wf1}&from=${Date.now() - 3_600_000}&to=${Date.now()}`,
      }),
      ALL,
    ),
    outside: outside((_f, houseId) => ({
      url: `/device/extraTrend?houseId=${houseId}&from=${Date.now() - 3_600_000}&to=${Date.now()}`,
    })),
  },
];
