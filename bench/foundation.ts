import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, runServer } from '../tests/helpers/processes';

export interface FoundationFigures {
  coldStartToHealthMs: number;
  warmStartToHealthMs: number;
  rssAfterStartMiB: number;
  signInP50Ms: number;
  signInP95Ms: number;
  getCurrentP50Ms: number;
  getCurrentP95Ms: number;
}

const SIGN_INS = 40;
const READS = 500;

/** Start-up and sign-in figures of the server process on its embedded defaults. */
export async function benchFoundation(): Promise<FoundationFigures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'roost-bench-'));
  try {
    const port = await freePort();
    // The plain server's start: a new demo's past has a figure of its own (demoHistory.ts).
    const env = {
      PORT: String(port),
      MQTT_PORT: '0',
      DATA_DIR: dataDir,
      ROOST_CAPTCHA: 'off',
      ROOST_DEMO_HISTORY: 'off',
    };
    const base = `http://127.0.0.1:${port}`;

    const cold = await timeToHealth(env, base);
    await cold.stop();
    const warm = await timeToHealth(env, base);
    try {
      const rss = await rssMiB(warm.pid);
      const signIns: number[] = [];
      let token = '';
      for (let i = 0; i < SIGN_INS; i += 1) {
        const t0 = performance.now();
        const res = await post(base, '/api/login', { username: 'admin', password: 'Roost12345' });
        signIns.push(performance.now() - t0);
        token = res.data.token;
      }
      const reads: number[] = [];
      for (let i = 0; i < READS; i += 1) {
        const t0 = performance.now();
        await fetch(`${base}/api/user/getCurrent`, {
          headers: { authorization: `Bearer ${token}` },
        }).then((r) => r.json());
        reads.push(performance.now() - t0);
      }
      return {
        coldStartToHealthMs: cold.ms,
        warmStartToHealthMs: warm.ms,
        rssAfterStartMiB: rss,
        signInP50Ms: percentile(signIns, 50),
        signInP95Ms: percentile(signIns, 95),
        getCurrentP50Ms: percentile(reads, 50),
        getCurrentP95Ms: percentile(reads, 95),
      };
    } finally {
      await warm.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function timeToHealth(env: Record<string, string>, base: string) {
  const t0 = performance.now();
  const server = runServer(env);
  for (;;) {
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const ms = Math.round(performance.now() - t0);
  return {
    ms,
    pid: server.child.pid ?? 0,
    async stop() {
      server.child.kill('SIGTERM');
      await server.exited;
    },
  };
}

async function post(base: string, url: string, body: object) {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { data: { token: string } };
}

async function rssMiB(pid: number): Promise<number> {
  const { readFileSync } = await import('node:fs');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 100) / 100;
}
