import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matching, operationsOf, type ApiDocument } from '../../src/console/system/api/apiDocument';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';

// The reference page reads the server's own document: these read the one the server serves.
describe('the API reference page reading the served OpenAPI document', () => {
  let t: TestApp;
  let document: ApiDocument;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseTargets()[0]!);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { authorization: `Bearer ${await t.signIn('admin')}` },
    });
    document = res.json();
  });
  afterAll(() => t.close());

  it('lists every call once, grouped by area, with who may call it', () => {
    const operations = operationsOf(document);
    const ids = operations.map((op) => op.id);
    expect(new Set(ids).size).toBe(ids.length);
    const tariff = operations.find((op) => op.id === 'put /api/production/tariff')!;
    expect(tariff).toMatchObject({
      method: 'PUT',
      tag: 'production',
      roles: ['administrator', 'company_manager'],
      operating: true,
    });
    expect(operations.find((op) => op.path === '/api/config')!.roles).toBeNull();
  });

  it("writes a call's parameters, body and answer as fields a person reads", () => {
    const operations = operationsOf(document);
    const read = operations.find((op) => op.id === 'get /api/production/tariff')!;
    expect(read.parameters).toEqual([
      expect.objectContaining({ name: 'orgId', type: 'integer', required: true }),
    ]);
    const names = read.answer.map((f) => f.name);
    expect(names).toContain('orgId');
    expect(names.some((n) => n.startsWith('tariff.'))).toBe(true);
    // Bounds a reader needs, and none of the integer's safe range that zod writes for every id.
    expect(read.answer.find((f) => f.name === 'orgId')!.limits).toBe('');
    expect(read.answer.find((f) => f.name === 'tariff.hours')!.limits).toBe('24');
    const save = operations.find((op) => op.id === 'put /api/production/tariff')!;
    expect(save.body.map((f) => f.name)).toContain('orgId');
    const health = operations.find((op) => op.path === '/api/health')!;
    expect(health.answer.find((f) => f.name === 'db')).toMatchObject({ limits: 'ok | down' });
    const described = operations.find((op) => op.path === '/api/openapi.json')!;
    expect(described.files).toEqual(['application/json']);
  });

  it('finds calls by the words typed, in any order and case', () => {
    const operations = operationsOf(document);
    const found = matching(operations, 'TARIFF put');
    expect(found.map((op) => op.id)).toEqual(['put /api/production/tariff']);
    expect(matching(operations, '')).toHaveLength(operations.length);
  });
});
