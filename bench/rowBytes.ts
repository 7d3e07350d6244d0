/**
 * Bytes per stored reading on the embedded database, for the README's sizing: the demo's 42
 * simulated houses send READINGS readings (one a minute each, the gateways' default interval),
 * written through the real writer in the pipeline's full batches, then PostgreSQL's own sizes
 * are read. Not a speed figure, so not part of `npm run bench`: `npx tsx bench/rowBytes.ts`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bootstrap } from '../server/bootstrap';
import { readConfig } from '../server/config';
import { openDatabase } from '../server/db/open';
import { decodeTelemetry } from '../server/ingest/decode';
import { GatewayDirectory } from '../server/ingest/gatewayDirectory';
import type { Reading } from '../server/ingest/types';
import { writeBatch } from '../server/ingest/writer';
import { createFleet } from '../server/simulator/houseModel';

const READINGS = Number(process.env.ROW_BYTES_READINGS ?? 100_000);
const INTERVAL_MS = 60_000;
const BATCH = 2_000;

const dataDir = mkdtempSync(path.join(tmpdir(), 'roost-rowbytes-'));
const config = readConfig({
  DATA_DIR: dataDir,
  ROOST_DEMO: '1',
  ROOST_DEMO_HISTORY: 'off',
  LOG_LEVEL: 'silent',
});
const database = await openDatabase({ kind: 'pglite', dataDir });
try {
  const boot = await bootstrap(config, database);
  const gateways = boot.demoGateways ?? [];
  const directory = new GatewayDirectory(database.db);
  const infos = await Promise.all(gateways.map((g) => directory.find(g.networkId)));
  const steps = Math.ceil(READINGS / gateways.length);
  const start = Date.now() - steps * INTERVAL_MS - 60_000;
  const fleet = createFleet(gateways, 1, start, INTERVAL_MS);

  const sizes = async () => {
    await database.query('checkpoint');
    const [row] = await database.query<Record<string, string>>(
      `select pg_relation_size('telemetry') as raw_heap,
              pg_indexes_size('telemetry') as raw_indexes,
              pg_total_relation_size('telemetry') as raw_total,
              pg_total_relation_size('telemetry_hourly') as hourly_total,
              (select count(*) from telemetry) as raw_rows,
              (select count(*) from telemetry_hourly) as hourly_rows`,
    );
    const du = Number(
      execFileSync('du', ['-sb', path.join(dataDir, 'pgdata')])
        .toString()
        .split('\t')[0],
    );
    return { ...Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)])), du };
  };
  const before = await sizes();

  let pending: Reading[] = [];
  let written = 0;
  const flush = async () => {
    const batch = pending;
    pending = [];
    await database.transaction(({ query }) => writeBatch(query, batch));
  };
  for (let step = 0; step < steps && written < READINGS; step += 1) {
    const now = start + step * INTERVAL_MS;
    for (const [index, model] of fleet.entries()) {
      if (written >= READINGS) break;
      const { message, offline } = model.next(now);
      if (offline) continue;
      const decoded = decodeTelemetry(message, now + 1_000);
      const info = infos[index];
      if (!decoded.ok || !info || info.houseId === null || info.farmId === null) continue;
      pending.push({
        ...decoded.reading,
        gatewayId: info.gatewayId,
        houseId: info.houseId,
        farmId: info.farmId,
        networkId: info.networkId,
        receivedAt: new Date(now + 1_000),
      });
      written += 1;
      if (pending.length >= BATCH) await flush();
    }
  }
  await flush();
  const after = await sizes();
  // Each batch updates its houses' hour rows; without autovacuum (PGlite runs none) the old
  // versions stay until pruned: the rewritten table shows what the live rows take.
  await database.query('vacuum full telemetry_hourly');
  const [compact] = await database.query<{ bytes: string; width: string }>(
    `select pg_total_relation_size('telemetry_hourly') as bytes,
            (select avg(pg_column_size(h.*)) from telemetry_hourly h) as width`,
  );
  const delta = (key: string) =>
    (after as Record<string, number>)[key]! - (before as Record<string, number>)[key]!;
  const rows = delta('raw_rows');
  const perRow = (key: string) => (delta(key) / rows).toFixed(1);
  // What `npm run backup` costs on this database: writes wait for the dump this long.
  const dumpStarted = performance.now();
  const archive = await database.dump!();
  const dumpSeconds = (performance.now() - dumpStarted) / 1000;
  console.log(
    JSON.stringify(
      {
        backup: {
          seconds: dumpSeconds.toFixed(1),
          bytes: archive.byteLength,
          pgdataBytes: after.du,
        },
        readings: rows,
        houses: gateways.length,
        hourlyRows: delta('hourly_rows'),
        bytesPerRawRow: {
          heap: perRow('raw_heap'),
          indexes: perRow('raw_indexes'),
          total: perRow('raw_total'),
        },
        bytesPerHourlyRow: {
          asWritten: (delta('hourly_total') / delta('hourly_rows')).toFixed(1),
          afterVacuumFull: (
            Number(compact!.bytes) / (after as Record<string, number>).hourly_rows!
          ).toFixed(1),
          liveTupleWidth: Number(compact!.width).toFixed(1),
        },
        pgdataGrowthPerReading: perRow('du'),
      },
      null,
      2,
    ),
  );
} finally {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
