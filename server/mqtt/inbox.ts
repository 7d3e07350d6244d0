import { MAX_PAYLOAD_BYTES, isReplyTopic, type GatewayTopic } from '../../src/contract/gateway';
import type { GatewayInfo } from '../ingest/gatewayDirectory';
import type { IngestPipeline } from '../ingest/pipeline';
import type { CommandReplyPort } from './replyPort';

/**
 * Where a gateway's messages go, on either broker: readings, statuses and events to ingest,
 * answers to commands to the command side.
 */
export interface GatewayInbox {
  ingest: IngestPipeline;
  replies: CommandReplyPort;
}

/**
 * What a gateway's message on `kind` asks of the server; a topic a gateway may not publish
 * asks nothing. `known`: the gateway, when its broker signed it in. Resolves once handled (the
 * PUBACK waits for it); rejects when it could not be stored.
 */
export function submitByTopic(
  inbox: GatewayInbox,
  networkId: string,
  kind: GatewayTopic,
  payload: Buffer,
  known?: GatewayInfo,
): Promise<unknown> {
  const { ingest } = inbox;
  const cap = MAX_PAYLOAD_BYTES[kind];
  if (cap !== undefined && payload.length > cap)
    return Promise.resolve(
      ingest.rejected(networkId, 'tooLarge', `${kind}: ${payload.length} bytes, at most ${cap}`),
    );
  switch (kind) {
    case 'telemetry':
      return ingest.submitTelemetry(networkId, payload, known);
    case 'status':
      return ingest.submitStatus(networkId, payload);
    case 'event':
      return ingest.submitEvent(networkId, payload);
    default:
      return isReplyTopic(kind)
        ? inbox.replies.submit(networkId, kind, payload)
        : Promise.resolve();
  }
}
