import { countRunTime } from '../server/devices/runtime';
import type { Reading } from '../server/ingest/types';
import { testDatabaseTargets } from '../tests/helpers/databases';
import { houseReading } from '../tests/helpers/readings';
import { withDemoDatabase } from './demoDatabase';
import { topUpHouses } from './seedHouses';

export interface RuntimeFigures {
  database: string;
  houses: number;
  ports: number;
  batch: number;
  /** Median wall time of one batch's count (read, add, guarded write). */
  medianMs: number;
  /** This process's CPU a batch: the server's share (PGlite's worker included). */
  cpuMs: number;
}

/** The shapes counted: the scale bench's (one reading of each of 2,000 houses) and the ingest bench's. */
const SHAPES = [
  { houses: 2_000, ports: 11 },
  { houses: 42, ports: 5 },
];
const BATCH = 2_000;
const RUNS = 15;

/**
 * What counting the devices' run times costs a stored batch of 2,000 readings (the
 * `batchStored` listener, server/devices/runtime.ts), on PGlite and PostgreSQL. Runs only when
 * named (BENCH_ONLY=runtime). Figures, never assertions.
 */
export async function benchRuntime(): Promise<RuntimeFigures[]> {
  const figures: RuntimeFigures[] = [];
  for (const target of testDatabaseTargets())
    for (const shape of SHAPES) {
      await withDemoDatabase(target, async (database) => {
        await topUpHouses(database, {
          houses: shape.houses,
          perFarm: 50,
          farmPrefix: 'Runtime farm',
          provinces: ['370000'],
        });
        const ids = (
          await database.query<{ id: number }>('select id from houses order by id limit $1', [
            shape.houses,
          ])
        ).map((r) => r.id);
        let ts = Date.UTC(2026, 10, 1);
        // Every third port on, the rest off, turning as the readings go.
        const batch = (): Reading[] =>
          Array.from({ length: BATCH }, (_, i) => {
            ts += 10;
            const devices: Reading['devices'] = {};
            for (let p = 0; p < shape.ports; p += 1)
              devices[`port_${p}`] = { state: (i + p) % 3 === 0 ? 1 : 0 };
            return houseReading({ gatewayId: 1, houseId: ids[i % ids.length]!, farmId: 1 }, ts, {
              devices,
            });
          });
        // The first counts create the rows: not measured.
        for (let i = 0; i < 3; i += 1) await countRunTime(database, batch());
        const times: number[] = [];
        const cpuBefore = process.cpuUsage();
        for (let i = 0; i < RUNS; i += 1) {
          const readings = batch();
          const start = performance.now();
          await countRunTime(database, readings);
          times.push(performance.now() - start);
        }
        const cpu = process.cpuUsage(cpuBefore);
        times.sort((a, b) => a - b);
        figures.push({
          database: target.name,
          ...shape,
          batch: BATCH,
          medianMs: Math.round(times[Math.floor(RUNS / 2)]! * 10) / 10,
          cpuMs: Math.round(((cpu.user + cpu.system) / 1000 / RUNS) * 10) / 10,
        });
      });
    }
  return figures;
}
