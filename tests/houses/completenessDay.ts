import type { Database } from '../../server/db/client';
import type { IngestPipeline } from '../../server/ingest/pipeline';

/** The day `offset` days from today in `timeZone` (Asia/Shanghai unless named), YYYY-MM-DD. */
export function shanghaiDay(offset: number, timeZone = 'Asia/Shanghai'): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(
    new Date(Date.now() + offset * 86_400_000),
  );
}

/**
 * A fixed-offset zone where it is 08:xx now. A house monitor draws the last 24 hours: the cut
 * (10:00 to 12:00 of yesterday) is inside them, with readings on both sides, only while it is
 * before 10:00 where the day is counted. In Asia/Shanghai that held from 16:00 to 02:00 UTC
 * only, and the test failed for the rest of the day.
 */
export function morningZone(now = Date.now()): { timeZone: string; offsetHours: number } {
  let offsetHours = (8 - new Date(now).getUTCHours() + 24) % 24;
  if (offsetHours > 14) offsetHours -= 24;
  // IANA's Etc/GMT zones count the other way round: Etc/GMT-5 is five hours ahead of UTC.
  const name =
    offsetHours === 0 ? 'Etc/GMT' : `Etc/GMT${offsetHours > 0 ? '-' : '+'}${Math.abs(offsetHours)}`;
  return { timeZone: name, offsetHours };
}

/**
 * A gateway reading every 60 s through `day` (in the zone `offsetHours` ahead of UTC, Asia/Shanghai's
 * 8 unless named), cut off from 10:00 to 12:00: those readings are dropped, not buffered. The
 * gateway was added three days before.
 */
export async function cutOffDay(
  database: Database,
  ingest: IngestPipeline,
  house: { gatewayId: number; networkId: string },
  day: string,
  offsetHours = 8,
): Promise<void> {
  const start = Date.parse(`${day}T00:00:00Z`) - offsetHours * 3_600_000;
  await database.query('update gateways set interval_seconds = 60, created_at = $2 where id = $1', [
    house.gatewayId,
    new Date(start - 2 * 86_400_000),
  ]);
  const sent: Array<Promise<unknown>> = [];
  for (let i = 0; i < 1440; i++) {
    if (i >= 600 && i < 720) continue;
    sent.push(
      ingest.submitTelemetry(house.networkId, {
        ts: start + i * 60_000,
        seq: i,
        metrics: { temperature: 20 + (i % 30) / 10, humidity: 60 },
      }),
    );
  }
  await Promise.all(sent);
  await ingest.drain();
}
