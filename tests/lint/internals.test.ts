import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * A library's private internals (its underscore members) are reached only from an adapter file,
 * and no code is made from strings at run time. Each case lints a snippet as if it were a file
 * at the given path, through the repository's own config, so removing or narrowing a rule
 * fails here. The files need not exist: these rules look at the snippet alone.
 */

const root = path.resolve(import.meta.dirname, '../..');
const RULES = new Set(['no-restricted-syntax', 'no-eval', 'no-implied-eval', 'no-new-func']);

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: path.join(root, 'eslint.config.js'),
    ruleFilter: ({ ruleId }) => RULES.has(ruleId),
  });
});

/** The rules (and messages) reported for `code` linted as the file `file`. */
async function reported(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
}

const PRIVATE = /underscore members are private/;

describe('private internals of libraries', () => {
  const reaches = {
    'an underscore import from a package': `import { _isComputingDerivation } from 'mobx';\nexport const x = _isComputingDerivation;\n`,
    'an underscore member': `declare const overlay: { _deck: unknown };\nexport const deck = overlay._deck;\n`,
    'an underscore member by its name in brackets': `declare const conn: Record<string, unknown>;\nexport const b = conn['_writeBuffer'];\n`,
    'an underscore member destructured': `declare const ws: { _socket: unknown };\nconst { _socket } = ws;\nexport { _socket };\n`,
  };

  for (const [what, code] of Object.entries(reaches)) {
    it(`reports ${what} in the browser, the server, the bench and the tests`, async () => {
      for (const file of [
        'src/stores/Probe.ts',
        'src/screens/wall/Probe.tsx',
        'server/live/probe.ts',
        'bench/probe.ts',
        'tests/server/probe.test.ts',
      ]) {
        const messages = await reported(file, code);
        expect(messages, file).toHaveLength(1);
        expect(messages[0]!.message, file).toMatch(PRIVATE);
      }
    });

    it(`allows ${what} in an adapter`, async () => {
      for (const file of [
        'src/stores/adapters/mobx.ts',
        'src/screens/wall/adapters/deck.ts',
        'server/live/engineAdapter.ts',
        'tests/helpers/adapters/probe.ts',
      ])
        expect(await reported(file, code), file).toEqual([]);
    });
  }

  it('lets our own underscore exports be imported by a relative path', async () => {
    const code = `import { _local } from './own';\nexport const x = _local;\n`;
    expect(await reported('server/live/probe.ts', code)).toEqual([]);
  });

  it('still forbids a native date input in a browser adapter', async () => {
    const code = `export const field = <input type="date" />;\n`;
    const messages = await reported('src/screens/wall/adapters/probe.tsx', code);
    expect(messages.map((m) => m.message)).toEqual([expect.stringMatching(/DateField/)]);
  });
});

describe('code made from strings', () => {
  const cases = {
    'new Function': ['no-new-func', `export const f = new Function('v', 'return v');\n`],
    'Function called without new': ['no-new-func', `export const f = Function('return 1');\n`],
    eval: ['no-eval', `export const v = eval('1 + 1');\n`],
    'a timer given a string': ['no-implied-eval', `setTimeout('tick()', 100);\n`],
  } as const;

  for (const [what, [rule, code]] of Object.entries(cases)) {
    it(`reports ${what} in the server and the browser, adapters too`, async () => {
      for (const file of [
        'server/ingest/probe.ts',
        'src/stores/Probe.ts',
        'server/live/engineAdapter.ts',
      ]) {
        const messages = await reported(file, code);
        expect(
          messages.map((m) => m.rule),
          file,
        ).toEqual([rule]);
      }
    });
  }
});
