// Import cycles among the project's own files, for `npm run lint` (`tsx scripts/importCycles.ts`).
// This was eslint-plugin-import's `import/no-cycle`, which walks the graph again from every import
// of every file: 82 % of lint's time (130 of 160 s of rule time on the 2-core CI machine). Here
// each file is parsed once and the graph's strongly connected components found once (Tarjan):
// about 4 s for the graph, 6 s with tsx's start.
//
// What counts, as no-cycle counted it: static imports, `export … from` and `import()` of a
// relative path. Type-only ones (`import type`, `import { type A }` with every name a type) are
// erased from the JavaScript and cannot cycle at run time. Unlike no-cycle's maxDepth 10, a
// cycle of any length is found.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { LINT_IGNORED } from './lintIgnored.mjs';

/** Folders never walked (the list ESLint ignores too), besides any starting with a dot. */
const SKIPPED = new Set(LINT_IGNORED);
const SOURCE = /\.(ts|tsx|js|mjs)$/;
const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs'];

/** The project's source files under `root`, relative to it with '/' separators, sorted. */
export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIPPED.has(relative) && entry.name !== 'node_modules')
          walk(relative);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(relative);
    }
  };
  walk('');
  return files.sort();
}

/** True when an import or re-export brings only types (erased from the JavaScript). */
function typeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return false; // import './x': run for its effects
    if (clause.isTypeOnly) return true;
    const named = clause.namedBindings;
    return (
      !clause.name &&
      named !== undefined &&
      ts.isNamedImports(named) &&
      named.elements.every((element) => element.isTypeOnly)
    );
  }
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((element) => element.isTypeOnly)
  );
}

/** The relative specifiers a file imports at run time: static, re-exported and dynamic. */
export function valueImports(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (!typeOnly(node)) found.push(node.moduleSpecifier.text);
      return;
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith('.'));
}

/** The file a relative specifier names, as the Node resolver with our extensions finds it. */
function resolve(known: ReadonlySet<string>, from: string, specifier: string): string | null {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [
    base,
    ...EXTENSIONS.map((ext) => base + ext),
    ...EXTENSIONS.map((ext) => `${base}/index${ext}`),
  ];
  return candidates.find((candidate) => known.has(candidate)) ?? null;
}

/** A file's run-time imports of other project files, by path relative to the root. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Each file's run-time imports of other files of the list. */
export function importGraph(root: string, files: readonly string[]): ImportGraph {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const targets = valueImports(file, text)
      .map((specifier) => resolve(known, file, specifier))
      .filter((target): target is string => target !== null && target !== file);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The cycles of a graph: one per strongly connected component of more than one file, each
 * written as a shortest way from its first file back to it (a → b → … → a).
 */
export function findCycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative: a deep import chain must not overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next);
    next += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next);
          next += 1;
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to))
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1) components.push(component.sort());
      }
    }
  }
  return components.map((component) => shortestCycle(graph, new Set(component), component[0]!));
}

/** A shortest way from `start` back to it inside one component (breadth first). */
function shortestCycle(graph: ImportGraph, members: ReadonlySet<string>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i += 1) {
    const node = queue[i]!;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const way = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)!) way.push(at);
        way.push(start);
        return [start, ...way.slice(1, -1).reverse(), start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(import.meta.dirname, '..');
  const cycles = findCycles(importGraph(root, sourceFiles(root)));
  for (const cycle of cycles) console.error(`import cycle: ${cycle.join(' → ')}`);
  if (cycles.length > 0) {
    console.error(
      `${cycles.length === 1 ? 'One import cycle' : `${cycles.length} import cycles`}: a module in a cycle may run before what it imports is defined. Move what both need into a module of its own.`,
    );
    process.exit(1);
  }
}
