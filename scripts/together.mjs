// Runs npm scripts at the same time and exits 1 if any failed. `npm test` uses it for the
// type check, lint and build: each is mostly one core's work, and CI has two. Each script's
// output is printed whole once it ends, so the logs of the three do not interleave.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn('npm', ['run', '--silent', name], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const chunks = [];
        child.stdout.on('data', (c) => chunks.push(c));
        child.stderr.on('data', (c) => chunks.push(c));
        child.on('close', (code) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(0);
          process.stdout.write(`\n> npm run ${name} (${seconds} s, exit ${code})\n`);
          process.stdout.write(Buffer.concat(chunks));
          resolve(code === 0);
        });
      }),
  ),
);
const failed = names.filter((_, i) => !results[i]);
if (failed.length > 0) {
  process.stdout.write(`\nfailed: ${failed.map((n) => `npm run ${n}`).join(', ')}\n`);
  process.exit(1);
}
