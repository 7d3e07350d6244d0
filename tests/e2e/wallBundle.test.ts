import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const DIST = path.resolve(process.env.E2E_DIST_DIR ?? 'dist');
const read = (file: string) => readFileSync(path.join(DIST, file), 'utf8');
const gzipKb = (file: string) =>
  Math.round(gzipSync(readFileSync(path.join(DIST, file))).length / 102.4) / 10;

/** Static imports of a chunk (`import … from "./x.js"` and bare `import "./x.js"`), not `import()`. */
function staticImports(file: string): string[] {
  const code = read(file);
  const found = new Set<string>();
  for (const match of code.matchAll(
    /(?:^|[;\n}])\s*import\s*(?:[^'"();]*?from\s*)?["']([^"']+)["']/g,
  ))
    found.add(path.posix.join(path.posix.dirname(file), match[1]!));
  return [...found];
}

/** The entry chunk and everything it loads statically: what the console's first load runs. */
function firstLoad(): string[] {
  const html = read('index.html');
  const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error('no module entry in index.html');
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  for (const match of html.matchAll(/<link rel="modulepreload"[^>]*href="\/([^"]+)"/g))
    seen.add(match[1]!);
  return [...seen];
}

describe('wall bundle', () => {
  it("keeps maplibre and deck.gl out of the console's first load, in the wall's own chunk", () => {
    const files = firstLoad();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const code = read(file);
      expect(code, file).not.toMatch(/maplibre|MapLibre|deck\.gl|@deck\.gl|DeckGL|luma\.gl/);
    }
    const wall = readdirSync(path.join(DIST, 'assets')).find((f) => /^WallScreen-.*\.js$/.test(f));
    expect(wall).toBeDefined();
    expect(read(`assets/${wall}`)).toMatch(/maplibre/i);
    const firstKb = files.reduce((sum, f) => sum + gzipKb(f), 0);
    // The figures for the report (gzip): the console's first load and the wall's chunk.
    process.stdout.write(
      `first load ${files.length} files, ${firstKb.toFixed(1)} kB gzip; wall ${gzipKb(`assets/${wall}`)} kB gzip\n`,
    );
  });
});
