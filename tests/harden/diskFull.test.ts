import { execFileSync } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/open';
import type { DemoGateway } from '../../server/demo/seed';
import { freePort, runServer, type ServerProcess } from '../helpers/processes';

/** A small filesystem of the test's own, so the disk can really fill (root may mount tmpfs). */
function mountSmallDisk(): string | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'roost-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=192m', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

const disk = mountSmallDisk();
afterAll(() => {
  if (!disk) return;
  execFileSync('umount', ['-l', disk], { stdio: 'ignore' });
  rmSync(disk, { recursive: true, force: true });
});

/** Writes zeros until the disk says it is full; returns the file, to delete to free it. */
function fillDisk(dir: string): string {
  const file = path.join(dir, 'filler');
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(1 << 20);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return file;
}

// Mounting needs root: CI and this project's machines run the tests as root; elsewhere the
// read-only database in health.test.ts stands in for a full disk.
describe.runIf(disk)('a full disk under the embedded database', () => {
  it('keeps the process up, answers 503 (never 500), logs it a few times, and stores every acknowledged reading once after space returns', async () => {
    const dataDir = path.join(disk!, 'data');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server: ServerProcess = runServer({
      PORT: String(port),
      MQTT_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      ROOST_DEMO: '1',
      ROOST_DEMO_HISTORY: 'off',
      ROOST_SIMULATOR: 'off',
      ROOST_CAPTCHA: 'off',
      LOG_LEVEL: 'error',
    });
    let stopped = false;
    try {
      await server.waitFor(/Roost is running/, 120_000);
      const gateways = (
        JSON.parse(readFileSync(path.join(dataDir, 'demo-gateways.json'), 'utf8')) as DemoGateway[]
      ).slice(0, 10);
      const t0 = Date.now() - 3_600_000;
      const acked = new Set<string>();
      const statuses = new Map<number, number>();
      let retryAfter: string | null = null;
      const send = async (g: DemoGateway, i: number) => {
        const res = await fetch(`${base}/api/ingest/${g.networkId}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${g.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            ts: t0 + i * 100,
            metrics: { temperature: 20 + (i % 10), humidity: 50 + (i % 7) },
          }),
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 200) acked.add(`${g.houseId}|${t0 + i * 100}`);
        if (res.status === 503) retryAfter = res.headers.get('retry-after');
        return res.status;
      };
      const round = (from: number, to: number) =>
        Promise.all(
          gateways.map(async (g) => {
            for (let i = from; i < to; i += 1) await send(g, i);
          }),
        );
      const health = async () => {
        const res = await fetch(`${base}/api/health`);
        return { status: res.status, body: (await res.json()) as { data: { reason?: string } } };
      };

      await round(0, 20);
      expect(statuses).toEqual(new Map([[200, 200]]));
      const logBefore = server.output().split('\n').length;

      const filler = fillDisk(disk!);
      // Until the data files must grow, writes still fit; send until the database refuses.
      for (let from = 20; !statuses.has(503) && from < 2_020; from += 100)
        await round(from, from + 100);
      expect([...statuses.keys()].sort()).toEqual([200, 503]);
      expect(retryAfter).toBe('10');
      const down = await health();
      expect(down.status).toBe(503);
      expect(down.body.data.reason).toMatch(/No space left on device/);
      // Thousands of refused requests, a handful of log lines.
      const linesWhileFull = server.output().split('\n').length - logBefore;
      expect(linesWhileFull).toBeLessThan(30);

      unlinkSync(filler);
      const until = Date.now() + 60_000;
      while ((await health()).status !== 200 && Date.now() < until)
        await new Promise((r) => setTimeout(r, 250));
      expect((await health()).status).toBe(200);
      // The gateways send again what was refused (and a little more): all of it is taken now.
      const before = statuses.get(200)!;
      await round(0, 2_100);
      expect(statuses.get(200)! - before).toBe(2_100 * gateways.length);
      expect(server.child.exitCode).toBeNull();

      server.child.kill('SIGINT');
      await server.exited;
      stopped = true;
      const database = await openDatabase({ kind: 'pglite', dataDir });
      try {
        const rows = await database.query<{ house_id: number; ts: Date }>(
          'select house_id, ts from telemetry where house_id = any($1) and ts >= $2',
          [gateways.map((g) => g.houseId), new Date(t0)],
        );
        const stored = rows.map((r) => `${r.house_id}|${new Date(r.ts).getTime()}`);
        expect(new Set(stored).size).toBe(stored.length);
        for (const key of acked) expect(stored).toContain(key);
        expect(stored.length).toBe(2_100 * gateways.length);
      } finally {
        await database.close();
      }
    } finally {
      if (!stopped) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
    }
  }, 600_000);
});
