import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, runServer } from '../tests/helpers/processes';

export interface DemoHistoryFigures {
  /** Seconds from spawning the server to ready, one per run. */
  runsS: number[];
  medianS: number;
  maxS: number;
}

const DAY_MS = 86_400_000;

/**
 * Cold start of a new demo, its past included, until it is ready: /api/health answers, the
 * demo administrator signs in, and a house's latest month of hourly temperatures is there.
 * Each run on a new DATA_DIR, the server as `npm start` runs it (demo on, simulator on).
 */
export async function benchDemoHistory(runs: number): Promise<DemoHistoryFigures> {
  const runsS: number[] = [];
  for (let i = 0; i < runs; i += 1) runsS.push(await coldStartToReady());
  const sorted = [...runsS].sort((a, b) => a - b);
  return {
    runsS,
    medianS: sorted[Math.floor(sorted.length / 2)] ?? 0,
    maxS: sorted.at(-1) ?? 0,
  };
}

async function coldStartToReady(): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'history-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const server = runServer({
    PORT: String(port),
    MQTT_PORT: String(await freePort()),
    DATA_DIR: dataDir,
    ROOST_CAPTCHA: 'off',
  });
  try {
    for (;;) {
      if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.output()}`);
      if (await ready(base)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return Math.round((performance.now() - t0) / 100) / 10;
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function ready(base: string): Promise<boolean> {
  try {
    const health = await fetch(`${base}/api/health`);
    if (health.status !== 200) return false;
    const login = (await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'Roost12345', codeId: '', code: 'x' }),
    }).then((r) => r.json())) as { data: { token: string } | null };
    if (!login.data) return false;
    const to = Date.now();
    const trend = (await fetch(
      `${base}/api/trend/house?houseId=1&metrics=temperature&from=${to - 30 * DAY_MS}&to=${to}&granularity=hour`,
      { headers: { authorization: `Bearer ${login.data.token}` } },
    ).then((r) => r.json())) as { data: { times: number[] } | null };
    return (trend.data?.times.length ?? 0) > 600;
  } catch {
    return false;
  }
}
