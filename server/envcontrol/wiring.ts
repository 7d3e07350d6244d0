import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { ServerEvents } from '../events';
import type { IngestPipeline } from '../ingest/pipeline';
import type { CommandReplyPort } from '../mqtt/replyPort';
import { CommandDispatcher, type GatewayPublish } from './dispatcher';

export interface CommandWiring {
  database: Database;
  events: ServerEvents;
  /** For its gateway directory. */
  ingest: IngestPipeline;
  /** Where the brokers hand the gateways' answers to commands. */
  replies: CommandReplyPort;
  /** Null without a broker (MQTT_PORT=0): commands wait in the database. */
  publish: GatewayPublish | null;
  log: FastifyBaseLogger;
  /** Where gateways download upgrade files: `http://host:port`, null until the server listens. */
  downloadBase?: () => string | null;
}

/** Starts the command dispatcher and hands it the gateways' answers. */
export function wireCommands(wiring: CommandWiring): CommandDispatcher {
  const dispatcher = new CommandDispatcher({
    database: wiring.database,
    events: wiring.events,
    directory: wiring.ingest.directory,
    log: wiring.log,
    downloadBase: wiring.downloadBase,
  });
  wiring.replies.attach((networkId, kind, payload) =>
    dispatcher.submitReply(networkId, kind, payload),
  );
  dispatcher.start(wiring.publish);
  return dispatcher;
}
