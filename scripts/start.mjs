// `npm start`: builds the console when it is missing or older than its sources, then runs the
// server (TypeScript through tsx) in this same process, so signals reach it directly.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'dist', 'index.html');

function newestMtime(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry))
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

// A production install (`npm ci --omit=dev`) has no build tools: it serves the console built
// before (`npm run build`), as it is.
const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
if (!existsSync(vite) && !existsSync(builtIndex)) {
  console.error(
    'Roost cannot start: the console is not built (dist/index.html) and this install has no build tools. Run `npm ci && npm run build` first (then `npm prune --omit=dev` if you want).',
  );
  process.exit(1);
}
const sources = ['src', 'index.html', 'vite.config.ts', 'public']
  .map((p) => path.join(root, p))
  .filter(existsSync);
const stale =
  existsSync(vite) &&
  (!existsSync(builtIndex) || Math.max(...sources.map(newestMtime)) > statSync(builtIndex).mtimeMs);
if (stale) {
  console.log(
    existsSync(builtIndex)
      ? 'Console sources changed: rebuilding...'
      : 'Building the console (first start)...',
  );
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('Roost cannot start: building the console failed (see above).');
    process.exit(1);
  }
}

const { register } = await import('tsx/esm/api');
register();
await import(path.join(root, 'server', 'main.ts'));
