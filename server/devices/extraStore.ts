import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { terminalDevices } from '../db/devicesSchema';
import { MAX_TREND_POINTS, type TrendGranularity } from '../../src/contract/overview';
import { Refusal } from '../refusal';
import { readExtraBuckets } from './extraStore.sql';

// The ingest writer and the daily rollup reach the hand-written writes here, with the rest of
// the extra parameters' store.
export { rollExtraDays, writeExtras } from './extraStore.sql';

/** A trend's bucket widths, as the catalogue's trends count them (a month as 30 days). */
const TREND_BUCKET_MS: Record<TrendGranularity, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  month: 30 * 86_400_000,
};

/** Whether `code` is an extra parameter of a device in any of the houses. */
export async function isExtraOf(
  database: Database,
  houseIds: number[],
  code: string,
): Promise<boolean> {
  const rows = await database.db
    .select({ id: terminalDevices.id })
    .from(terminalDevices)
    .where(
      and(
        inArray(terminalDevices.houseId, houseIds),
        sql`${terminalDevices.extras} @> jsonb_build_array(jsonb_build_object('code', ${code}::text))`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

const round3 = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 1000);

/**
 * An extra parameter's mean, lowest and highest per bucket for several houses, in the shape of the catalogue's
 * trends: minutes from the raw rows, hours and days from their rollups, months from days.
 */
export async function readExtraTrends(
  database: Database,
  q: { houseIds: number[]; code: string; from: number; to: number; granularity: TrendGranularity },
  timeZone: string,
) {
  const points = Math.ceil((q.to - q.from) / TREND_BUCKET_MS[q.granularity]);
  if (points > MAX_TREND_POINTS)
    throw new Refusal('unprocessable', 'trend.tooManyPoints', { points, max: MAX_TREND_POINTS });
  const rows = await readExtraBuckets(database.query, q, timeZone);
  return q.houseIds.map((houseId) => {
    const mine = rows.filter((r) => r.houseId === houseId);
    return {
      houseId,
      granularity: q.granularity,
      times: mine.map((r) => r.t.getTime()),
      series: {
        [q.code]: {
          avg: mine.map((r) => round3(r.v)),
          min: mine.map((r) => round3(r.lo)),
          max: mine.map((r) => round3(r.hi)),
        },
      },
    };
  });
}

/** A house's extra parameters, in the order of its devices and their lists. */
export async function extrasOfHouse(
  database: Database,
  houseId: number,
): Promise<Array<{ code: string; name: string; unit: string; deviceName: string }>> {
  const devices = await database.db
    .select({ name: terminalDevices.name, extras: terminalDevices.extras })
    .from(terminalDevices)
    .where(eq(terminalDevices.houseId, houseId))
    .orderBy(asc(terminalDevices.id));
  return devices.flatMap((d) =>
    d.extras.map((e) => ({ code: e.code, name: e.name, unit: e.unit ?? '', deviceName: d.name })),
  );
}
