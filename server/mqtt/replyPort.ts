import type { GatewayReplyTopic } from '../../src/contract/gateway';
import type { RejectReason } from '../ingest/decode';

/** Why a gateway's answer was refused: counted by reason and logged like a refused reading. */
export interface ReplyRefusal {
  reason: RejectReason;
  detail: string;
}

/** Handles a gateway's answer to a command; answers why it was refused, or null. */
export type ReplyHandler = (
  networkId: string,
  kind: GatewayReplyTopic,
  payload: Buffer,
) => Promise<ReplyRefusal | null>;

/** Where a refusal is counted and logged: the one count of refused gateway messages. */
export type RefusalSink = (networkId: string, reason: RejectReason, detail: string) => unknown;

/**
 * Where either broker (embedded or external) hands a gateway's answers to commands
 * (config/ack, config/report, upgrade/progress, log): straight to the command side, which
 * attaches itself once it runs. Readings never pass here and answers never pass through ingest.
 * The broker is started before the command side (which needs the broker to publish), hence a
 * port to attach to rather than a handler given at the start.
 */
export class CommandReplyPort {
  private handler: ReplyHandler | null = null;

  constructor(private readonly refused: RefusalSink) {}

  /** The command side takes the answers from now on (one handler: a second replaces it). */
  attach(handler: ReplyHandler): void {
    this.handler = handler;
  }

  /**
   * A gateway's answer, resolved once handled, so the MQTT acknowledgement waits for it; a
   * refused one is counted and logged. Before the command side is attached an answer is
   * acknowledged unhandled, as the gateway sends its state again on its next connection.
   */
  async submit(networkId: string, kind: GatewayReplyTopic, payload: Buffer): Promise<void> {
    const refusal = await this.handler?.(networkId, kind, payload);
    if (refusal) this.refused(networkId, refusal.reason, refusal.detail);
  }
}
