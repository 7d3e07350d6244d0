import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_KEYS } from '../../src/contract/roles';
import { undeclared } from '../../server/system/openapi';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';

/**
 * The devices', cameras', gateway upgrades' and House Setting's routes say what they take,
 * what they answer and who may call them, and the API description says the same: an
 * integrator reading it learns which roles may act and which calls are operating actions.
 * The description is made from the routes' options, whatever the database: PGlite is enough.
 */
const FEATURES = /^\/api\/(camera|concentrator|terminal|maintenance|device|upgrade|envcontrol)\//;

describe('the routes of devices, upgrades and House Setting, as described', () => {
  let t: TestApp;
  let paths: Record<string, Record<string, Record<string, unknown>>>;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseTargets()[0]!);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { authorization: `Bearer ${await t.signIn('farm')}` },
    });
    paths = res.json().paths;
  });
  afterAll(() => t.close());

  it('each declares its answer, its roles and its path parameters', () => {
    const mine = t.app.registeredRoutes.filter((r) => FEATURES.test(r.url));
    expect(mine.length).toBeGreaterThanOrEqual(30);
    const gaps = mine.flatMap((route) =>
      undeclared(route).map((gap) => `${route.method} ${route.url}: ${gap}`),
    );
    expect(gaps).toEqual([]);
  });

  it('names who may call each: upgrade files are the administrators’, the rest every role’s', () => {
    const rolesOf = (path: string, method: string) => paths[`/api${path}`]?.[method]?.['x-roles'];
    for (const [path, method] of [
      ['/upgrade/files', 'get'],
      ['/upgrade/uploadFile', 'post'],
      ['/upgrade/deleteFile', 'post'],
    ] as const)
      expect(rolesOf(path, method), path).toEqual(['administrator']);
    for (const [path, method] of [
      ['/upgrade/choices', 'get'],
      ['/upgrade/send', 'post'],
      ['/envcontrol/send', 'post'],
      ['/camera/list', 'get'],
      ['/camera/play/{id}/*', 'get'],
      ['/maintenance/complete', 'post'],
    ] as const)
      expect(rolesOf(path, method), path).toEqual([...ROLE_KEYS]);
    // The gateway fetches its file with its own token, not a user's session.
    expect(paths['/api/upgrade/download/{networkId}/{token}']?.get?.['security']).toEqual([]);
  });

  it('marks what changes a house as an operating action, and reading as not', () => {
    const operating = (path: string, method: string) =>
      paths[`/api${path}`]?.[method]?.['x-operating'] === true;
    for (const resource of ['concentrator', 'terminal', 'maintenance', 'camera']) {
      expect(operating(`/${resource}/create`, 'post'), resource).toBe(true);
      expect(operating(`/${resource}/update`, 'put'), resource).toBe(true);
      expect(operating(`/${resource}/delete`, 'delete'), resource).toBe(true);
      expect(operating(`/${resource}/list`, 'get'), resource).toBe(false);
    }
    expect(operating('/envcontrol/send', 'post')).toBe(true);
    expect(operating('/envcontrol/deviceLog', 'post')).toBe(true);
    expect(operating('/upgrade/send', 'post')).toBe(true);
    expect(operating('/envcontrol/deviceLog', 'get')).toBe(false);
  });

  it('describes the stream, the CSV and the upload by their media types', () => {
    const play = paths['/api/camera/play/{id}/*']?.get as {
      parameters: Array<{ name: string; in: string }>;
      responses: Record<string, { content: Record<string, unknown> }>;
    };
    expect(play.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path' })]);
    expect(Object.keys(play.responses['200']!.content)).toEqual(
      expect.arrayContaining(['application/vnd.apple.mpegurl', 'video/mp2t']),
    );
    const csv = paths['/api/envcontrol/records/export']?.get as {
      responses: Record<string, { content: Record<string, unknown> }>;
    };
    expect(Object.keys(csv.responses['200']!.content)).toEqual(['text/csv']);
    const upload = paths['/api/upgrade/uploadFile']?.post as {
      parameters: Array<{ name: string }>;
      requestBody: { content: Record<string, unknown> };
    };
    expect(upload.parameters.map((p) => p.name)).toEqual(['version', 'typeKeys']);
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
  });
});
