import type { ConfigAck } from '../../src/contract/gateway';
import type { Database } from '../db/client';
import type { GatewayInfo } from '../ingest/gatewayDirectory';
import { recordParams } from './commandRows';
import { finishAcknowledged } from './dispatcher.sql';

/** At most this many acknowledgements in one transaction. */
const ACK_BATCH = 500;

interface PendingAck {
  gateway: GatewayInfo;
  ack: ConfigAck;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Acknowledgements are written in batches: those that arrive while a batch is being written
 * wait for the next one, so 500 gateways answering at once cost a few transactions, not 500.
 * Each caller still waits until its own acknowledgement is stored.
 */
export class AckBatches {
  private pending: PendingAck[] = [];
  private flushing: Promise<void> | null = null;

  /** `finished`: the ids of the commands a batch finished, after its commit. */
  constructor(
    private readonly database: Database,
    private readonly finished: (ids: readonly string[]) => Promise<void>,
  ) {}

  /** Resolves once this acknowledgement is stored. */
  submit(gateway: GatewayInfo, ack: ConfigAck): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ gateway, ack, resolve, reject });
      this.flush();
    });
  }

  /** Resolves when the batch being written (if any) is done. */
  async idle(): Promise<void> {
    await this.flushing;
  }

  private flush(): void {
    if (this.flushing || this.pending.length === 0) return;
    const batch = this.pending.splice(0, ACK_BATCH);
    this.flushing = this.write(batch)
      .then(
        () => batch.forEach((a) => a.resolve()),
        (error: unknown) => batch.forEach((a) => a.reject(error)),
      )
      .finally(() => {
        this.flushing = null;
        this.flush();
      });
  }

  private async write(batch: readonly PendingAck[]): Promise<void> {
    // The first answer to an id wins; a repeat in the same batch is a duplicate.
    const seen = new Set<string>();
    const acks = batch.filter((a) => {
      const key = `${a.gateway.gatewayId}:${a.ack.id}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const done = await this.database.transaction(async ({ db, query }) => {
      const rows = await finishAcknowledged(
        query,
        acks.map((a) => ({
          commandId: a.ack.id,
          gatewayId: a.gateway.gatewayId,
          status: a.ack.status,
          values: a.ack.values ?? null,
          reason: a.ack.status === 'rejected' ? (a.ack.reason ?? 'rejected') : null,
        })),
      );
      // In gateway order, so two batches never lock gateway rows in opposite orders.
      const applied = rows
        .filter((r) => r.state === 'applied' && r.readBack !== null)
        .sort((a, b) => a.gatewayId - b.gatewayId);
      for (const row of applied)
        await recordParams(db, {
          gatewayId: row.gatewayId,
          houseId: row.houseId,
          values: row.readBack!,
          source: 'console',
          operatorName: row.requestedByName,
          commandId: row.id,
          replace: false,
        });
      return rows.map((r) => r.id);
    });
    await this.finished(done);
  }
}
