import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breeds, organizations } from '../../server/db/schema';
import type { BreedDetail, BreedRow } from '../../src/contract/admin';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { call, signInAll } from './client';

type Page<T> = { rows: T[]; total: number };

describe.each(testDatabaseTargets())('breeds on $name', (target) => {
  let t: TestApp;
  let tokens: Awaited<ReturnType<typeof signInAll>>;
  let foreignBreed: number;

  beforeAll(async () => {
    t = await createTestApp(target);
    tokens = await signInAll(t);
    const [org] = await t.database.db
      .insert(organizations)
      .values({ name: 'Other', code: 'OTH' })
      .returning();
    const [breed] = await t.database.db
      .insert(breeds)
      .values({ orgId: org!.id, name: 'Secret line', code: 'SEC' })
      .returning();
    foreignBreed = breed!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = (token: string) => call<Page<BreedRow>>(t, token, 'GET', '/breed/list?size=100');

  it('lists the common standards read-only and hides other organisations’ breeds', async () => {
    const rows = (await list(tokens.company)).data.rows;
    const common = rows.filter((r) => r.isCommon);
    expect(common.map((r) => r.code).sort()).toEqual(['BROILER-STD', 'LAYER-BROWN']);
    expect(rows.map((r) => r.id)).not.toContain(foreignBreed);
    expect((await list(tokens.admin)).data.rows.map((r) => r.id)).toContain(foreignBreed);
    expect((await call(t, tokens.company, 'GET', `/breed/get?id=${foreignBreed}`)).status).toBe(
      404,
    );
    expect((await call(t, tokens.farm, 'GET', '/breed/list')).status).toBe(403);

    const broiler = common.find((r) => r.code === 'BROILER-STD')!;
    const detail = await call<BreedDetail>(t, tokens.company, 'GET', `/breed/get?id=${broiler.id}`);
    expect(detail.data.targets[0]).toMatchObject({ ageDay: 0, temperature: 33 });
    const edit = await call(
      t,
      tokens.company,
      'PUT',
      '/breed/update',
      { id: broiler.id, name: 'Mine', code: 'X' },
      'zh',
    );
    expect(edit.status).toBe(403);
    expect(edit.msg).toBe('通用品种为只读，请复制后修改。');
    expect(
      (await call(t, tokens.admin, 'PUT', '/breed/saveTargets', { breedId: broiler.id, rows: [] }))
        .status,
    ).toBe(403);
    expect(
      (await call(t, tokens.admin, 'DELETE', '/breed/delete', { id: broiler.id })).status,
    ).toBe(403);
  });

  it('copies a common breed into an editable one and saves its grid and reminders', async () => {
    const broiler = (await list(tokens.company)).data.rows.find((r) => r.code === 'BROILER-STD')!;
    const copy = await call<BreedRow>(t, tokens.company, 'POST', '/breed/copy', { id: broiler.id });
    expect(copy.data).toMatchObject({
      isCommon: false,
      code: 'BROILER-STD-COPY',
      operator: 'Wang Li (company manager)',
    });
    const copied = await call<BreedDetail>(
      t,
      tokens.company,
      'GET',
      `/breed/get?id=${copy.data.id}`,
    );
    expect(copied.data.targets.length).toBeGreaterThan(3);

    const rows = [
      { ageDay: 1, temperature: 32.5, weight: 60 },
      { ageDay: 2, temperature: 32, weight: 75, humidity: 60 },
    ];
    expect(
      (await call(t, tokens.company, 'PUT', '/breed/saveTargets', { breedId: copy.data.id, rows }))
        .status,
    ).toBe(200);
    const repeated = await call(
      t,
      tokens.company,
      'PUT',
      '/breed/saveTargets',
      { breedId: copy.data.id, rows: [rows[0], rows[0]] },
      'en',
    );
    expect(repeated.status).toBe(400);
    expect(repeated.msg).toBe('Each age appears once.');
    const immune = [{ ageDay: 7, content: 'ND + IB spray' }];
    expect(
      (
        await call(t, tokens.company, 'PUT', '/breed/saveImmune', {
          breedId: copy.data.id,
          rows: immune,
        })
      ).status,
    ).toBe(200);
    const empty = await call(
      t,
      tokens.company,
      'PUT',
      '/breed/saveImmune',
      { breedId: copy.data.id, rows: [{ ageDay: 1, content: '' }] },
      'zh',
    );
    expect(empty.msg).toBe('请输入内容。');
    const saved = (
      await call<BreedDetail>(t, tokens.company, 'GET', `/breed/get?id=${copy.data.id}`)
    ).data;
    expect(saved.targets).toEqual([
      expect.objectContaining({ ageDay: 1, temperature: 32.5, weight: 60, humidity: null }),
      expect.objectContaining({ ageDay: 2, humidity: 60 }),
    ]);
    expect(saved.immune).toEqual(immune);
    expect(
      (await call(t, tokens.company, 'DELETE', '/breed/delete', { id: copy.data.id })).status,
    ).toBe(200);
  });

  it('creates a breed, refuses a missing name and a breed in use', async () => {
    const bad = await call(
      t,
      tokens.company,
      'POST',
      '/breed/create',
      { name: '', code: 'A' },
      'zh',
    );
    expect(bad.status).toBe(400);
    expect(bad.msg).toBe('请输入名称。');
    const created = await call<BreedRow>(t, tokens.company, 'POST', '/breed/create', {
      name: 'Ross 308',
      code: 'R308',
      factory: 'Aviagen',
    });
    expect(created.status).toBe(200);
    expect(
      (
        await call(t, tokens.company, 'PUT', '/breed/update', {
          id: created.data.id,
          name: 'Ross 308 AP',
          code: 'R308',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(t, tokens.company, 'PUT', '/breed/update', {
          id: foreignBreed,
          name: 'x',
          code: 'x',
        })
      ).status,
    ).toBe(404);
  });
});
