import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { DeviceNoticeSender } from '../devices/noticeSender';
import type { ServerEvents } from '../events';
import type { IngestPipeline } from '../ingest/pipeline';
import { ackLinkMaker } from '../notify/ackLink';
import { notifyAdapters } from '../notify/adapters';
import type { NotifyConfig } from '../notify/config';
import { DrillSender } from '../notify/drill';
import { EmailAdapter } from '../notify/email';
import { MailSender } from '../notify/mail';
import { warnUnreachable } from '../notify/reach';
import {
  LogAdapter,
  resultOf,
  WebhookAdapter,
  type Channel,
  type ChannelAdapter,
  type NotificationResult,
} from './channels';
import { NotificationDispatcher } from './dispatcher';
import { AlarmEngine } from './engine';

export interface AlarmWiring {
  engine: AlarmEngine;
  dispatcher: NotificationDispatcher;
  stop(): Promise<void>;
}

/**
 * The notification channels from the environment: ROOST_NOTIFY_WEBHOOK_URL sends text
 * messages and calls to a webhook (an SMS/voice provider's bridge), signed with
 * ROOST_WEBHOOK_SECRET, with the message text and acknowledge link in the reader's language;
 * without it they are not delivered (LogAdapter says so).
 */
export function notificationAdapters(
  notify: { webhookUrl: string | null; webhookSecret: string | null },
  log: FastifyBaseLogger,
  words: { locale: 'en' | 'zh'; timeZone: string } = { locale: 'zh', timeZone: 'UTC' },
) {
  const adapter: ChannelAdapter = notify.webhookUrl
    ? new WebhookAdapter({ url: notify.webhookUrl, secret: notify.webhookSecret, ...words })
    : new LogAdapter(log);
  return { sms: adapter, voice: adapter };
}

/**
 * Alarms in a running server: the engine hears every stored batch and status change and the
 * gateways' event topic, and tells the bus what changed; the dispatcher sends notifications.
 */
export function wireAlarms(options: {
  database: Database;
  events: ServerEvents;
  ingest: IngestPipeline;
  notify: { webhookUrl: string | null; webhookSecret: string | null };
  timeZone: string;
  log: FastifyBaseLogger;
  /** Providers, robots, e-mail and acknowledge links (server/notify). */
  channels: NotifyConfig;
  /** Hears each notification's outcome after its tries (the metrics). */
  onNotification?: (channel: Channel, result: NotificationResult) => void;
}): AlarmWiring {
  const { database, ingest, log } = options;
  const engine = new AlarmEngine(database, options.events, ingest.directory, {
    timeZone: options.timeZone,
    log,
  });
  engine.listen();
  // Events come through the ingest path (either broker), acknowledged only once handled.
  ingest.handleEvents((networkId, payload) => engine.submitEvent(networkId, payload));
  const { group, ...adapters } = notifyAdapters(
    options.channels,
    notificationAdapters(options.notify, log, {
      locale: options.channels.locale,
      timeZone: options.timeZone,
    }),
    options.timeZone,
  );
  // Once, off the start's path: a failed count must not stop the server.
  void warnUnreachable(database, adapters, log).catch((error: unknown) =>
    log.warn({ err: error }, 'alarm phone entries not counted'),
  );
  const { publicUrl, ackLinkHours } = options.channels;
  const heard = options.onNotification;
  const sending = heard
    ? { sms: counted(adapters.sms, heard), voice: counted(adapters.voice, heard) }
    : adapters;
  const { timeZone } = options;
  const deviceNotices = new DeviceNoticeSender(database, {
    adapters: sending,
    timeZone,
    locale: options.channels.locale,
    log,
  });
  const drills = new DrillSender(database, {
    adapters: sending,
    locale: options.channels.locale,
    timeZone,
    log,
    publicUrl,
    linkHours: ackLinkHours,
  });
  const { email } = options.channels;
  const transport = email
    ? new EmailAdapter({ ...email, locale: options.channels.locale, timeZone })
    : null;
  const mail =
    email && transport
      ? new MailSender(database, {
          email: transport,
          listed: email.to,
          locale: options.channels.locale,
          timeZone,
          log,
          publicUrl,
          linkHours: ackLinkHours,
        })
      : null;
  const dispatcher = new NotificationDispatcher(database, {
    adapters: sending,
    deviceNotices: (now) => deviceNotices.send(now),
    drills: (now) => drills.send(now),
    mail: mail ? (now) => mail.send(now) : undefined,
    group,
    linkOf: publicUrl ? ackLinkMaker(database, publicUrl, ackLinkHours) : undefined,
    timeZone: options.timeZone,
    log,
  });
  dispatcher.start();
  return {
    engine,
    dispatcher,
    stop: async () => {
      await dispatcher.stop();
      transport?.close();
    },
  };
}

/** The adapter, telling `heard` how each notification ended (a throw is a failure). */
function counted(
  adapter: ChannelAdapter,
  heard: (channel: Channel, result: NotificationResult) => void,
): ChannelAdapter {
  return {
    name: adapter.name,
    async send(n, onTry) {
      try {
        const result = await adapter.send(n, onTry);
        heard(n.channel, resultOf(result));
        return result;
      } catch (error) {
        heard(n.channel, 'failed');
        throw error;
      }
    },
  };
}
