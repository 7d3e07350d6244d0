import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app';
import { bootstrap, type BootstrapResult } from '../../server/bootstrap';
import { readConfig, type Config } from '../../server/config';
import type { Database } from '../../server/db/client';
import { openDatabase } from '../../server/db/open';
import { ServerEvents } from '../../server/events';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import { GatewayDirectory } from '../../server/ingest/gatewayDirectory';
import { IngestPipeline } from '../../server/ingest/pipeline';
import { pino } from 'pino';
import type { TestDatabaseTarget } from './databases';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** What the first start did (the demo's gateways and, with its history, its house models). */
  boot: BootstrapResult;
  /** The app's own ingest path (its bus's listeners hear what it stores). */
  ingest: IngestPipeline;
  /** The app's event bus, for parts a test wires to it (a broker, the command dispatcher). */
  events: ServerEvents;
  /** Runs `cleanup` first when the app closes: what a test started on the app stops before it. */
  onClose(cleanup: () => Promise<void>): void;
  close(): Promise<void>;
  /** Signs in through the API (captcha off) and returns the token. */
  signIn(username: string, password?: string): Promise<string>;
}

/** The real app with demo data on a database of its own, without listening (`inject`). */
export async function createTestApp(
  target: TestDatabaseTarget,
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
): Promise<TestApp> {
  const created = await target.createMigrated();
  const config: Config = {
    ...readConfig({
      DATA_DIR: 'memory://',
      ROOST_DEMO: '1',
      // The demo's past only where a test is about it (env can turn it on): the others count
      // rows and alarms from zero.
      ROOST_DEMO_HISTORY: 'off',
      ROOST_CAPTCHA: 'off',
      // Every answer a test gets has been checked against its route's schema.
      ROOST_CHECK_ANSWERS: 'on',
      MQTT_PORT: '0',
      ...env,
    }),
    ...overrides,
  };
  const database = await openDatabase(created.target);
  const boot = await bootstrap(config, database);
  const log = pino({ level: 'silent' });
  const events = new ServerEvents(log);
  const ingest = new IngestPipeline(database, new GatewayDirectory(database.db), events, log);
  const app = await buildApp(
    {
      config: { ...config, demo: boot.demo },
      database,
      version: 'test',
      mqttState: () => 'off',
      ingest,
      events,
    },
    { logger: false },
  );
  const cleanups: Array<() => Promise<void>> = [];
  return {
    app,
    database,
    config,
    boot,
    ingest,
    events,
    onClose(cleanup) {
      cleanups.push(cleanup);
    },
    async close() {
      for (const cleanup of cleanups.reverse()) await cleanup();
      await app.close();
      await database.close();
      await created.drop();
    },
    async signIn(username, password = DEMO_PASSWORD) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username, password, codeId: '', code: 'x' },
      });
      const body = res.json<{ data: { token: string } | null; msg: string }>();
      if (!body.data) throw new Error(`sign-in as ${username} failed: ${body.msg}`);
      return body.data.token;
    },
  };
}

export function bodyOf<T = unknown>(
  res: LightMyRequestResponse,
): { success: boolean; code: number; msg: string; data: T } {
  return res.json();
}
