import { type z } from 'zod';
import { type Locale } from '../contract/envelope';
import { ApiError } from './errors';

/** Every call gives up after 10 s. */
export const REQUEST_TIMEOUT_MS = 10_000;
export const API_BASE = '/api';

/** Console texts the client needs; the host translates them. */
export type ApiText = 'network' | 'timeout' | 'badAnswer' | 'loginFailed';

/** What the client needs from the rest of the console; injected so it stays testable. */
export interface ApiHost {
  /** The stored token, sent as `Authorization: Bearer <token>`. */
  token(): string | undefined;
  /** The current language, sent as `Locale`. */
  locale(): Locale;
  text(key: ApiText): string;
  /** Shows an error toast for 5 s. */
  showError(message: string): void;
  /** Whether the console is on /login, where a 401 is a sign-in failure, not a lost session. */
  onLoginPage(): boolean;
  /** A 401 outside /login: sign out locally and reload. */
  signedOut(message: string): void;
  /** Counts requests in flight, for the progress bar. */
  requestStarted(): void;
  requestEnded(): void;
  fetch?: typeof fetch;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions<T> {
  query?: Query;
  body?: unknown;
  /** Validates `data` of a successful answer. */
  schema?: z.ZodType<T>;
  /**
   * A hand check of the answer's common shape, tried before `schema` (src/contract/plain*.ts):
   * it answers the data when the schema would accept it unchanged, else null.
   */
  plain?: (data: unknown) => T | null;
  /**
   * Handles a failure without the toast: return true when the failure is expected and the
   * caller deals with it (a missing optional endpoint, a logout of a dead session).
   */
  quiet?: (error: ApiError) => boolean;
  /**
   * A refresh the person did not ask for (the wall's polls): the progress bar does not show it.
   * A storm on the wall refreshes every second, and the bar's every start and end rendered the
   * console's root again (bench/wall.ts).
   */
  background?: boolean;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface Envelope {
  success?: unknown;
  code?: unknown;
  msg?: unknown;
  data?: unknown;
}

/** The HTTP client: base /api, credentials, 10 s timeout, token and language headers. */
export class ApiClient {
  constructor(private readonly host: ApiHost) {}

  /** The session's headers, for requests a library makes itself (a video player's). */
  authHeaders(): Record<string, string> {
    const token = this.host.token();
    return token ? { Authorization: `Bearer ${token}`, Locale: this.host.locale() } : {};
  }

  get<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    return this.request('GET', path, options);
  }
  post<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    return this.request('POST', path, options);
  }
  put<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    return this.request('PUT', path, options);
  }
  delete<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    return this.request('DELETE', path, options);
  }

  async request<T>(method: Method, path: string, options: RequestOptions<T>): Promise<T> {
    if (!options.background) this.host.requestStarted();
    const token = this.host.token();
    try {
      const envelope = await this.send(method, path, options, token);
      return this.unwrap(envelope, options);
    } catch (error) {
      throw this.fail(error, options, token);
    } finally {
      if (!options.background) this.host.requestEnded();
    }
  }

  private async send(
    method: Method,
    path: string,
    options: RequestOptions<unknown>,
    token: string | undefined,
  ): Promise<Envelope> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Locale: this.host.locale(),
      Source: 'computer',
    };
    if (token) headers['Authorization'] = `Bearer ${token}`;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    let status: number;
    let ok: boolean;
    let body: string;
    try {
      const response = await (this.host.fetch ?? globalThis.fetch)(urlOf(path, options.query), {
        method,
        headers,
        credentials: 'include',
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: controller.signal,
      });
      ({ status, ok } = response);
      // The body is part of the answer: a body cut off (the page navigated away, the connection
      // dropped, the time ran out) is a failure to reach the server, not an unusable answer,
      // which would end the session at sign-in.
      body = await response.text();
    } catch {
      const kind = controller.signal.aborted ? 'timeout' : 'network';
      throw new ApiError(this.host.text(kind), kind, null, false);
    } finally {
      clearTimeout(timer);
    }
    return this.envelopeOf(status, ok, body);
  }

  /** Reads the envelope; the HTTP status and the body code must both say 200. */
  private envelopeOf(status: number, ok: boolean, body: string): Envelope {
    let envelope: Envelope | null = null;
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed !== null && typeof parsed === 'object') envelope = parsed as Envelope;
    } catch {
      envelope = null;
    }
    const code = typeof envelope?.code === 'number' ? envelope.code : status;
    const msg = typeof envelope?.msg === 'string' && envelope.msg !== '' ? envelope.msg : null;
    if (status === 401 || code === 401) {
      throw new ApiError(msg ?? this.host.text('loginFailed'), 'unauthorized', 401, false);
    }
    if (!ok) {
      throw new ApiError(
        msg ?? `${this.host.text('network')} (HTTP ${status})`,
        'http',
        status,
        false,
      );
    }
    if (envelope === null)
      throw new ApiError(this.host.text('badAnswer'), 'badAnswer', status, false);
    if (envelope.success !== true || code !== 200) {
      throw new ApiError(msg ?? this.host.text('badAnswer'), 'http', code, false);
    }
    return envelope;
  }

  private unwrap<T>(envelope: Envelope, options: RequestOptions<T>): T {
    if (!options.schema) return envelope.data as T;
    const plain = options.plain?.(envelope.data);
    if (plain) return plain;
    const result = options.schema.safeParse(envelope.data);
    if (!result.success) throw new ApiError(this.host.text('badAnswer'), 'badAnswer', 200, false);
    return result.data;
  }

  /** Toast every failure for 5 s; a 401 outside /login ends the local session. */
  private fail(
    error: unknown,
    options: RequestOptions<unknown>,
    token: string | undefined,
  ): ApiError {
    let failure =
      error instanceof ApiError
        ? error
        : new ApiError(this.host.text('network'), 'network', null, false);
    if (options.quiet?.(failure)) return failure;
    // The session the call was made for ended while it was on its way (signed out, or another
    // user signed in): its failure, typically a 401 for the revoked token, concerns nobody now.
    if (token !== undefined && this.host.token() !== token)
      return new ApiError(failure.message, failure.kind, failure.status, true);
    if (failure.kind === 'unauthorized' && !this.host.onLoginPage()) {
      failure = new ApiError(this.host.text('loginFailed'), 'unauthorized', 401, true);
      this.host.signedOut(failure.message);
      return failure;
    }
    this.host.showError(failure.message);
    return new ApiError(failure.message, failure.kind, failure.status, true);
  }
}

function urlOf(path: string, query: Query | undefined): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}
