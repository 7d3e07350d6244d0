import type { Query } from '../db/client';

/** One gateway's answer to one of its configuration commands. */
export interface AckUpdate {
  commandId: string;
  gatewayId: number;
  status: 'applied' | 'rejected';
  /** The values the gateway read back; null when it sent none. */
  values: Record<string, number> | null;
  /** Why it refused; null when applied. */
  reason: string | null;
}

/** A command an acknowledgement finished. */
export interface AckedCommand {
  id: string;
  houseId: number;
  gatewayId: number;
  requestedByName: string;
  state: string;
  readBack: Record<string, number> | null;
}

/**
 * Hand-written: a batch of up to ACK_BATCH (500) acknowledgements is one statement, the
 * answers joined in as arrays with `unnest`, which Drizzle's update cannot express. The report
 * flood test (500 gateways answering at once) measures this path; one update per answer cost
 * a round trip each inside the transaction. Only each gateway's own configuration command, and
 * only while open: a duplicate or a foreign id matches no row.
 */
export async function finishAcknowledged(
  query: Query,
  acks: readonly AckUpdate[],
): Promise<AckedCommand[]> {
  if (acks.length === 0) return [];
  const rows = await query<{
    id: string;
    house_id: number;
    gateway_id: number;
    requested_by_name: string;
    state: string;
    read_back: unknown;
  }>(
    `update gateway_commands c set state = a.status, read_back = a.vals::jsonb, reason = a.reason,
       finished_at = now()
     from unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[]) as a(id, gateway_id, status, vals, reason)
     where c.id = a.id and c.gateway_id = a.gateway_id and c.kind = 'config' and c.state in ('queued', 'sent')
     returning c.id, c.house_id, c.gateway_id, c.requested_by_name, c.state, c.read_back`,
    [
      acks.map((a) => a.commandId),
      acks.map((a) => a.gatewayId),
      acks.map((a) => a.status),
      acks.map((a) => (a.values ? JSON.stringify(a.values) : null)),
      acks.map((a) => a.reason),
    ],
  );
  return rows.map((r) => ({
    id: r.id,
    houseId: Number(r.house_id),
    gatewayId: Number(r.gateway_id),
    requestedByName: r.requested_by_name,
    state: r.state,
    // jsonb comes back parsed from PGlite and node-postgres alike; text from older drivers.
    readBack:
      r.read_back === null
        ? null
        : ((typeof r.read_back === 'string' ? JSON.parse(r.read_back) : r.read_back) as Record<
            string,
            number
          >),
  }));
}
