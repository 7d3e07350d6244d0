// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';
import fs from 'node:fs';
import { LINT_IGNORED } from './scripts/lintIgnored.mjs';

// The architecture's boundaries, checked on every `npm run lint`. Paths are relative to this
// file's folder, so the rules mean the same whatever directory eslint is started from.
// tests/lint/boundaries.test.ts shows that a wrong import of each kind is reported.
const root = import.meta.dirname;

// A feature's route modules, at any depth of its folder: a `routes.ts`, any file under a `routes/`
// folder, and any `*Routes.ts` (a route module named outside the convention is still one).
const ROUTE_GLOBS = ['**/routes.ts', '**/routes/**', '**/*Routes.ts'];
const ROUTE_MODULES = ROUTE_GLOBS.map((glob) => `server/*/${glob}`);
// The route modules of one feature folder. An `except` glob is matched as written, not
// resolved against basePath, hence the absolute path.
const routesOf = (folder) => ROUTE_GLOBS.map((glob) => `${root}/server/${folder}/${glob}`);
// Every folder under server/ is covered, so a new feature folder needs no change here.
// server/db has a stricter rule of its own below.
const serverFolders = fs
  .readdirSync(`${root}/server`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'db')
  .map((entry) => entry.name);

/**
 * Import rules about project files, by where the imported file really is (relative paths are
 * resolved first, so `../x` and `../../y/../x` are the same file; an import that resolves to no
 * file is let through, and fails the type check instead). Type-only imports and re-exports
 * count: the boundaries are about what depends on what, not about what ends up in the bundle.
 */
const BOUNDARY_ZONES = [
  {
    target: 'src/contract',
    from: '.',
    except: ['./src/contract', './node_modules'],
    message:
      'src/contract is shared by the browser and the server: it imports nothing of the project but src/contract itself.',
  },
  {
    target: 'src/stores',
    from: ['src/console', 'src/screens'],
    message:
      'Stores hold state and logic for any view: they import no page, screen or component (src/console, src/screens).',
  },
  {
    target: 'src/stores',
    from: ['**/*.tsx'],
    message:
      'Stores import no React component (.tsx files): components read stores, never the reverse.',
  },
  {
    target: 'src/stores',
    from: 'src/realtime',
    message: 'Stores do not talk to the transport: src/realtime feeds them, they do not import it.',
  },
  {
    target: 'src/console',
    from: 'src/realtime',
    message:
      'Console pages reach live data and subscriptions only through stores, never src/realtime.',
  },
  {
    target: 'src/screens',
    from: 'src/console',
    message:
      'Wall screens are not part of the console: they import nothing from src/console (share through src/stores or src/contract).',
  },
  {
    target: 'src',
    from: 'server',
    message: 'The browser never imports server code: share types and schemas through src/contract.',
  },
  {
    target: 'server/db',
    // `from` takes only globs or only folders, hence the braces for app.ts and routes.ts.
    from: [...ROUTE_MODULES, 'server/{app,routes}.ts'],
    message:
      'server/db is the storage layer: routes depend on it, it never imports a route module or the route list.',
  },
  {
    // The simulator is a gateway program like any firmware: what it may know of the server is
    // the gateway contract, so a change to the server's gateway handling cannot hide in it.
    target: 'server/simulator',
    from: ['server/mqtt', 'server/ingest', 'server/envcontrol', 'server/upgrade'],
    message:
      "The simulator is a gateway program: it speaks the gateway contract (src/contract/gateway), never the server's gateway handling (server/mqtt, ingest, envcontrol, upgrade).",
  },
  ...serverFolders.map((folder) => ({
    target: `server/${folder}`,
    from: ROUTE_MODULES,
    except: routesOf(folder),
    message: `server/${folder} does not import another feature's route modules (server/<feature>/routes.ts, routes/ or *Routes.ts): only their own folder and server/app.ts with its route list do. Share through a module outside routes/.`,
  })),
  {
    // Files directly in server/ (main.ts, roost.ts, ...), but the app and its route list.
    target: 'server/!(app|routes).{ts,js,mjs}',
    from: ROUTE_MODULES,
    message:
      'Only server/app.ts and its route list import route modules across folders (server/<feature>/routes.ts or routes/). Share through a module outside routes/.',
  },
];

// Import rules about package names. Flat config does not merge a rule's options: the last
// block that matches a file sets them all, so each folder's list below is complete.
const NO_NODE_BUILTINS = { group: ['node:*'], message: 'Browser code cannot use Node built-ins.' };
const NO_SOCKET = {
  group: ['socket.io-client'],
  message: 'Only src/realtime talks to the socket: everything else reads stores.',
};
const restrictImports = (...patterns) => ['error', { patterns }];

/**
 * A library's underscore members are its private internals: they change in any release without
 * a word in the changelog. Such a reach lives only in an adapter file (ADAPTERS), one per
 * library, with a test that fails when the library changes underneath it. Without type
 * information the rule cannot tell a library object from our own, so it forbids every
 * underscore member; the project has none of its own (Node's `_transform`, which a stream
 * subclass must define, is a method definition, not a member access, and is not caught).
 */
const INTERNALS_MESSAGE =
  "A library's underscore members are private: reach them only in an adapter (a file under adapters/ or named *Adapter.ts) with a test that fails when the library changes.";
const NO_LIBRARY_INTERNALS = [
  // obj._x and obj['_x']
  'MemberExpression[property.name=/^_/]',
  'MemberExpression[computed=true][property.value=/^_/]',
  // const { _x } = obj
  'ObjectPattern > Property[key.name=/^_/]',
  // import { _x } from 'package' (a relative import is our own code)
  'ImportDeclaration[source.value=/^[^.]/] > ImportSpecifier[imported.name=/^_/]',
].map((selector) => ({ selector, message: INTERNALS_MESSAGE }));
/** Where a reach into a library's internals may live. */
const ADAPTERS = ['**/adapters/**/*.{ts,tsx}', '**/*Adapter.{ts,tsx}'];
/**
 * One typed data path (ARCHITECTURE.md): feature code reads and writes through Drizzle, so the
 * compiler sees every column. Hand-written SQL is allowed only in a hot statement module
 * (`*.sql.ts`: named statements, each with its reason and a test on both databases) and in
 * server/db itself. A row cast with Number(r.x) is the sign of an untyped row.
 */
const RAW_SQL_MESSAGE =
  'Hand-written SQL lives only in a hot statement module (*.sql.ts); read and write through Drizzle here.';
const NO_RAW_SQL = [
  "CallExpression[callee.property.name='query']",
  "CallExpression[callee.name='query']",
  "CallExpression[callee.property.name='execute']",
  "CallExpression[callee.name='Number'] > MemberExpression.arguments[object.name=/^(r|row)$/]",
].map((selector) => ({ selector, message: RAW_SQL_MESSAGE }));
/** A native date input writes the browser's order (mm/dd/yyyy), not the console's language. */
const NO_NATIVE_DATE_INPUT = {
  selector: 'JSXAttribute[name.name="type"][value.value=/^(date|datetime-local|month|week|time)$/]',
  message:
    "Dates and times are typed in a form's DateField / TimeField (src/console/forms/fields.tsx) or in DateInput / TimeInput (src/console/forms), in the page language.",
};

export default tseslint.config(
  {
    ignores: LINT_IGNORED.map((folder) => `${folder}/**`),
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: { import: importPlugin },
    // The plain Node resolver, told about TypeScript files: our imports are relative and
    // extensionless. (The TypeScript resolvers need a native binary the registry here lacks
    // for other platforms, which made the lockfile unusable for npm ci.)
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // Our own imports are the ones checked; parsing bundled dependencies is slow and proves nothing.
      'import/ignore': ['node_modules'],
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Import cycles are found by scripts/importCycles.ts (npm run lint), in one pass over the
      // graph: import/no-cycle walked it again from every import, 82 % of lint's time.
      'import/no-restricted-paths': ['error', { basePath: root, zones: BOUNDARY_ZONES }],
      'import/no-default-export': 'error',
      eqeqeq: ['error', 'smart'],
      // Code made from strings at run time: no type check, no lint, and a door for injection.
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      // Flat config does not merge a rule's options: the src/ block repeats these.
      'no-restricted-syntax': ['error', ...NO_LIBRARY_INTERNALS],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': restrictImports(NO_SOCKET, NO_NODE_BUILTINS),
      'no-restricted-syntax': ['error', NO_NATIVE_DATE_INPUT, ...NO_LIBRARY_INTERNALS],
    },
  },
  {
    files: ['src/realtime/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': restrictImports(NO_NODE_BUILTINS) },
  },
  {
    files: ['src/stores/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrictImports(
        {
          regex: '^(react|react-dom|mobx-react-lite)(/|$)|^react-|^@blueprintjs/',
          message:
            'Stores hold state and logic for any view: no React, React bindings or Blueprint here.',
        },
        {
          group: ['socket.io-client'],
          message: 'Stores do not talk to the transport: src/realtime feeds them.',
        },
        NO_NODE_BUILTINS,
      ),
    },
  },
  {
    files: ['src/contract/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrictImports({
        // Any package name (relative paths are left to import/no-restricted-paths) but zod's.
        regex: '^(?![.]|zod(/|$))',
        message:
          'src/contract is shared by the browser and the server: of the packages it uses only zod.',
      }),
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/db/**', '**/*.sql.ts'],
    rules: { 'no-restricted-syntax': ['error', ...NO_LIBRARY_INTERNALS, ...NO_RAW_SQL] },
  },
  { files: ADAPTERS, rules: { 'no-restricted-syntax': 'off' } },
  {
    files: ADAPTERS.map((glob) => `src/${glob}`),
    rules: { 'no-restricted-syntax': ['error', NO_NATIVE_DATE_INPUT] },
  },
  {
    // Config files are loaded by tools that expect a default export.
    files: ['*.config.ts', '*.config.js'],
    rules: { 'import/no-default-export': 'off' },
  },
);
