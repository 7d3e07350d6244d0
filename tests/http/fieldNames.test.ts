import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_NAMES, fieldName } from '../../server/http/fieldNames';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { call } from '../admin/client';

interface Schema {
  $ref?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}
interface Operation {
  parameters?: Array<{ name: string }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  'x-roles'?: string[];
}

/**
 * A refusal names the field a person filled in by its name in their language. Every field a
 * signed-in caller's route takes (read from the API's own description) has a name in both.
 */
describe('the names of the fields a refusal speaks of', () => {
  let t: TestApp;
  let document: { paths: Record<string, Record<string, Operation>> } & Record<string, unknown>;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseTargets()[0]!);
    const token = await t.signIn('admin');
    const res = await t.app.inject({
      url: '/api/openapi.json',
      headers: { authorization: `Bearer ${token}` },
    });
    document = res.json();
  });
  afterAll(() => t?.close());

  it('names every field of every signed-in route in English and Chinese', () => {
    const fields = new Set<string>();
    const walk = (schema: Schema | undefined, depth = 0): void => {
      if (!schema || depth > 12) return;
      if (schema.$ref) {
        let target: unknown = document;
        for (const part of schema.$ref.replace('#/', '').split('/'))
          target = (target as Record<string, unknown>)?.[part];
        return walk(target as Schema, depth + 1);
      }
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        fields.add(name);
        walk(property, depth + 1);
      }
      walk(schema.items, depth + 1);
      for (const list of [schema.anyOf, schema.oneOf, schema.allOf])
        for (const s of list ?? []) walk(s, depth + 1);
    };
    for (const operations of Object.values(document.paths))
      for (const operation of Object.values(operations)) {
        // A route no role calls is a provider's callback (SMS and voice receipts).
        if (!operation['x-roles']?.length) continue;
        for (const parameter of operation.parameters ?? []) fields.add(parameter.name);
        walk(operation.requestBody?.content?.['application/json']?.schema);
      }
    expect(fields.size).toBeGreaterThan(100);
    const unnamed = [...fields].filter(
      (f) => !Object.hasOwn(FIELD_NAMES, f) || !FIELD_NAMES[f]?.en || !FIELD_NAMES[f]?.zh,
    );
    expect(unnamed).toEqual([]);
  });

  it('says which field is wrong by its name, in the request language', async () => {
    const token = await t.signIn('admin');
    const en = await call(t, token, 'GET', '/log/list?source=fax', undefined, 'en');
    expect(en.status).toBe(400);
    expect(en.msg).toBe('Check “Source”: the value is not valid.');
    const zh = await call(t, token, 'GET', '/log/list?source=fax', undefined, 'zh');
    expect(zh.msg).toBe('请检查“来源”：填写的值无效。');
  });

  it('names a field inside a list by its own name, and a provider’s field as it is', () => {
    expect(fieldName('records.3.feedKg', 'en')).toBe('Feed (kg)');
    expect(fieldName('records.3.feedKg', 'zh')).toBe('耗料（kg）');
    expect(fieldName('err_code', 'en')).toBe('err_code');
    expect(fieldName('constructor', 'en')).toBe('constructor');
  });
});
