import type { FastifyBaseLogger } from 'fastify';
import type { EmqxApiConfig } from './config';

/** An EMQX that does not answer in this long is left; the revocation itself already holds. */
const REQUEST_TIMEOUT_MS = 5_000;

/**
 * Ends a revoked gateway's open sessions at EMQX through its REST API (v5): EMQX asks Roost
 * only when a client connects, so a session signed in with a rotated or deleted token would
 * otherwise go on publishing. The gateway's client ids are looked up by user name (its network
 * id), since a gateway chooses its own client id, then each is kicked:
 * `GET /api/v5/clients?username=…`, `DELETE /api/v5/clients/{clientid}`, signed in with an
 * API key (HTTP basic: key and secret), as EMQX documents.
 */
export class EmqxSessions {
  private readonly authorization: string;

  constructor(
    private readonly api: EmqxApiConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    this.authorization = `Basic ${Buffer.from(`${api.key}:${api.secret}`).toString('base64')}`;
  }

  /** Kicks every session of the gateway; answers the client ids EMQX ended. */
  async cut(networkId: string): Promise<string[]> {
    const listed = await this.request(
      'GET',
      `/api/v5/clients?username=${encodeURIComponent(networkId)}&limit=1000`,
    );
    if (!listed.ok) throw new Error(`EMQX answered ${listed.status} to the client list`);
    const body = (await listed.json()) as { data?: Array<{ clientid?: unknown }> };
    const ids = (body.data ?? [])
      .map((c) => c.clientid)
      .filter((id): id is string => typeof id === 'string');
    const ended: string[] = [];
    for (const id of ids) {
      const res = await this.request('DELETE', `/api/v5/clients/${encodeURIComponent(id)}`);
      await res.body?.cancel();
      // 404: the session ended meanwhile, which is what was asked.
      if (res.ok) ended.push(id);
      else if (res.status !== 404) throw new Error(`EMQX answered ${res.status} to kicking ${id}`);
    }
    return ended;
  }

  /** `cut` for the event bus: a failure is logged, never thrown at the console's request. */
  async revoked(networkId: string): Promise<void> {
    try {
      await this.cut(networkId);
    } catch (error) {
      this.log.error(
        { err: error, networkId },
        "EMQX did not end a revoked gateway's session: kick it in EMQX's dashboard",
      );
    }
  }

  private request(method: string, path: string): Promise<Response> {
    return fetch(`${this.api.url}${path}`, {
      method,
      headers: { authorization: this.authorization, accept: 'application/json' },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  }
}
