import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../server/bootstrap';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import { openDatabase } from '../../server/db/open';
import type { Reading } from '../../server/ingest/types';
import { writeBatch } from '../../server/ingest/writer';
import { testDatabaseTargets } from '../helpers/databases';

/**
 * The batch writer answers which readings were new: the alarms and the live hub act only on
 * those, and the MQTT acknowledgement says stored or duplicate. Most batches are all new and
 * take the short answer (a count); these are the others.
 */
describe.each(testDatabaseTargets())('the telemetry batch writer on $name', (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let dataDir: string;
  let house: { gatewayId: number; houseId: number; farmId: number };

  beforeAll(async () => {
    const created = await target.create();
    drop = created.drop;
    database = await openDatabase(created.target);
    dataDir = mkdtempSync(path.join(tmpdir(), 'roost-writer-'));
    await bootstrap(
      readConfig({ DATA_DIR: dataDir, ROOST_DEMO: '1', ROOST_DEMO_HISTORY: 'off' }),
      database,
    );
    const [row] = await database.query<{ id: number; house_id: number; farm_id: number }>(
      `select g.id, g.house_id, h.farm_id from gateways g join houses h on h.id = g.house_id
       order by g.id limit 1`,
    );
    house = { gatewayId: row!.id, houseId: row!.house_id, farmId: row!.farm_id };
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const reading = (ts: number, temperature: number): Reading => ({
    ...house,
    networkId: 'writer-test',
    receivedAt: new Date(),
    ts: new Date(ts),
    seq: null,
    mode: 1,
    metrics: { temperature },
    faults: {},
    devices: {},
  });

  it('stores a reading resent within its own batch once, and one stored before not again', async () => {
    const t0 = Date.UTC(2026, 10, 20, 8, 0, 0, 123);
    const first = await database.transaction((query) =>
      writeBatch(query, [reading(t0, 20), reading(t0, 20), reading(t0 + 1000, 21)]),
    );
    expect(first.inserted.map((r) => r.ts.getTime())).toEqual([t0, t0 + 1000]);
    expect(first.duplicates).toBe(1);

    const second = await database.transaction((query) =>
      writeBatch(query, [reading(t0 + 1000, 21), reading(t0 + 2000, 22)]),
    );
    expect(second.inserted.map((r) => r.ts.getTime())).toEqual([t0 + 2000]);
    expect(second.duplicates).toBe(1);

    const all = await database.transaction((query) => writeBatch(query, [reading(t0 + 3000, 23)]));
    expect(all.inserted).toHaveLength(1);
    expect(all.duplicates).toBe(0);

    const [stored] = await database.query<{ rows: number; hourly: number; avg: number }>(
      `select (select count(*)::int from telemetry where house_id = $1) as rows,
              (select readings from telemetry_hourly where house_id = $1 and bucket = $2) as hourly,
              (select temperature_sum / temperature_n from telemetry_hourly
                where house_id = $1 and bucket = $2) as avg`,
      [house.houseId, new Date(Date.UTC(2026, 10, 20, 8))],
    );
    expect(stored).toEqual({ rows: 4, hourly: 4, avg: 21.5 });
  });
});
