import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  kioskCreatedSchema,
  kioskLinkSchema,
  kioskListSchema,
  kioskSelfSchema,
} from '../../src/contract/wallKiosk';
import { DEFAULT_WALL_LAYOUT } from '../../src/contract/wallLayout';
import { translate } from '../../server/http/messages';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';

interface Answer {
  status: number;
  body: { code: number; msg: string; data: unknown };
}

const LAYOUT = { left: ['counters', 'night'], right: ['alarms'] };
const TOUR = { seconds: 10, stops: ['overview', 'worstFarms', 'night'] };

describe.each(testDatabaseTargets())('kiosk link panels and tour on $name', (target) => {
  let t: TestRoost;
  let admin: string;

  const call = async (
    method: 'GET' | 'POST',
    path: string,
    token: string | null,
    body?: unknown,
    locale: 'en' | 'zh' = 'en',
  ): Promise<Answer> => {
    const res = await fetch(`${t.url}/api${path}`, {
      method,
      headers: {
        locale,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  };
  const create = async (body: object) => {
    const res = await call('POST', '/wall/kiosk/create', admin, { allFarms: true, ...body });
    expect(res.status, res.body.msg).toBe(200);
    return kioskCreatedSchema.parse(res.body.data);
  };
  const logsOf = (fn: string) =>
    t.roost.database.query<{ remark: string }>(
      `select remark from operation_logs where function = $1 order by id`,
      [fn],
    );

  beforeAll(async () => {
    t = await startTestRoost(target);
    admin = await t.signIn('admin');
  });
  afterAll(() => t?.stop());

  it('creates a link with its panels and tour, lists them and logs them', async () => {
    const { link } = await create({ name: 'Layout room', layout: LAYOUT, tour: TOUR });
    expect(link.layout).toEqual(LAYOUT);
    expect(link.tour).toEqual(TOUR);
    const list = kioskListSchema.parse((await call('GET', '/wall/kiosk/list', admin)).body.data);
    const listed = list.find((l) => l.id === link.id)!;
    expect(listed.layout).toEqual(LAYOUT);
    expect(listed.tour).toEqual(TOUR);
    const logs = await logsOf('wall.kioskCreate');
    expect(logs.at(-1)!.remark).toContain('left counters,night | right alarms');
  });

  it('gives a link made without a layout the default panels and no tour', async () => {
    const { link } = await create({ name: 'Plain room' });
    expect(link.layout).toEqual(DEFAULT_WALL_LAYOUT);
    expect(link.tour).toBeNull();
  });

  it('gives a link stored without a layout (as every link before the column) the default', async () => {
    const [row] = await t.roost.database.query<{ layout: unknown; tour: unknown }>(
      `insert into wall_kiosk_links (name, token_hash, all_farms, created_by_name)
       values ('Old room', 'old-hash', true, 'admin') returning layout, tour`,
    );
    expect(row!.layout).toEqual(DEFAULT_WALL_LAYOUT);
    expect(row!.tour).toBeNull();
  });

  it('changes the panels and tour of a link, keeps its scope and logs the change', async () => {
    const { link } = await create({ name: 'Edited room' });
    const res = await call('POST', '/wall/kiosk/layout', admin, {
      id: link.id,
      layout: { left: [], right: ['ticker', 'alarms'] },
      tour: { seconds: 300, stops: ['alarms'] },
    });
    expect(res.status, res.body.msg).toBe(200);
    const edited = kioskLinkSchema.parse(res.body.data);
    expect(edited.layout).toEqual({ left: [], right: ['ticker', 'alarms'] });
    expect(edited.tour).toEqual({ seconds: 300, stops: ['alarms'] });
    expect(edited.allFarms).toBe(true);
    const off = await call('POST', '/wall/kiosk/layout', admin, {
      id: link.id,
      layout: LAYOUT,
      tour: null,
    });
    expect(kioskLinkSchema.parse(off.body.data).tour).toBeNull();
    expect((await logsOf('wall.kiosk.layout')).at(-1)!.remark).toBe(
      'Edited room (left counters,night | right alarms; no tour)',
    );
  });

  it('refuses to edit a revoked or unknown link', async () => {
    const { link } = await create({ name: 'Gone room' });
    await call('POST', '/wall/kiosk/revoke', admin, { id: link.id });
    const res = await call('POST', '/wall/kiosk/layout', admin, {
      id: link.id,
      layout: LAYOUT,
      tour: null,
    });
    expect(res.status).toBe(404);
  });

  const INVALID: [string, object, Parameters<typeof translate>[0]][] = [
    ['an unknown panel', { layout: { left: ['weather'], right: [] } }, 'wall.layoutPanelUnknown'],
    ['a panel twice', { layout: { left: ['alarms'], right: ['alarms'] } }, 'wall.layoutPanelTwice'],
    ['no panel', { layout: { left: [], right: [] } }, 'wall.layoutEmpty'],
    ['a tour of 9 seconds', { tour: { seconds: 9, stops: ['overview'] } }, 'wall.tourSeconds'],
    ['a tour of 301 seconds', { tour: { seconds: 301, stops: ['overview'] } }, 'wall.tourSeconds'],
    ['a tour without stops', { tour: { seconds: 20, stops: [] } }, 'wall.tourStopsRequired'],
    [
      'a tour to a hidden panel',
      { layout: LAYOUT, tour: { seconds: 20, stops: ['ticker'] } },
      'wall.tourPanelHidden',
    ],
  ];
  it.each(INVALID)(
    'refuses %s on creation and edit, in English and Chinese',
    async (_n, bad, key) => {
      const { link } = await create({ name: 'Valid room' });
      for (const locale of ['en', 'zh'] as const) {
        const made = await call(
          'POST',
          '/wall/kiosk/create',
          admin,
          { name: 'Bad room', allFarms: true, ...bad },
          locale,
        );
        expect(made.status).toBe(400);
        expect(made.body.msg).toContain(translate(key, locale));
        const edited = await call(
          'POST',
          '/wall/kiosk/layout',
          admin,
          { id: link.id, layout: DEFAULT_WALL_LAYOUT, tour: null, ...bad },
          locale,
        );
        expect(edited.status).toBe(400);
        expect(edited.body.msg).toContain(translate(key, locale));
      }
      const [row] = await t.roost.database.query<{ layout: unknown }>(
        `select layout from wall_kiosk_links where id = $1`,
        [link.id],
      );
      expect(row!.layout).toEqual(DEFAULT_WALL_LAYOUT);
    },
  );

  it('lets a kiosk token read its own panels and tour, and nothing of another link', async () => {
    const own = await create({ name: 'Own room', layout: LAYOUT, tour: TOUR });
    const other = await create({
      name: 'Other room',
      layout: { left: ['ticker'], right: [] },
      tour: null,
    });
    const res = await call('GET', '/wall/kiosk/self', own.token);
    expect(res.status).toBe(200);
    expect(kioskSelfSchema.parse(res.body.data)).toEqual({
      name: 'Own room',
      layout: LAYOUT,
      tour: TOUR,
    });
    expect(JSON.stringify(res.body.data)).not.toContain('Other room');
    expect(
      kioskSelfSchema.parse((await call('GET', '/wall/kiosk/self', other.token)).body.data),
    ).toMatchObject({ name: 'Other room', tour: null });
    // A kiosk token opens none of the console's kiosk administration.
    expect((await call('GET', '/wall/kiosk/list', own.token)).status).toBe(401);
    const edit = await call('POST', '/wall/kiosk/layout', own.token, {
      id: own.link.id,
      layout: DEFAULT_WALL_LAYOUT,
      tour: null,
    });
    expect(edit.status).toBe(401);
    // A signed-in user has no link of its own, and a revoked link reads nothing.
    expect((await call('GET', '/wall/kiosk/self', admin)).status).toBe(403);
    expect((await call('GET', '/wall/kiosk/self', null)).status).toBe(401);
    await call('POST', '/wall/kiosk/revoke', admin, { id: own.link.id });
    expect((await call('GET', '/wall/kiosk/self', own.token)).status).toBe(401);
  });
});
