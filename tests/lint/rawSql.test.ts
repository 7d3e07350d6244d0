import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * One typed data path: server code reads and writes through Drizzle; hand-written SQL sits only
 * in hot statement modules (*.sql.ts) and in server/db. Each case lints a snippet as if it were
 * the given file, through the repository's own config, so narrowing the rule fails here.
 */

const root = path.resolve(import.meta.dirname, '../..');
const RAW = /hot statement module/;

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: path.join(root, 'eslint.config.js'),
    ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-syntax',
  });
});

async function reported(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => m.message);
}

const cases = {
  'a query on the database': `declare const database: { query(t: string): Promise<unknown[]> };\nexport const rows = database.query('select 1');\n`,
  "a transaction's plain query": `declare const query: (t: string) => Promise<unknown[]>;\nexport const rows = query('select 1');\n`,
  'an execute of a template': `declare const db: { execute(t: unknown): Promise<unknown> };\nexport const rows = db.execute('select 1');\n`,
  'a hand cast of an untyped row': `declare const r: Record<string, unknown>;\nexport const n = Number(r.count);\n`,
};

describe('raw SQL in server code', () => {
  for (const [what, code] of Object.entries(cases)) {
    it(`reports ${what} in feature code`, async () => {
      for (const file of ['server/alarms/probe.ts', 'server/houses/routes/probe.ts']) {
        const messages = await reported(file, code);
        expect(messages, file).toEqual([expect.stringMatching(RAW)]);
      }
    });

    it(`allows ${what} in a hot statement module and in server/db`, async () => {
      for (const file of ['server/ingest/batch.sql.ts', 'server/db/probe.ts'])
        expect(await reported(file, code), file).toEqual([]);
    });
  }

  it('still forbids library internals beside it', async () => {
    const code = `declare const o: { _x: number };\nexport const x = o._x;\n`;
    expect(await reported('server/alarms/probe.ts', code)).toEqual([
      expect.stringMatching(/underscore members are private/),
    ]);
  });

  it("leaves Drizzle's relational queries and a Number of anything else alone", async () => {
    const code = `declare const db: { query: { users: { findMany(): Promise<unknown[]> } } };\ndeclare const body: { n: string };\nexport const users = db.query.users.findMany();\nexport const n = Number(body.n);\n`;
    expect(await reported('server/alarms/probe.ts', code)).toEqual([]);
  });
});

describe('hot statement modules', () => {
  it('each has a test of its own (run on both databases where both take it)', () => {
    const modules = readdirSync(path.join(root, 'server'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.sql.ts'))
      .map((f) => path.basename(f, '.ts'));
    const tests = new Set(
      readdirSync(path.join(root, 'tests'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.sql.test.ts'))
        .map((f) => path.basename(f, '.test.ts')),
    );
    expect(modules.length).toBeGreaterThan(0);
    expect(modules.filter((m) => !tests.has(m))).toEqual([]);
  });
});
