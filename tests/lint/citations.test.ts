import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * A reader of the code has the repository, not the design notes, the product specification or
 * the issue tracker it was written from: a comment or a test name that sends them there says
 * nothing. Such a rule is stated where it applies, or points at ARCHITECTURE.md or the README.
 */

const root = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['server', 'src', 'tests', 'bench', 'scripts', '.ci'];
const SOURCE = /\.(ts|tsx|mjs|js|css|sh)$|(^|\/)run$/;
const CITATION =
  /\b(DESIGN|DOMAIN|RELIABILITY|STYLE|STACK)\.md\b|\bspecification\b|\bthe spec\b|\bspec\b(?=\s+[a-z/§])|§|\bissues? #?\d+\b|\bspec\/\d{3}/i;

function sources(folder: string): string[] {
  const dir = path.join(root, folder);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.posix.join(folder, name.split(path.sep).join('/')))
    .filter((file) => SOURCE.test(file) && !file.includes('/migrations/'))
    .filter((file) => fs.statSync(path.join(root, file)).isFile());
}

describe('citations of documents outside the repository', () => {
  it('are found in no source file, test or bench', () => {
    const self = 'tests/lint/citations.test.ts';
    const found: string[] = [];
    for (const file of FOLDERS.flatMap(sources)) {
      if (file === self) continue;
      const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (CITATION.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('are recognised in the forms they took', () => {
    for (const line of [
      '// See DESIGN.md §5 for the topics.',
      '/** Houses a manager looks after (spec /user/saveUserShacks). */',
      '// Fixed in issue 16.',
      "it('answers as spec/000_console.txt says', () => {",
    ])
      expect(line).toMatch(CITATION);
    for (const line of [
      '// See ARCHITECTURE.md, "The event bus".',
      'const spectrum = 1;',
      'const spec = PARAM_BY_KEY.get(key);',
      '<KpiChart spec={c} days={days} />',
    ])
      expect(line).not.toMatch(CITATION);
  });
});
