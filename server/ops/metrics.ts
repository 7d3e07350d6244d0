import { count, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { NotificationResult } from '../alarms/channels';
import { alarms } from '../db/alarmSchema';
import type { Database } from '../db/client';
import { REJECT_REASONS } from '../ingest/decode';
import type { IngestPipeline } from '../ingest/pipeline';

/** Where the gauges read their values at scrape time: the running parts of one Roost. */
export interface MetricSources {
  database: Database;
  ingest: IngestPipeline;
  /** Clients of the embedded broker; null with an external broker or none. */
  mqttClients: (() => number) | null;
  /** The MQTT side as /api/health reports it. */
  mqttState: () => 'ok' | 'off' | 'down';
  log: FastifyBaseLogger;
}

export type NotificationChannel = 'sms' | 'voice';

/** Batch sizes as the pipeline makes them: one reading when idle, up to 2,000 under load. */
const BATCH_SIZE_BUCKETS = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2000];
/** Seconds one batch's transaction takes: milliseconds when idle, seconds when overloaded. */
const WRITE_SECONDS_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Roost's Prometheus metrics: one registry per process (per `startRoost`), never prom-client's
 * global one, so two servers in one test process count apart. Counters that the pipeline
 * already keeps are read at scrape time; the histograms hear each batch as it is written.
 */
export class RoostMetrics {
  readonly registry = new Registry();
  private readonly notifications: Counter<'channel' | 'result'>;
  /** The live hub attaches to the HTTP server the app makes, so it comes after the app. */
  private liveSockets: () => number = () => 0;

  constructor(sources: MetricSources) {
    const register = [this.registry];
    // The standard process_* and nodejs_* series, under their usual names.
    collectDefaultMetrics({ register: this.registry });
    const { ingest } = sources;
    const counters = ingest.counters;

    fromCount(
      register,
      'roost_readings_accepted_total',
      'Readings that passed every check.',
      () => counters.accepted,
    );
    fromCount(
      register,
      'roost_readings_stored_total',
      'Readings written to the database.',
      () => counters.stored,
    );
    fromCount(
      register,
      'roost_readings_duplicate_total',
      'Readings already stored (a resend), not stored again.',
      () => counters.duplicates,
    );
    new Counter({
      name: 'roost_readings_refused_total',
      help: 'Gateway messages refused, by reason.',
      labelNames: ['reason'],
      registers: register,
      collect() {
        this.reset();
        for (const reason of REJECT_REASONS) this.inc({ reason }, counters.rejected[reason]);
      },
    });

    const batchSize = new Histogram({
      name: 'roost_ingest_batch_size',
      help: 'Readings per batch written in one transaction.',
      buckets: BATCH_SIZE_BUCKETS,
      registers: register,
    });
    const writeSeconds = new Histogram({
      name: 'roost_ingest_write_seconds',
      help: 'Seconds one batch took to write and commit.',
      buckets: WRITE_SECONDS_BUCKETS,
      registers: register,
    });
    const failedBatches = new Counter({
      name: 'roost_ingest_batches_failed_total',
      help: 'Batches whose transaction failed (none of their readings acknowledged).',
      registers: register,
    });
    counters.onBatch = (size, seconds, committed) => {
      if (!committed) {
        failedBatches.inc();
        return;
      }
      batchSize.observe(size);
      writeSeconds.observe(seconds);
    };

    new Gauge({
      name: 'roost_ingest_queue_depth',
      help: 'Readings waiting for the next batch.',
      registers: register,
      collect() {
        this.set(ingest.queueDepth());
      },
    });
    const sockets = () => this.liveSockets();
    new Gauge({
      name: 'roost_live_sockets',
      help: 'Browsers connected to this process over Socket.IO.',
      registers: register,
      collect() {
        this.set(sockets());
      },
    });
    const mqttClients = sources.mqttClients;
    if (mqttClients) {
      new Gauge({
        name: 'roost_mqtt_clients',
        help: 'Clients (gateways) connected to the embedded MQTT broker.',
        registers: register,
        collect() {
          this.set(mqttClients());
        },
      });
    }
    new Gauge({
      name: 'roost_mqtt_up',
      help: '1 when the MQTT side works (embedded broker, or the link to the external one).',
      registers: register,
      collect() {
        this.set(sources.mqttState() === 'down' ? 0 : 1);
      },
    });
    const log = sources.log;
    new Gauge({
      name: 'roost_alarms_open',
      help: 'Alarms not cleared, by state (read from the database at scrape time).',
      labelNames: ['state'],
      registers: register,
      async collect() {
        this.reset();
        try {
          // The partial index of open alarms answers this without reading cleared ones: the
          // condition is its predicate word for word (a bound parameter would not match it).
          const rows = await sources.database.db
            .select({ state: alarms.state, n: count() })
            .from(alarms)
            .where(sql`${alarms.state} <> 'cleared'`)
            .groupBy(alarms.state);
          this.set({ state: 'active' }, 0);
          this.set({ state: 'acknowledged' }, 0);
          for (const row of rows) this.set({ state: row.state }, row.n);
        } catch (error) {
          // A scrape still answers with everything else; the series is absent this time.
          log.warn({ err: (error as Error).message }, 'metrics: open alarms not read');
        }
      },
    });
    this.notifications = new Counter({
      name: 'roost_alarm_notifications_total',
      help: 'Alarm notifications by channel and result after retries: sent (a provider or the webhook took it), failed, no_provider (reached nobody).',
      labelNames: ['channel', 'result'],
      registers: register,
    });
    for (const channel of ['sms', 'voice'] as const)
      for (const result of ['sent', 'failed', 'no_provider'] as const)
        this.notifications.inc({ channel, result }, 0);
  }

  /** Counts the live hub's sockets from now on. */
  watchLive(count: () => number): void {
    this.liveSockets = count;
  }

  /** The alarm dispatcher tells each notification's outcome (server/alarms/wiring.ts). */
  notification(channel: NotificationChannel, result: NotificationResult): void {
    this.notifications.inc({ channel, result });
  }

  /** The text exposition format (what `/metrics` answers). */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** A counter whose value is a count kept elsewhere, read at scrape time. */
function fromCount(registers: Registry[], name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers,
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}
