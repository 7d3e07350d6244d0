import { randomUUID } from 'node:crypto';
import { accessSync, constants, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { bootstrap, DEMO_SEED, type BootstrapResult } from './bootstrap';
import type { Config } from './config';
import type { Database } from './db/client';
import { lockDataDir } from './db/lock';
import { openDatabase } from './db/open';
import { startEmbeddedBroker, type EmbeddedBroker } from './mqtt/broker';
import { embeddedPublish, type GatewayPublish } from './envcontrol/publish';
import { startExternalIngest } from './mqtt/externalIngest';
import { DynsecSync, type DriftReport } from './brokerAuth/dynsecSync';
import { EmqxSessions } from './brokerAuth/emqxSessions';
import { secretBoxFrom } from './devices/secrets';
import type { GatewayInbox } from './mqtt/inbox';
import { CommandReplyPort } from './mqtt/replyPort';
import { GatewayDirectory } from './ingest/gatewayDirectory';
import { startMaintenance, type Maintenance } from './ingest/maintenance';
import { startWarningTick } from './production/warningTick';
import { IngestPipeline } from './ingest/pipeline';
import { shareRevocations } from './ingest/revocations';
import { LiveHub } from './live/hub';
import { wireAlarms } from './alarms/wiring';
import { wireCommands } from './envcontrol/wiring';
import { ServerEvents } from './events';
import { RoostMetrics } from './ops/metrics';
import { pino, type Logger } from 'pino';
import { DEMO_INTERVAL_SECONDS } from './demo/demoFarms';
import { DEMO_GATEWAYS_FILE } from './demo/seed';
import { loadDemoGateways } from './simulator/cliArgs';
import { startSimulator, type RunningSimulator } from './simulator/simulator';
import { StartError } from './startError';

export interface RunningRoost {
  url: string;
  port: number;
  /** Port of the embedded broker, or null when it is off or an external broker is used. */
  mqttPort: number | null;
  /** True when 1883 was taken and the embedded broker moved to a free port. */
  mqttMoved: boolean;
  /** Port of the embedded broker's MQTTS listener, or null when TLS is off. */
  mqttTlsPort: number | null;
  app: FastifyInstance;
  database: Database;
  ingest: IngestPipeline;
  /** Where the brokers hand the gateways' answers to commands. */
  replies: CommandReplyPort;
  events: ServerEvents;
  live: LiveHub;
  maintenance: Maintenance;
  /** This process's Prometheus registry and series (served at /metrics). */
  metrics: RoostMetrics;
  boot: BootstrapResult;
  /** What the start's check of Mosquitto's gateway accounts found and mended (null: not managed). */
  brokerDrift: DriftReport | null;
  /** Stops taking requests, lets running ones finish, closes the broker and the database. */
  close(): Promise<void>;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VERSION = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** Starts the whole server: database, first-run data, broker and HTTP. Throws StartError. */
export async function startRoost(config: Config): Promise<RunningRoost> {
  const cleanups: Array<() => Promise<void> | void> = [];
  const undo = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    if (config.databaseUrl === null && config.dataDir !== 'memory://') {
      checkDataDir(config.dataDir);
      cleanups.push(lockDataDir(config.dataDir));
    }
    if (config.port !== 0) await checkPortFree(config.port, config.host, 'PORT');

    const database = await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl }
        : { kind: 'pglite', dataDir: config.dataDir },
    ).catch((error: unknown) => {
      const where = config.databaseUrl
        ? 'the PostgreSQL database in DATABASE_URL'
        : `the database in ${config.dataDir}`;
      throw new StartError(`Could not open ${where}: ${(error as Error).message}`);
    });
    cleanups.push(() => database.close());

    const boot = await bootstrap(config, database);
    const log = pino({ level: config.logLevel });
    // The one event bus of this process: each part below is handed it, and subscribes itself.
    const events = new ServerEvents(log);
    const ingest = new IngestPipeline(database, new GatewayDirectory(database.db), events, log);
    cleanups.push(() => ingest.drain());
    const emqxApi = config.brokerAuth.emqxApi;
    if (emqxApi) {
      const sessions = new EmqxSessions(emqxApi, log);
      events.on('gatewayRevoked', (networkId) => sessions.revoked(networkId));
    }
    if (config.redisUrl) {
      const revocations = await shareRevocations({
        redisUrl: config.redisUrl,
        events,
        directory: ingest.directory,
        log,
      });
      cleanups.push(() => revocations.close());
    }
    // The gateways' answers to commands, handed by the broker to the command side once it runs.
    const replies = new CommandReplyPort((networkId, reason, detail) =>
      ingest.rejected(networkId, reason, detail),
    );

    let mqttState: () => 'ok' | 'off' | 'down' = () => 'off';
    let publish: GatewayPublish | null = null;
    let broker: EmbeddedBroker | null = null;
    let moved = false;
    let brokerAccounts: DynsecSync | undefined;
    let brokerDrift: DriftReport | null = null;
    if (config.mqttUrl) {
      const external = await startExternalIngest({
        url: config.mqttUrl,
        pipeline: ingest,
        replies,
        // Stable across restarts (persistent sessions); PORT=0 (tests) has no stable name.
        instance: config.port === 0 ? randomUUID().slice(0, 8) : String(config.port),
        shareGroup: config.mqttShareGroup,
        log,
      }).catch((error: Error) => {
        throw new StartError(`Cannot use the MQTT broker in MQTT_URL: ${error.message}`);
      });
      cleanups.push(() => external.close());
      mqttState = () => (external.connected() ? 'ok' : 'down');
      publish = (topic, payload) => external.publish(topic, payload);
      const dynsec = config.brokerAuth.dynsec;
      if (dynsec) {
        const started = await DynsecSync.start({
          ...dynsec,
          db: database.db,
          box: secretBoxFrom(process.env, config.dataDir),
          log,
        }).catch((error: Error) => {
          throw new StartError(
            `Cannot manage Mosquitto's gateway accounts as ROOST_DYNSEC_USER: ${error.message}`,
          );
        });
        cleanups.push(() => started.sync.close());
        started.sync.logDrift(started.drift);
        brokerAccounts = started.sync;
        brokerDrift = started.drift;
      }
    } else {
      ({ broker, moved } = await startBroker(config, { ingest, replies }, events));
      const started = broker;
      if (started) {
        cleanups.push(() => started.close());
        mqttState = () => 'ok';
        publish = embeddedPublish(started);
      }
    }

    const embedded = broker;
    const metrics = new RoostMetrics({
      database,
      ingest,
      mqttClients: embedded ? () => embedded.aedes.connectedClients : null,
      mqttState,
      log,
    });
    const app = await buildApp(
      {
        config: { ...config, demo: boot.demo },
        database,
        version: VERSION,
        mqttState,
        ingest,
        events,
        metrics,
        brokerAccounts,
      },
      { loggerInstance: log },
    );
    cleanups.push(() => app.close());
    const live = await LiveHub.attach(app.server, database, { redisUrl: config.redisUrl, log });
    cleanups.push(() => live.close());
    live.listen(events);
    metrics.watchLive(() => live.io.of('/').sockets.size);
    const alarms = wireAlarms({
      database,
      events,
      ingest,
      notify: { webhookUrl: config.notifyWebhookUrl, webhookSecret: config.webhookSecret },
      channels: config.notify,
      timeZone: config.timeZone,
      log,
      onNotification: (channel, result) => metrics.notification(channel, result),
    });
    cleanups.push(() => alarms.stop());
    // Upgrade download links: ROOST_PUBLIC_URL, else the address this server listens on.
    let downloadBase: string | null = config.notify.publicUrl;
    const commands = wireCommands({
      database,
      events,
      ingest,
      replies,
      publish,
      log,
      downloadBase: () => downloadBase,
    });
    cleanups.push(() => commands.stop());
    if (boot.demo && config.runSimulator) {
      const simulator = await startDemoSimulator(
        config,
        boot,
        config.mqttUrl ??
          (broker ? `mqtt://${localHost(plainHostOf(config))}:${broker.port}` : null),
        log,
      );
      if (simulator) cleanups.push(() => simulator.stop());
    }
    const maintenance = startMaintenance(database, ingest, {
      timeZone: config.timeZone,
      rawRetentionDays: config.rawRetentionDays,
      commandRetention: {
        commandDays: config.commandRetentionDays,
        paramChangeDays: config.paramChangeRetentionDays,
      },
      log,
    });
    cleanups.push(() => maintenance.stop());
    // Daily Business's early warnings judge metered water as it arrives, not only on a save.
    const warningTick = startWarningTick({ database, events, config }, { log });
    cleanups.push(() => warningTick.stop());
    // Runs first on close, before the simulator and the broker end their connections.
    cleanups.push(() => ingest.stopping());

    await app
      .listen({ port: config.port, host: config.host })
      .catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'EADDRINUSE' ? portInUse(config.port, config.host, 'PORT') : error;
      });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const shownHost = localHost(config.host);
    downloadBase ??= `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
    let closing: Promise<void> | null = null;
    return {
      url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
      port,
      mqttPort: broker?.port ?? null,
      mqttMoved: moved,
      mqttTlsPort: broker?.tlsPort ?? null,
      app,
      database,
      boot,
      brokerDrift,
      ingest,
      replies,
      events,
      live,
      maintenance,
      metrics,
      close: () => (closing ??= undo()),
    };
  } catch (error) {
    await undo().catch(() => undefined);
    throw error;
  }
}

async function startBroker(
  config: Config,
  inbox: GatewayInbox,
  events: ServerEvents,
): Promise<{ broker: EmbeddedBroker | null; moved: boolean }> {
  if (config.mqttPort === null) return { broker: null, moved: false };
  const plainHost = plainHostOf(config);
  const tls = config.mqttTls ? { ...config.mqttTls, host: config.host } : undefined;
  if (tls && tls.port !== 0) await checkPortFree(tls.port, tls.host, 'MQTT_TLS_PORT');
  try {
    return {
      broker: await startEmbeddedBroker(inbox, config.mqttPort, plainHost, events, tls),
      moved: false,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    // Another broker (often Mosquitto) has 1883: keep `npm start` working on a free port.
    if (!config.mqttPortIsDefault) throw portInUse(config.mqttPort, plainHost, 'MQTT_PORT');
    return { broker: await startEmbeddedBroker(inbox, 0, plainHost, events, tls), moved: true };
  }
}

/**
 * The demo's simulated gateways, in this process. Their tokens come from this start's seed or
 * from DATA_DIR/demo-gateways.json; without either (an old demo) the demo runs without them.
 */
async function startDemoSimulator(
  config: Config,
  boot: BootstrapResult,
  url: string | null,
  log: Logger,
): Promise<RunningSimulator | null> {
  if (!url) return null;
  let gateways = boot.demoGateways;
  if (!gateways) {
    try {
      gateways = loadDemoGateways(path.join(config.dataDir, DEMO_GATEWAYS_FILE), null);
    } catch (error) {
      log.warn({ err: (error as Error).message }, 'demo gateways not simulated');
      return null;
    }
  }
  return startSimulator({
    url,
    gateways,
    intervalMs: DEMO_INTERVAL_SECONDS * 1000,
    seed: DEMO_SEED,
    // A new demo's history ends where these models stand: live readings carry on from there.
    models: boot.demoGateways === gateways ? (boot.demoModels ?? undefined) : undefined,
    onError: (error) => log.warn({ err: error.message }, 'demo gateway'),
  });
}

/** With TLS on, plain text (tokens in clear) stays on this machine unless asked otherwise. */
function plainHostOf(config: Config): string {
  return config.mqttTls && config.mqttPlainLoopback ? '127.0.0.1' : config.host;
}

/** Where this machine reaches a server that listens on `host`. */
function localHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}

function checkDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new StartError(
      `DATA_DIR ${dataDir} cannot be read and written (${reason}): fix its permissions or set DATA_DIR to another folder.`,
    );
  }
}

function checkPortFree(port: number, host: string, variable: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? portInUse(port, host, variable)
          : new StartError(
              `Cannot listen on ${host}:${port} (${error.code ?? error.message}): check HOST and ${variable}.`,
            ),
      );
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

function portInUse(port: number, host: string, variable: string): StartError {
  return new StartError(
    `Port ${port} on ${host} is already in use: stop the program using it, or start Roost with ${variable}=<another port>.`,
  );
}
