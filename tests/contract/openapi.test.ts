import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { undeclared } from '../../server/system/openapi';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';

// The description is made from the routes' options, whatever the database: PGlite is enough.
describe('the API described', () => {
  {
    let t: TestApp;
    let token: string;
    beforeAll(async () => {
      t = await createTestApp(testDatabaseTargets()[0]!);
      token = await t.signIn('farm');
    });
    afterAll(() => t.close());

    it('every /api route declares its answer, its roles and its path parameters', () => {
      const gaps = t.app.registeredRoutes.flatMap((route) =>
        undeclared(route).map((gap) => `${route.method} ${route.url}: ${gap}`),
      );
      expect(gaps).toEqual([]);
    });

    it('serves a valid OpenAPI 3.1 document listing every /api route to a signed-in user', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/openapi.json',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const document = res.json();
      // Validation dereferences in place: keep the served copy for the listing below.
      await SwaggerParser.validate(structuredClone(document));
      expect(document.openapi).toBe('3.1.0');
      const listed = new Set(
        Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
          ([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
        ),
      );
      const routes = t.app.registeredRoutes
        .filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD')
        .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
      expect(routes.length).toBeGreaterThan(100);
      expect(routes.filter((r) => !listed.has(r))).toEqual([]);
    });

    it('describes a route as it behaves: its query, its answer and who may call it', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/openapi.json',
        headers: { authorization: `Bearer ${token}` },
      });
      const tariff = res.json().paths['/api/production/tariff'];
      expect(tariff.get.parameters).toEqual([
        expect.objectContaining({ name: 'orgId', in: 'query', required: true }),
      ]);
      expect(tariff.get['x-roles']).toEqual(['administrator', 'company_manager']);
      expect(tariff.put['x-operating']).toBe(true);
      const answer = tariff.get.responses['200'].content['application/json'].schema;
      expect(answer.properties.data.properties.tariff).toBeDefined();
      // The roles it names are the ones the server holds to.
      const refused = await t.app.inject({
        method: 'GET',
        url: '/api/production/tariff?orgId=1',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(refused.statusCode).toBe(403);
    });

    it('is not served to someone not signed in', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
      expect(res.statusCode).toBe(401);
    });
  }
});
