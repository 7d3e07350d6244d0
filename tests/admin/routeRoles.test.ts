import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../server/http/messages';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { call, type Method } from './client';
import { snapshot } from './matrixFixtures';

/**
 * The routes of system management name the roles that may call them, and the server holds to
 * that before it reads anything sent: a role the route is not for learns nothing about what
 * the route accepts (a 400 naming a field would tell it), and nothing is written.
 */

/** Farm administration (administrators and company managers): a farm manager is not one. */
const FARM_ADMIN_ONLY: ReadonlyArray<[Method, string]> = [
  ['PUT', '/breed/update'],
  ['DELETE', '/breed/delete'],
  ['PUT', '/breed/saveTargets'],
  ['PUT', '/breed/saveImmune'],
  ['PUT', '/farm/update'],
  ['DELETE', '/farm/delete'],
  ['POST', '/house/create'],
  ['PUT', '/house/update'],
  ['DELETE', '/house/delete'],
  ['GET', '/house/listByFarm?farmId=x'],
  ['POST', '/gateway/save'],
  ['PUT', '/gateway/rotateToken'],
  ['PUT', '/gateway/enrolCode'],
  ['DELETE', '/gateway/delete'],
  ['POST', '/flock/start'],
  ['PUT', '/flock/close'],
];

describe('roles of the system management routes', () => {
  let t: TestApp;
  let farm: string;

  beforeAll(async () => {
    t = await createTestApp(testDatabaseTargets()[0]!);
    farm = await t.signIn('farm');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a role the route is not for before reading its input', async () => {
    const before = await snapshot(t);
    for (const [method, url] of FARM_ADMIN_ONLY)
      for (const locale of ['en', 'zh'] as const) {
        // The input is wrong on purpose: read first, it would answer 400 naming the field.
        const res = await call(
          t,
          farm,
          method,
          url,
          method === 'GET' ? undefined : { id: 'x' },
          locale,
        );
        expect(res.status, `${method} ${url}: ${res.res.body}`).toBe(403);
        expect(res.msg).toBe(translate('auth.forbidden', locale));
      }
    expect(await snapshot(t), 'a refused request changes nothing').toEqual(before);
  });

  it('describes the roles it holds to in the API document', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { authorization: `Bearer ${farm}` },
    });
    const paths = res.json().paths;
    expect(paths['/api/user/save'].post['x-roles']).toEqual([
      'administrator',
      'company_manager',
      'area_manager',
      'farm_manager',
    ]);
    expect(paths['/api/org/create'].post['x-roles']).toEqual(['administrator']);
    expect(paths['/api/ingest/stats'].get['x-roles']).toEqual(['administrator']);
    expect(paths['/api/gateway/save'].post['x-roles']).toEqual([
      'administrator',
      'company_manager',
    ]);
    expect(paths['/api/gateway/save'].post['x-operating']).toBe(true);
    expect(paths['/api/log/list'].get.parameters).toContainEqual(
      expect.objectContaining({ name: 'operator', in: 'query' }),
    );
    // Signing in needs no session: the document says so.
    expect(paths['/api/login'].post.security).toEqual([]);
  });
});
