import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findCycles, importGraph, sourceFiles } from '../../scripts/importCycles';

/*
 * `npm run lint` fails on an import cycle (scripts/importCycles.ts). Each case writes a few
 * files into a folder of its own and asks for the cycles there, as lint asks for the project's.
 */

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The cycles among `files` (path → text), written into a new folder. */
function cyclesOf(files: Record<string, string>): string[][] {
  const root = mkdtempSync(path.join(tmpdir(), 'roost-cycles-'));
  made.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return findCycles(importGraph(root, sourceFiles(root)));
}

describe('import cycles', () => {
  it('are found through any number of files, named from the first file back to it', () => {
    expect(
      cyclesOf({
        'src/a.ts': `import { b } from './b';\nexport const a = () => b;\n`,
        'src/b.ts': `import { c } from './deep/c';\nexport const b = () => c;\n`,
        'src/deep/c.ts': `import { a } from '../a';\nexport const c = () => a;\n`,
        'src/free.ts': `import { a } from './a';\nexport const free = a;\n`,
      }),
    ).toEqual([['src/a.ts', 'src/b.ts', 'src/deep/c.ts', 'src/a.ts']]);
  });

  it('are found through a re-export, a dynamic import and a folder index', () => {
    expect(
      cyclesOf({
        'server/x.ts': `export * from './y';\n`,
        'server/y.ts': `import { x } from './x';\nexport const y = x;\n`,
        'src/page.tsx': `export const load = () => import('./lazy');\n`,
        'src/lazy/index.ts': `import { load } from '../page';\nexport const again = load;\n`,
      }),
    ).toEqual([
      ['server/x.ts', 'server/y.ts', 'server/x.ts'],
      ['src/lazy/index.ts', 'src/page.tsx', 'src/lazy/index.ts'],
    ]);
  });

  it('leave out imports of types only, which the JavaScript no longer has', () => {
    expect(
      cyclesOf({
        'src/a.ts': `import { b } from './b';\nexport interface A { b: typeof b }\n`,
        'src/b.ts': `import type { A } from './a';\nexport const b = (a: A) => a;\n`,
        'src/c.ts': `import { d } from './d';\nexport interface C { d: typeof d }\n`,
        'src/d.ts': `import { type C } from './c';\nexport const d = (c: C) => c;\n`,
        'src/e.ts': `export { f } from './f';\nexport interface E { e: 1 }\n`,
        'src/f.ts': `export type { E } from './e';\nexport const f = 1;\n`,
      }),
    ).toEqual([]);
  });

  it('count an import of a type beside a value', () => {
    expect(
      cyclesOf({
        'src/a.ts': `import { b } from './b';\nexport interface A { b: typeof b }\nexport const a = 1;\n`,
        'src/b.ts': `import { a, type A } from './a';\nexport const b = (x: A) => x ?? a;\n`,
      }),
    ).toEqual([['src/a.ts', 'src/b.ts', 'src/a.ts']]);
  });

  it('leave out installed packages and built files', () => {
    expect(
      cyclesOf({
        'node_modules/p/a.js': `import './b.js';\n`,
        'node_modules/p/b.js': `import './a.js';\n`,
        'dist/a.js': `import './b.js';\n`,
        'dist/b.js': `import './a.js';\n`,
        'src/ok.ts': `export const ok = 1;\n`,
      }),
    ).toEqual([]);
  });
});
