import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { farms, houses } from '../../server/db/schema';
import type { FunctionKey } from '../../src/contract/operationLog';
import { writeOperationLog } from '../../server/oplog';
import { escapeCell } from '../../server/admin/spreadsheet';
import type { LogRow } from '../../src/contract/admin';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { call, signInAll } from './client';

type Page<T> = { rows: T[]; total: number };

const DANGEROUS = ['=HYPERLINK("http://x","y")', '+1+2', '-3', '@SUM(A1)', '\tTAB', '\rCR'];

describe.each(testDatabaseTargets())('operation log on $name', (target) => {
  let t: TestApp;
  let tokens: Awaited<ReturnType<typeof signInAll>>;

  beforeAll(async () => {
    t = await createTestApp(target);
    tokens = await signInAll(t);
    const db = t.database.db;
    const [weifang] = await db.select().from(farms).where(eq(farms.name, 'Weifang Broiler Farm'));
    const [qingyuan] = await db.select().from(farms).where(eq(farms.name, 'Qingyuan Layer Farm'));
    const [north] = await db.select().from(houses).where(eq(houses.farmId, weifang!.id));
    const [south] = await db.select().from(houses).where(eq(houses.farmId, qingyuan!.id));
    const operator = { id: null, name: 'Gateway tech' };
    await writeOperationLog(db, {
      operator,
      function: 'envcontrol.send' as FunctionKey,
      operation: { key: 'text', params: { text: 'set target temperature' } },
      house: { id: north!.id, name: 'North house' },
      source: 'mobile',
      networkId: 'GW-N',
    });
    await writeOperationLog(db, {
      operator,
      function: 'envcontrol.send' as FunctionKey,
      operation: { key: 'text', params: { text: 'set target temperature' } },
      house: { id: south!.id, name: 'South house' },
      source: 'other',
      networkId: 'GW-S',
    });
    for (const remark of DANGEROUS)
      await writeOperationLog(db, {
        operator: { id: null, name: 'Mallory' },
        function: 'test' as FunctionKey,
        operation: { key: 'text', params: { text: 'x' } },
        remark,
      });
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = (token: string, query: string, locale = 'en') =>
    call<Page<LogRow>>(t, token, 'GET', `/log/list?${query}`, undefined, locale);

  it('filters by operator, function, house, source and time, with paging', async () => {
    const bySource = await list(tokens.admin, 'source=mobile');
    expect(bySource.data.rows.map((r) => r.houseName)).toEqual(['North house']);
    expect(bySource.data.rows[0]).toMatchObject({
      networkId: 'GW-N',
      operatorName: 'Gateway tech',
    });
    expect((await list(tokens.admin, 'house=south')).data.total).toBe(1);
    expect((await list(tokens.admin, 'operator=mallory')).data.total).toBe(DANGEROUS.length);
    expect((await list(tokens.admin, 'function=envcontrol')).data.total).toBe(2);
    const paged = await list(tokens.admin, 'operator=mallory&size=4&page=2');
    expect(paged.data.rows).toHaveLength(DANGEROUS.length - 4);
    expect(paged.data.total).toBe(DANGEROUS.length);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await list(tokens.admin, `from=${encodeURIComponent(future)}`)).data.total).toBe(0);
    // A % typed by the user is a character, not a wildcard.
    expect((await list(tokens.admin, 'operator=%25')).data.total).toBe(0);
  });

  it('shows a manager only its houses and its own changes', async () => {
    const rows = (await list(tokens.farm, 'size=200')).data.rows;
    expect(rows.map((r) => r.houseName)).toContain('North house');
    expect(rows.map((r) => r.houseName)).not.toContain('South house');
    expect(rows.map((r) => r.operatorName)).not.toContain('Mallory');
    expect(rows.every((r) => r.operatorName.startsWith('Liu Yang') || r.houseName !== '')).toBe(
      true,
    );
  });

  it('refuses a bad filter with 400 in the request language', async () => {
    const en = await list(tokens.admin, 'source=fax', 'en');
    expect(en.status).toBe(400);
    expect(en.msg).toBe('Check “Source”: the value is not valid.');
    const zh = await list(tokens.admin, 'from=yesterday', 'zh');
    expect(zh.status).toBe(400);
    expect(zh.msg).toBe('请检查“开始”：填写的值无效。');
  });

  it('exports CSV with every formula-like cell escaped', async () => {
    const res = await call(
      t,
      tokens.admin,
      'GET',
      '/log/export?format=csv&operator=mallory',
      undefined,
      'zh',
    );
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toContain('text/csv');
    const text = res.res.body;
    // The times' zone is named: pages show the browser's, exports the installation's.
    expect(text.startsWith('\uFEFF"日期 (Asia/Shanghai UTC+08:00)","操作人"')).toBe(true);
    for (const value of DANGEROUS) expect(text).toContain(`"'${value.replace(/"/g, '""')}"`);
    expect(text).not.toMatch(/(^|,)"[=+\-@]/m);
  });

  it("exports the function and the operation in the reader's language, as the table shows them", async () => {
    await t.database.db.execute(sql`
      insert into operation_logs (operator_name, function, operation, params, source)
      values ('Translator', 'farm.update', 'updateFarm', '{}', 'computer'),
             ('Translator', 'alarm.raise', 'alarm',
              '{"cause": "temperatureHigh", "metric": "temperature", "id": 12}', 'other'),
             ('Translator', 'custom.thing', 'text', '{"text": "as recorded"}', 'other')`);
    const rowsOf = async (locale: 'en' | 'zh') => {
      const res = await call(
        t,
        tokens.admin,
        'GET',
        '/log/export?format=csv&operator=translator',
        undefined,
        locale,
      );
      expect(res.status).toBe(200);
      // Function and operation: columns 3 and 5.
      return res.res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line: string) => line.split('","').filter((_, i) => i === 2 || i === 4))
        .sort();
    };
    expect(await rowsOf('zh')).toEqual(
      [
        ['报警产生', '温度过高 · 栏舍内温度 #12'],
        ['custom.thing', 'as recorded'],
        ['编辑养殖场', '编辑场区'],
      ].sort(),
    );
    expect(await rowsOf('en')).toContainEqual(['Edit farm', 'Edit farm']);
  });

  it('exports XLSX with every formula-like cell escaped and no formula', async () => {
    const res = await t.app.inject({
      url: '/api/log/export?format=xlsx&operator=mallory',
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Date (Asia/Shanghai UTC+08:00)');
    const remarks: unknown[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) remarks.push(row.getCell(6).value);
    });
    // XML turns a lone CR into LF; the apostrophe in front is what matters.
    const expected = DANGEROUS.map((v) => escapeCell(v).replace('\r', '\n'));
    expect(remarks.sort()).toEqual(expected.sort());
    expect(remarks.every((v) => typeof v === 'string' && v.startsWith("'"))).toBe(true);
  });

  it('asks before exporting 20,000 rows, then exports them all with every cell escaped', async () => {
    // One statement: 20,000 rows whose remarks cycle through the four formula starts.
    await t.database.db.execute(sql`
      insert into operation_logs (operator_name, function, operation, remark, source)
      select 'Bulk writer', 'bulk', 'write',
             (array['=HYPERLINK("http://x","y")', '+1+2', '-3', '@SUM(A1)'])[1 + i % 4], 'mobile'
      from generate_series(1, 20000) as i`);
    const url = '/log/export?operator=bulk%20writer';
    expect((await list(tokens.admin, 'operator=bulk%20writer&size=1')).data.total).toBe(20_000);
    for (const [locale, msg] of [
      ['en', '20000 rows: more than 15000. Confirm to export them all.'],
      ['zh', '共 20000 行，超过 15000 行。确认后再全部导出。'],
    ] as const) {
      const asked = await call(t, tokens.admin, 'GET', `${url}&format=csv`, undefined, locale);
      expect(asked.status).toBe(409);
      expect(asked.msg).toBe(msg);
    }

    const csv = await call(t, tokens.admin, 'GET', `${url}&format=csv&confirm=1`);
    expect(csv.status).toBe(200);
    const lines = csv.res.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(20_001);
    expect(csv.res.body).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csv.res.body).toContain(`"'+1+2"`);
    expect(csv.res.body).toContain(`"'-3"`);
    expect(csv.res.body).toContain(`"'@SUM(A1)"`);
    expect(csv.res.body).not.toMatch(/(^|,)"[=+\-@]/m);

    const xlsx = await t.app.inject({
      url: `/api${url}&format=xlsx&confirm=1`,
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(20_001);
    const remarks = new Set<unknown>();
    sheet.eachRow((row, n) => {
      if (n > 1) remarks.add(row.getCell(6).value);
    });
    expect([...remarks].sort()).toEqual(
      ["'+1+2", "'-3", '\'=HYPERLINK("http://x","y")', "'@SUM(A1)"].sort(),
    );
    // Writing and reading back a 20,000-row workbook is slow on a loaded 2-core machine.
  }, 180_000);

  it('filters the function by its label in the request language, or by its key', async () => {
    await writeOperationLog(t.database.db, {
      operator: { id: null, name: 'Labeller' },
      function: 'house.delete',
      operation: { key: 'deleteHouse', params: {} },
    });
    for (const [text, locale] of [
      ['删除栏舍', 'zh'],
      ['delete house', 'en'],
      ['house.del', 'en'],
    ] as const) {
      const rows = (
        await list(tokens.admin, `operator=labeller&function=${encodeURIComponent(text)}`, locale)
      ).data.rows;
      expect(rows.map((r) => [r.function, r.operation, r.params])).toEqual([
        ['house.delete', 'deleteHouse', {}],
      ]);
    }
    expect(
      (
        await list(
          tokens.admin,
          `operator=labeller&function=${encodeURIComponent('删除栏舍')}`,
          'en',
        )
      ).data.total,
    ).toBe(0);
  });

  it('escapes = + - @ tab and CR and leaves other text alone', () => {
    for (const value of DANGEROUS) expect(escapeCell(value)).toBe(`'${value}`);
    expect(escapeCell('House 1')).toBe('House 1');
    expect(escapeCell('')).toBe('');
  });
});
