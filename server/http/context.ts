import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Session } from '../auth/sessions';
import type { IngestPipeline } from '../ingest/pipeline';
import type { ServerEvents } from '../events';
import type { RoostMetrics } from '../ops/metrics';
import type { DynsecSync } from '../brokerAuth/dynsecSync';
import { LOG_SOURCES, type LogSource } from '../../src/contract/domain';
import type { RoleKey } from '../../src/contract/roles';
import { ApiError } from './errors';

/** What every route plugin gets: read once at start, shared by reference. */
export interface AppContext {
  config: Config;
  database: Database;
  version: string;
  /** State of the MQTT side for /api/health. */
  mqttState: () => 'ok' | 'off' | 'down';
  /** The one ingest path (POST /api/ingest uses it like MQTT does). */
  ingest: IngestPipeline;
  /** The server's event bus: routes tell it what changed (sessions ended, alarm limits). */
  events: ServerEvents;
  /** The process's Prometheus registry, served at /metrics (absent in apps built for tests). */
  metrics?: RoostMetrics;
  /** With an external Mosquitto Roost manages: gateways' accounts there follow every change. */
  brokerAccounts?: DynsecSync;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
  interface FastifyContextConfig {
    /** Routes reachable without a session (sign-in, health, config). */
    public?: boolean;
    /** An operating action: needs the user's operation permission (server/auth/operate.ts). */
    operating?: boolean;
    /** The roles that may call the route (`ANY_ROLE` for every signed-in user); checked before its input is read. */
    roles?: readonly RoleKey[];
  }
}

/** The signed-in session; handlers of non-public routes can rely on it. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw new ApiError(401, 'auth.required');
  return request.session;
}

/** Where a change came from, for the operation log: the console says `Source: computer`. */
export function sourceOf(request: FastifyRequest): LogSource {
  const value = request.headers['source'];
  return typeof value === 'string' && (LOG_SOURCES as readonly string[]).includes(value)
    ? (value as LogSource)
    : 'computer';
}

/** Reads the token from `Authorization: Bearer x` or a bare `Authorization: x` (what the original console's client sends). */
export function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const token = header.startsWith('Bearer ') ? header.slice(7) : header;
  return token.trim() || null;
}
