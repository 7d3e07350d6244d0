import type { Database } from '../../server/db/client';
import type { IngestPipeline } from '../../server/ingest/pipeline';

/** The day `offset` days from today in Asia/Shanghai, YYYY-MM-DD. */
export function shanghaiDay(offset: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(
    new Date(Date.now() + offset * 86_400_000),
  );
}

/**
 * A gateway reading every 60 s through `day` (Asia/Shanghai), cut off from 10:00 to 12:00: those
 * readings are dropped, not buffered. The gateway was added three days before.
 */
export async function cutOffDay(
  database: Database,
  ingest: IngestPipeline,
  house: { gatewayId: number; networkId: string },
  day: string,
): Promise<void> {
  const start = Date.parse(`${day}T00:00:00+08:00`);
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
