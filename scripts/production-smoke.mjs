// CI: a production install works without the build tools. Copies the repository's files (not
// node_modules) to a temporary folder, installs there with `npm ci --omit=dev`, adds the console
// built here (`npm run build` first), starts `npm start` and checks what a person and a gateway
// reach: the console page and its script, health, the version, a sign-in, the broker. Exit 1 on
// a failure, with what failed.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const base = process.env.SMOKE_DIR || tmpdir();
mkdirSync(base, { recursive: true });
const dir = mkdtempSync(path.join(base, 'roost-production-'));

function fail(message) {
  console.error(`production smoke: ${message}`);
  process.exitCode = 1;
}

if (!existsSync(path.join(root, 'dist', 'index.html'))) {
  console.error('production smoke: build the console first (npm run build)');
  process.exit(1);
}
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root })
  .toString()
  .split('\0')
  .filter((f) => f !== '' && existsSync(path.join(root, f)));
for (const file of files)
  cpSync(path.join(root, file), path.join(dir, file), { recursive: false, force: true });
cpSync(path.join(root, 'dist'), path.join(dir, 'dist'), { recursive: true });

console.log(`production smoke: npm ci --omit=dev in ${dir}`);
const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
  cwd: dir,
  stdio: 'inherit',
});
if (install.status !== 0) {
  fail('npm ci --omit=dev failed');
  process.exit(1);
}
for (const tool of ['vite', 'vitest', 'typescript', 'react'])
  if (existsSync(path.join(dir, 'node_modules', tool)))
    fail(`${tool} is in the production install`);

const server = spawn(process.execPath, ['scripts/start.mjs'], {
  cwd: dir,
  env: {
    PATH: process.env.PATH,
    PORT: '0',
    // In the range this repository's tests keep for it: a machine's own broker keeps 1883.
    MQTT_PORT: process.env.SMOKE_MQTT_PORT || '43883',
    DATA_DIR: path.join(dir, 'data'),
    ROOST_DEMO: 'on',
    ROOST_DEMO_HISTORY: 'off',
    ROOST_SIMULATOR: 'off',
    ROOST_CAPTCHA: 'off',
    ROOST_ADMIN_PASSWORD: 'smoke-test-password-1',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let output = '';
const url = await new Promise((resolve) => {
  server.stdout.on('data', (chunk) => {
    output += chunk;
    const found = /open (http:\/\/\S+)/.exec(output);
    if (found) resolve(found[1]);
  });
  server.once('exit', () => resolve(null));
});

try {
  if (!url) throw new Error(`the server did not start:\n${output}`);
  await check(url);
} catch (error) {
  fail(error.message);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  if (process.exitCode !== 1) rmSync(dir, { recursive: true, force: true });
}
console.log(
  process.exitCode === 1 ? `production smoke: FAILED (kept ${dir})` : 'production smoke: ok',
);

async function check(url) {
  const page = await fetch(url);
  const html = await page.text();
  if (page.status !== 200 || !html.includes('<div id="root">'))
    throw new Error(`GET / answered ${page.status} without the console`);
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!script) throw new Error('the console page names no script');
  const asset = await fetch(new URL(script, url));
  if (asset.status !== 200) throw new Error(`GET ${script} answered ${asset.status}`);
  await asset.arrayBuffer();

  const health = await fetch(new URL('/api/health', url));
  if (health.status !== 200) throw new Error(`/api/health answered ${health.status}`);
  const reported = await (await fetch(new URL('/api/version', url))).json();
  if (reported.data?.version !== version)
    throw new Error(`/api/version says ${reported.data?.version}, package.json ${version}`);

  const login = await fetch(new URL('/api/login', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'smoke-test-password-1' }),
  });
  const token = (await login.json()).data?.token;
  if (!token) throw new Error(`signing in answered ${login.status}`);
  const farms = await fetch(new URL('/api/farm/tree', url), { headers: { authorization: token } });
  if (farms.status !== 200) throw new Error(`/api/farm/tree answered ${farms.status}`);
  const mqttPort = Number(process.env.SMOKE_MQTT_PORT || 43883);
  if (!(await reachable('127.0.0.1', mqttPort)))
    throw new Error(`the embedded broker does not answer on ${mqttPort}`);
  console.log(
    `production smoke: console, health, version ${version}, sign-in, farms, broker answer`,
  );
}

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
