import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The architecture's boundaries are lint rules (eslint.config.js): a wrong import of each kind
 * must fail `npm run lint`, and the import next to it that is allowed must not. Each case lints
 * a tiny snippet as if it were a file in the real folder, through the repository's own config,
 * so removing a rule, or widening one, fails here.
 *
 * The imported files are real ones, found in the tree when the test runs (the rules resolve an
 * import to a file first, and an import of a missing file is a type error anyway), so files
 * moving around do not break the test; only a folder left empty would.
 */

const root = path.resolve(import.meta.dirname, '../..');
const BOUNDARY_RULES = new Set(['import/no-restricted-paths', 'no-restricted-imports']);
type BoundaryRule = 'import/no-restricted-paths' | 'no-restricted-imports';

let eslint: ESLint;
beforeAll(() => {
  // Only the boundary rules run: the snippets would otherwise trip unrelated ones (unused
  // imports), and the cycle check would walk half the project for every snippet.
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: path.join(root, 'eslint.config.js'),
    ruleFilter: ({ ruleId }) => BOUNDARY_RULES.has(ruleId),
  });
});

const SOURCE = /\.(ts|tsx|mjs)$/;

/** Files under a folder of the repository, relative to its root, in a stable order. */
function filesUnder(folder: string): string[] {
  const dir = path.join(root, folder);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.posix.join(folder, name.split(path.sep).join('/')))
    .filter((file) => SOURCE.test(file) && !file.endsWith('.d.ts'))
    .sort();
}

/** A real source file under `folder` that passes `keep`: the target of a probe's import. */
function someFile(folder: string, keep: (file: string) => boolean = () => true): string {
  const file = filesUnder(folder).find(keep);
  if (!file) throw new Error(`no source file under ${folder} to import in the boundary test`);
  return file;
}

/** The relative import of `to` as written in `from`: './x' or '../y/z', without extension. */
function specifier(from: string, to: string): string {
  const relative = path.posix.relative(path.posix.dirname(from), to).replace(SOURCE, '');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** A folder under `folder`, to show a rule holds at any depth. */
function someSubfolder(folder: string): string {
  const sub = fs
    .readdirSync(path.join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()[0];
  if (!sub) throw new Error(`no folder under ${folder} for the boundary test`);
  return `${folder}/${sub}`;
}

async function boundaryMessages(file: string, code: string) {
  // The resolver finds nothing from a folder that does not exist, and an import it cannot
  // resolve is let through: a probe must sit in a real folder or it proves nothing.
  expect(fs.existsSync(path.join(root, path.dirname(file))), `${file}'s folder exists`).toBe(true);
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  if (!result) throw new Error(`eslint returned nothing for ${file}`);
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal, `${file} did not parse`).toEqual([]);
  return result.messages.filter((m) => m.ruleId !== null && BOUNDARY_RULES.has(m.ruleId));
}

/** `file` importing `target` (a file of the repository or a package), as a value or type only. */
function importOf(file: string, target: string, kind: 'value' | 'type' = 'value'): string {
  const isFile = fs.existsSync(path.join(root, target));
  const source = isFile ? specifier(file, target) : target;
  return kind === 'type' ? `import type { X } from '${source}';\n` : `import '${source}';\n`;
}

/** Lints `file` importing `target`: `rule` must report it, saying `message`, as an error. */
async function expectReported(
  file: string,
  target: string,
  rule: BoundaryRule,
  message: string,
  kind: 'value' | 'type' = 'value',
) {
  const messages = await boundaryMessages(file, importOf(file, target, kind));
  const hit = messages.find((m) => m.ruleId === rule && m.message.includes(message));
  expect(
    hit,
    `${file} importing ${target} (${kind}) should fail ${rule} with "${message}"; got ${JSON.stringify(messages)}`,
  ).toBeDefined();
  // An error, not a warning: `npm run lint` runs with --max-warnings 0, but errors fail outright.
  expect(hit?.severity).toBe(2);
}

async function expectAllowed(file: string, target: string, kind: 'value' | 'type' = 'value') {
  const messages = await boundaryMessages(file, importOf(file, target, kind));
  expect(messages, `${file} may import ${target}`).toEqual([]);
}

const PATHS = 'import/no-restricted-paths';
const NAMES = 'no-restricted-imports';

const isTs = (file: string) => file.endsWith('.ts');

describe('src/contract imports nothing of the project', () => {
  const probe = 'src/contract/boundaryProbe.ts';
  const message = 'src/contract is shared by the browser and the server';

  it('reports an import of any other project file, type-only ones too', async () => {
    await expectReported(probe, someFile('src/api'), PATHS, message);
    await expectReported(probe, someFile('src/stores'), PATHS, message, 'type');
    await expectReported(probe, someFile('src/i18n'), PATHS, message);
    await expectReported(probe, 'package.json', PATHS, message);
  });

  it('reports any package but zod', async () => {
    await expectReported(probe, 'mobx', NAMES, message);
    await expectReported(probe, 'node:path', NAMES, message);
  });

  it('allows zod and the other contract modules', async () => {
    await expectAllowed(probe, 'zod');
    await expectAllowed(probe, someFile('src/contract'), 'type');
    await expectAllowed('src/contract/boundaryProbe.ts', someFile('src/contract'));
  });
});

describe('stores import no components and no transport', () => {
  const probe = 'src/stores/boundaryProbe.ts';
  const ui = 'Stores hold state and logic for any view';
  const transport = 'Stores do not talk to the transport';

  it('reports pages, screens and components', async () => {
    await expectReported(probe, someFile('src/console', isTs), PATHS, ui);
    await expectReported(probe, someFile('src/screens', isTs), PATHS, ui, 'type');
    const component = someFile(
      'src',
      (f) => f.endsWith('.tsx') && !/^src\/(console|screens)\//.test(f),
    );
    await expectReported(probe, component, PATHS, 'Stores import no React component');
  });

  it('reports React, its bindings and Blueprint', async () => {
    for (const name of ['react', 'react-dom/client', 'mobx-react-lite', 'react-router-dom'])
      await expectReported(probe, name, NAMES, ui);
    await expectReported(probe, '@blueprintjs/core', NAMES, ui, 'type');
  });

  it('reports the realtime layer and the socket', async () => {
    await expectReported(probe, someFile('src/realtime'), PATHS, transport);
    await expectReported(probe, someFile('src/realtime'), PATHS, transport, 'type');
    await expectReported(probe, 'socket.io-client', NAMES, transport);
  });

  it('allows the HTTP client, the contract, other stores and mobx', async () => {
    await expectAllowed(probe, someFile('src/api'));
    await expectAllowed(probe, someFile('src/contract'));
    await expectAllowed(probe, someFile('src/stores'));
    await expectAllowed(probe, 'mobx');
  });
});

describe('console imports no realtime', () => {
  const message = 'Console pages reach live data and subscriptions only through stores';

  it('reports src/realtime from any depth, type-only imports too', async () => {
    await expectReported('src/console/boundaryProbe.ts', someFile('src/realtime'), PATHS, message);
    await expectReported(
      `${someSubfolder('src/console')}/BoundaryProbe.tsx`,
      someFile('src/realtime'),
      PATHS,
      message,
      'type',
    );
  });

  it('reports the socket', async () => {
    await expectReported('src/console/boundaryProbe.ts', 'socket.io-client', NAMES, 'src/realtime');
  });

  it('allows stores, the HTTP client and the contract; realtime itself may use the socket', async () => {
    await expectAllowed('src/console/boundaryProbe.ts', someFile('src/stores'));
    await expectAllowed('src/console/boundaryProbe.ts', someFile('src/api'));
    await expectAllowed('src/console/boundaryProbe.ts', someFile('src/contract'), 'type');
    await expectAllowed('src/realtime/boundaryProbe.ts', 'socket.io-client');
  });
});

describe('screens import no console', () => {
  const message = 'Wall screens are not part of the console';

  it('reports src/console, type-only imports too', async () => {
    await expectReported('src/screens/boundaryProbe.ts', someFile('src/console'), PATHS, message);
    await expectReported(
      `${someSubfolder('src/screens')}/BoundaryProbe.tsx`,
      someFile('src/console'),
      PATHS,
      message,
      'type',
    );
  });

  it('allows stores and the contract', async () => {
    const probe = `${someSubfolder('src/screens')}/BoundaryProbe.tsx`;
    await expectAllowed(probe, someFile('src/stores'));
    await expectAllowed(probe, someFile('src/contract'));
  });
});

describe('the browser imports no server code', () => {
  const message = 'The browser never imports server code';
  const serverFile = () => someFile('server/http');

  it('reports server code from every browser folder, type-only imports too', async () => {
    for (const folder of ['api', 'console', 'contract', 'i18n', 'realtime', 'screens', 'stores'])
      await expectReported(`src/${folder}/boundaryProbe.ts`, serverFile(), PATHS, message);
    await expectReported('src/boundaryProbe.tsx', someFile('server/db'), PATHS, message, 'type');
  });

  it('allows the contract', async () => {
    await expectAllowed('src/boundaryProbe.tsx', someFile('src/contract'));
  });
});

describe("the simulator imports none of the server's gateway handling", () => {
  const message = 'The simulator is a gateway program';

  it('reports the MQTT layer, ingest, House Setting and upgrades, type-only imports too', async () => {
    const probe = 'server/simulator/boundaryProbe.ts';
    await expectReported(probe, someFile('server/mqtt'), PATHS, message);
    await expectReported(probe, someFile('server/ingest'), PATHS, message, 'type');
    await expectReported(probe, someFile('server/envcontrol'), PATHS, message);
    await expectReported(probe, someFile('server/upgrade'), PATHS, message, 'type');
  });

  it('allows the gateway contract, the demo data and its own files', async () => {
    const probe = 'server/simulator/boundaryProbe.ts';
    await expectAllowed(probe, 'src/contract/gateway/index.ts');
    await expectAllowed(probe, someFile('server/demo'), 'type');
    await expectAllowed(probe, someFile('server/simulator'));
  });
});

/** Route modules: `server/<feature>/routes.ts`, or files under `server/<feature>/routes/`. */
function routeModules(): Map<string, string[]> {
  const byFeature = new Map<string, string[]>();
  for (const file of filesUnder('server')) {
    const match = /^server\/([^/]+)\/routes(\.ts|\/.+)$/.exec(file);
    if (!match?.[1]) continue;
    byFeature.set(match[1], [...(byFeature.get(match[1]) ?? []), file]);
  }
  return byFeature;
}

/** Two features with route modules: one with a `routes.ts`, one with a `routes/` folder if any. */
function twoFeatures() {
  const byFeature = [...routeModules()];
  const single = byFeature.find(([, files]) => files.some((f) => f.endsWith('/routes.ts')));
  const others = byFeature.filter(([name]) => name !== single?.[0]);
  const folder = others.find(([, files]) => files.some((f) => f.includes('/routes/'))) ?? others[0];
  if (!single || !folder) throw new Error('the boundary test needs two features with routes');
  return {
    a: { name: single[0], routes: single[1][0]! },
    b: { name: folder[0], routes: folder[1].find((f) => f.includes('/routes/')) ?? folder[1][0]! },
  };
}

describe('server/db imports no routes', () => {
  const probe = 'server/db/boundaryProbe.ts';
  const message = 'server/db is the storage layer';

  it('reports route modules and the route list, type-only imports too', async () => {
    const { a, b } = twoFeatures();
    await expectReported(probe, a.routes, PATHS, message);
    await expectReported(probe, b.routes, PATHS, message, 'type');
    await expectReported('server/db/migrations/boundaryProbe.ts', 'server/app.ts', PATHS, message);
  });

  it('allows the rest of the storage layer', async () => {
    await expectAllowed(
      probe,
      someFile('server/db', (f) => !f.includes('/migrations/')),
    );
  });
});

describe("feature folders do not import each other's routes", () => {
  const message = "does not import another feature's route modules";

  it("reports another feature's route modules from any depth, type-only imports too", async () => {
    const { a, b } = twoFeatures();
    await expectReported(`server/${b.name}/boundaryProbe.ts`, a.routes, PATHS, message);
    await expectReported(`server/${a.name}/boundaryProbe.ts`, b.routes, PATHS, message, 'type');
    const besideB = `${path.posix.dirname(b.routes)}/boundaryProbe.ts`;
    await expectReported(besideB, a.routes, PATHS, message);
  });

  it('reports route modules from the toolkit, folders without routes and other top-level files', async () => {
    const { a } = twoFeatures();
    await expectReported('server/http/boundaryProbe.ts', a.routes, PATHS, message);
    await expectReported('server/live/boundaryProbe.ts', a.routes, PATHS, message);
    await expectReported(
      'server/main.ts',
      a.routes,
      PATHS,
      'Only server/app.ts and its route list',
    );
  });

  it("allows a feature's own routes, others' other modules, and the app's route list", async () => {
    const { a, b } = twoFeatures();
    await expectAllowed(`server/${a.name}/boundaryProbe.ts`, a.routes);
    await expectAllowed(`${path.posix.dirname(b.routes)}/boundaryProbe.ts`, b.routes);
    await expectAllowed(
      `server/${b.name}/boundaryProbe.ts`,
      someFile(`server/${a.name}`, (f) => !/\/routes(\.ts|\/)|Routes\.ts$/.test(f)),
    );
    for (const file of ['server/app.ts', 'server/routes.ts']) {
      await expectAllowed(file, a.routes);
      await expectAllowed(file, b.routes, 'type');
    }
  });
});

describe('a route module is one wherever it sits in its feature', () => {
  const message = "does not import another feature's route modules";
  // A route module named outside the convention (production once had `powerRoutes.ts` beside its
  // `routes.ts`, and `server/alarms` could import it): the rule must catch it by its name. The
  // rule resolves an import to a real file first, so the probe's target is written for the test.
  const stray = 'server/production/boundaryProbe/strayRoutes.ts';
  beforeAll(() => {
    fs.mkdirSync(path.join(root, path.dirname(stray)), { recursive: true });
    fs.writeFileSync(path.join(root, stray), 'export {};\n');
  });
  afterAll(() => fs.rmSync(path.join(root, path.dirname(stray)), { recursive: true, force: true }));

  it("reports production's routes/ and any *Routes.ts from another feature", async () => {
    const power = someFile('server/production/routes', (f) => f.endsWith('/power.ts'));
    await expectReported('server/alarms/boundaryProbe.ts', power, PATHS, message);
    await expectReported('server/alarms/boundaryProbe.ts', stray, PATHS, message);
    await expectReported('server/alarms/routes/boundaryProbe.ts', stray, PATHS, message, 'type');
    await expectReported(
      'server/db/boundaryProbe.ts',
      stray,
      PATHS,
      'server/db is the storage layer',
    );
  });

  it('allows them from their own feature', async () => {
    await expectAllowed('server/production/boundaryProbe.ts', stray);
    await expectAllowed('server/production/routes/boundaryProbe.ts', stray);
  });
});
