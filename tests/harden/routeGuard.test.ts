import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../admin/matrixTable';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { ROUTES_OUTSIDE_MATRIX } from './routesOutsideMatrix';

describe('every /api route is accounted for', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseTargets()[0]!);
  }, 180_000);
  afterAll(() => t?.close());

  it('has a matrix row, says it is public, or names where its access is tested', () => {
    const rows = new Set(ENDPOINTS.map((e) => `${e.method} /api${e.path}`));
    const unaccounted = t.app.registeredRoutes
      .filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && !r.public)
      .map((r) => `${r.method} ${r.url}`)
      .filter((key) => !rows.has(key) && !(key in ROUTES_OUTSIDE_MATRIX));
    expect(unaccounted, 'add a row to the matrix (tests/admin/matrix*.ts)').toEqual([]);
  });

  it('lists no route outside the matrix that no longer exists or has a row now', () => {
    const registered = new Set(t.app.registeredRoutes.map((r) => `${r.method} ${r.url}`));
    const rows = new Set(ENDPOINTS.map((e) => `${e.method} /api${e.path}`));
    const stale = Object.keys(ROUTES_OUTSIDE_MATRIX).filter(
      (key) => !registered.has(key) || rows.has(key),
    );
    expect(stale).toEqual([]);
  });
});
