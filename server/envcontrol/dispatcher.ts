import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { paramValuesSchema } from '../../src/contract/envcontrol';
import type { Database } from '../db/client';
import type { ServerEvents } from '../events';
import type { GatewayDirectory, GatewayInfo } from '../ingest/gatewayDirectory';
import { gatewayTopic } from '../mqtt/topics';
import { readCommands, recordParams } from './commandRows';

/** Sends a message to a gateway at QoS 1: the embedded broker or the external one. */
export type GatewayPublish = (topic: string, payload: string) => Promise<void>;

/**
 * A command sent but not acknowledged is sent again after this long while its gateway is
 * online: a gateway that lost the message (a dropped connection) gets it again, and a gateway
 * applies a command id once, so a resend is harmless.
 */
export const RESEND_AFTER_MS = 15_000;
/** Expiry and resends are checked this often: a command's expiry shows within a second. */
const SWEEP_INTERVAL_MS = 1_000;

export const configAckSchema = z.object({
  id: z.string().min(1).max(64),
  status: z.enum(['applied', 'rejected']),
  values: paramValuesSchema.optional(),
  reason: z.string().max(500).optional(),
});

export const configReportSchema = z.object({
  ts: z.number().optional(),
  version: z.string().max(64).optional(),
  params: paramValuesSchema,
  source: z.enum(['device', 'local']),
});

export interface DispatcherOptions {
  database: Database;
  events: ServerEvents;
  directory: GatewayDirectory;
  log: FastifyBaseLogger;
  resendAfterMs?: number;
}

/**
 * The gateway side of commands: sends stored commands to online gateways (now, when a gateway
 * comes back, and again until acknowledged), records acknowledgements and reports, and expires
 * what waited too long. Everything it knows is in the database, so a restarted server carries
 * on where it stopped.
 */
export class CommandDispatcher {
  private publish: GatewayPublish | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private readonly resendAfterMs: number;

  constructor(private readonly options: DispatcherOptions) {
    this.resendAfterMs = options.resendAfterMs ?? RESEND_AFTER_MS;
  }

  start(publish: GatewayPublish | null): void {
    this.publish = publish;
    const { events } = this.options;
    events.on('commandsQueued', (gatewayIds) => this.dispatchMany(gatewayIds, false));
    events.on('gatewayStatus', async (states) => {
      const back = states.filter((s) => s.online).map((s) => s.houseId);
      if (back.length === 0) return;
      const rows = await this.options.database.query<{ id: number }>(
        'select id from gateways where house_id = any($1::int[])',
        [back],
      );
      void this.dispatchMany(
        rows.map((r) => Number(r.id)),
        true,
      );
    });
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep()
        .catch((error: unknown) => this.options.log.warn({ err: error }, 'command sweep failed'))
        .finally(() => (this.sweeping = null));
    }, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
  }

  /** A gateway's answer (config/ack, config/report …); false when the payload was refused. */
  async submitReply(networkId: string, kind: string, payload: Buffer): Promise<boolean> {
    const gateway = await this.options.directory.find(networkId);
    if (!gateway) return false;
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      return false;
    }
    if (kind === 'config/ack') {
      const ack = configAckSchema.safeParse(body);
      if (!ack.success) return false;
      await this.acknowledged(gateway, ack.data);
      return true;
    }
    if (kind === 'config/report') {
      const report = configReportSchema.safeParse(body);
      if (!report.success) return false;
      await this.reported(gateway, report.data);
      return true;
    }
    return true;
  }

  private async acknowledged(
    gateway: GatewayInfo,
    ack: z.infer<typeof configAckSchema>,
  ): Promise<void> {
    const { database } = this.options;
    const done = await database.transaction(async (query) => {
      // Only this gateway's own command, and only once: a duplicate or a foreign id matches no row.
      const [row] = await query<{ id: string; house_id: number; requested_by_name: string }>(
        `update gateway_commands set state = $3, read_back = $4::jsonb, reason = $5, finished_at = now()
         where id = $1 and gateway_id = $2 and state in ('queued', 'sent')
         returning id, house_id, requested_by_name`,
        [
          ack.id,
          gateway.gatewayId,
          ack.status,
          ack.values ? JSON.stringify(ack.values) : null,
          ack.status === 'rejected' ? (ack.reason ?? 'rejected') : null,
        ],
      );
      if (!row) return null;
      if (ack.status === 'applied' && ack.values)
        await recordParams(query, {
          gatewayId: gateway.gatewayId,
          houseId: Number(row.house_id),
          values: ack.values,
          source: 'console',
          operatorName: row.requested_by_name,
          commandId: row.id,
          replace: false,
        });
      return row.id;
    });
    if (done) await this.changed([done]);
  }

  private async reported(
    gateway: GatewayInfo,
    report: z.infer<typeof configReportSchema>,
  ): Promise<void> {
    await this.options.database.transaction((query) =>
      recordParams(query, {
        gatewayId: gateway.gatewayId,
        houseId: gateway.houseId,
        values: report.params,
        source: 'local',
        operatorName: '',
        commandId: null,
        replace: report.source === 'device',
      }),
    );
    // A gateway reports its set when it connects: it is listening now, send what waits.
    await this.dispatch(gateway.gatewayId, true);
  }

  private async dispatchMany(gatewayIds: readonly number[], known: boolean): Promise<void> {
    for (const id of gatewayIds) await this.dispatch(id, known);
  }

  /**
   * Sends the gateway's open commands. `online` says the caller knows the gateway is there
   * (it just spoke); otherwise its last status decides, and an offline gateway's commands wait.
   */
  async dispatch(gatewayId: number, online: boolean): Promise<void> {
    const publish = this.publish;
    if (!publish) return;
    const { database, log } = this.options;
    if (!online) {
      const [state] = await database.query<{ online: boolean }>(
        'select online from house_state where gateway_id = $1',
        [gatewayId],
      );
      if (!state?.online) return;
    }
    const open = await database.query<{
      id: string;
      network_id: string;
      params: unknown;
      expires_at: Date | string;
      state: string;
    }>(
      `select c.id, g.network_id, c.params, c.expires_at, c.state from gateway_commands c
       join gateways g on g.id = c.gateway_id
       where c.gateway_id = $1 and c.state in ('queued', 'sent') and c.expires_at > now()
       order by c.created_at`,
      [gatewayId],
    );
    const nowSent: string[] = [];
    for (const command of open) {
      const params = (
        typeof command.params === 'string' ? JSON.parse(command.params) : command.params
      ) as Record<string, number>;
      const message = JSON.stringify({
        id: command.id,
        params,
        expiresAt: new Date(command.expires_at).toISOString(),
      });
      try {
        await publish(gatewayTopic(command.network_id, 'config/set'), message);
      } catch (error) {
        log.warn({ err: error, command: command.id }, 'sending a command failed');
        continue;
      }
      const [row] = await database.query<{ was: string }>(
        `update gateway_commands set state = 'sent', sent_at = now()
         where id = $1 and state in ('queued', 'sent') returning $2::text as was`,
        [command.id, command.state],
      );
      if (row && command.state === 'queued') nowSent.push(command.id);
    }
    await this.changed(nowSent);
  }

  /** Expires commands past their time; sends again what was sent and not answered. */
  async sweep(): Promise<void> {
    const { database } = this.options;
    const expired = await database.query<{ id: string }>(
      `update gateway_commands set state = 'expired', reason = 'expired', finished_at = now()
       where state in ('queued', 'sent') and expires_at <= now() returning id`,
    );
    await this.changed(expired.map((r) => r.id));
    const stale = await database.query<{ gateway_id: number }>(
      `select distinct gateway_id from gateway_commands
       where state = 'sent' and sent_at < now() - make_interval(secs => $1)`,
      [this.resendAfterMs / 1000],
    );
    await this.dispatchMany(
      stale.map((r) => Number(r.gateway_id)),
      false,
    );
  }

  private async changed(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const commands = await readCommands(this.options.database.query, ids);
    void this.options.events.emit('commandsChanged', commands);
  }
}
