import { METRIC_KEYS } from '../../../src/contract/metrics';
import { BinaryCopy, copyStatement, type CopyType } from '../../db/binaryCopy';
import type { Query } from '../../db/client';
import type { Reading } from '../../ingest/types';
import type { Bucket } from './generate';

/*
 * The past of a new embedded demo goes in as binary COPY: on PGlite it is about ten times
 * faster than the unnest() inserts the live writer uses (which PostgreSQL keeps for the demo).
 * A new database holds none of these rows, so COPY's lack of "on conflict" costs nothing.
 */

const RAW_COLUMNS = [
  'gateway_id',
  'house_id',
  'ts',
  'seq',
  'mode',
  'faults',
  ...METRIC_KEYS.map((k) => `"${k}"`),
];
const RAW_TYPES: CopyType[] = [
  'int4',
  'int4',
  'timestamptz',
  'int4',
  'int2',
  'jsonb',
  ...METRIC_KEYS.map((): CopyType => 'float4'),
];

export async function copyRaw(query: Query, raw: readonly Reading[]): Promise<void> {
  if (raw.length === 0) return;
  const copy = new BinaryCopy(RAW_TYPES);
  const values: (number | Date | string | null)[] = new Array(RAW_TYPES.length);
  for (const r of raw) {
    values[0] = r.gatewayId;
    values[1] = r.houseId;
    values[2] = r.ts;
    values[3] = r.seq;
    values[4] = r.mode;
    values[5] = Object.keys(r.faults).length > 0 ? JSON.stringify(r.faults) : null;
    for (let m = 0; m < METRIC_KEYS.length; m += 1)
      values[6 + m] = r.metrics[METRIC_KEYS[m]!] ?? null;
    copy.row(values);
  }
  await query(copyStatement('telemetry', RAW_COLUMNS), [], { copyData: copy.finish() });
}

const PART_TYPES: CopyType[] = ['float4', 'float4', 'float8', 'int4'];
const PARTS = ['min', 'max', 'sum', 'n'];

/** Rollup rows of one house for the metrics it reported (index into METRIC_KEYS). */
export async function copyRollups(
  query: Query,
  table: 'telemetry_hourly' | 'telemetry_daily',
  houseId: number,
  buckets: Map<number, Bucket>,
  metrics: readonly number[],
): Promise<void> {
  if (buckets.size === 0) return;
  const columns = [
    'house_id',
    'bucket',
    'readings',
    ...metrics.flatMap((m) => PARTS.map((p) => `"${METRIC_KEYS[m]!}_${p}"`)),
  ];
  const types: CopyType[] = ['int4', 'timestamptz', 'int4', ...metrics.flatMap(() => PART_TYPES)];
  const copy = new BinaryCopy(types);
  const values: (number | null)[] = new Array(types.length);
  for (const [at, row] of [...buckets].sort((a, b) => a[0] - b[0])) {
    values[0] = houseId;
    values[1] = at;
    values[2] = row.readings;
    metrics.forEach((m, i) => {
      const n = row.agg[m * 4 + 3]!;
      // n = 0: the metric had no value in the bucket; its min, max and sum stay null.
      values[3 + i * 4] = n === 0 ? null : row.agg[m * 4]!;
      values[4 + i * 4] = n === 0 ? null : row.agg[m * 4 + 1]!;
      values[5 + i * 4] = n === 0 ? null : row.agg[m * 4 + 2]!;
      values[6 + i * 4] = n;
    });
    copy.row(values);
  }
  await query(copyStatement(table, columns), [], { copyData: copy.finish() });
}
