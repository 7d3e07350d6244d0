import { z } from 'zod';

/** What readings over HTTP take and answer, and the ingest counters administrators read. */

/** POST /api/ingest/:networkId: the gateway's network id in the path. */
export const networkIdParamsSchema = z.object({ networkId: z.string().min(1).max(64) });

/** A reading taken: written now, already written before (a resend), or set aside on shutdown. */
export const ingestAnswerSchema = z.object({ status: z.enum(['stored', 'duplicate', 'ignored']) });

/** A reading refused (422): why, as one of the ingest's reject reasons. */
export const ingestRejectedSchema = z.object({ reason: z.string() });

/** GET /api/ingest/stats: what ingestion has done since the server started. */
export const ingestStatsSchema = z.object({
  accepted: z.number().int().min(0),
  stored: z.number().int().min(0),
  duplicates: z.number().int().min(0),
  statusMessages: z.number().int().min(0),
  rejected: z.record(z.string(), z.number().int().min(0)),
});
export type IngestStats = z.infer<typeof ingestStatsSchema>;
