// `npm run dev`: the server restarting on change (tsx watch) and Vite with hot reload, which
// proxies /api and /socket.io to the server. Ctrl+C stops both.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
// Answers are checked against their schemas while developing: a drift fails at once, loudly.
const env = {
  ...process.env,
  PORT: process.env.PORT ?? '8080',
  ROOST_CHECK_ANSWERS: process.env.ROOST_CHECK_ANSWERS ?? 'on',
};

const children = [
  spawn(
    process.execPath,
    [bin('tsx', 'dist/cli.mjs'), 'watch', '--clear-screen=false', 'server/main.ts'],
    { cwd: root, env, stdio: 'inherit' },
  ),
  spawn(process.execPath, [bin('vite', 'bin/vite.js')], { cwd: root, env, stdio: 'inherit' }),
];

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
for (const child of children) child.on('exit', (code) => stopAll(code ?? 0));
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
console.log(
  `Roost dev: console with hot reload on http://localhost:${process.env.VITE_PORT ?? 5173}, API on port ${env.PORT}`,
);
