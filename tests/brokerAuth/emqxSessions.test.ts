import { createServer, type IncomingMessage, type Server } from 'node:http';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmqxSessions } from '../../server/brokerAuth/emqxSessions';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';

const KEY = 'roost-api-key';
const SECRET = 'roost-api-secret-0123456789';

/**
 * A loopback stand-in for EMQX's REST API (v5), as its documentation gives it: an API key in
 * HTTP basic, `GET /api/v5/clients?username=` listing a user's sessions, `DELETE
 * /api/v5/clients/{clientid}` kicking one (204, or 404 when it is gone).
 */
function standIn(sessions: Map<string, string>) {
  const seen: Array<{ method: string; url: string; authorization: string | undefined }> = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization });
    const expected = `Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'BAD_API_KEY_OR_SECRET' }));
      return;
    }
    const url = new URL(req.url!, 'http://x');
    if (req.method === 'GET' && url.pathname === '/api/v5/clients') {
      const username = url.searchParams.get('username');
      const data = [...sessions]
        .filter(([, user]) => user === username)
        .map(([clientid, user]) => ({ clientid, username: user, connected: true }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data, meta: { count: data.length, limit: 1000, page: 1 } }));
      return;
    }
    const kick = /^\/api\/v5\/clients\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'DELETE' && kick) {
      const id = decodeURIComponent(kick[1]!);
      // A ghost is listed but gone by the time it is kicked.
      res.writeHead(!id.startsWith('ghost') && sessions.delete(id) ? 204 : 404);
      res.end();
      return;
    }
    res.writeHead(404);
    res.end();
  });
  return { server, seen };
}

describe.each(testDatabaseTargets().slice(0, 1))(
  'EMQX sessions of revoked gateways, $name',
  (target) => {
    const sessions = new Map<string, string>();
    const { server, seen } = standIn(sessions);
    let base: string;
    let t: TestRoost;

    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      const address = server.address();
      base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      t = await startTestRoost(target, {
        brokerAuth: {
          dynsec: null,
          emqxSecret: null,
          emqxApi: { url: base, key: KEY, secret: SECRET },
        },
      });
    }, 120_000);
    afterAll(async () => {
      await t?.stop();
      await new Promise((r) => server.close(r));
    });

    it("kicks every session of a gateway whose token the console rotated, and no one else's", async () => {
      const { networkId, gatewayId } = await t.gatewayOf(
        'Weifang Broiler Farm',
        'House 1',
        'tok-1',
      );
      sessions.set('gw-a', networkId);
      sessions.set('gw a/b', networkId);
      sessions.set('someone-else', 'roost');
      seen.length = 0;
      const admin = await t.signIn('admin');
      const res = await fetch(`${t.url}/api/gateway/rotateToken`, {
        method: 'PUT',
        headers: { authorization: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ id: gatewayId }),
      });
      expect(res.status).toBe(200);
      // The console's answer came after EMQX was told.
      expect([...sessions.keys()]).toEqual(['someone-else']);
      const basic = `Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')}`;
      expect(seen).toEqual([
        {
          method: 'GET',
          url: `/api/v5/clients?username=${encodeURIComponent(networkId)}&limit=1000`,
          authorization: basic,
        },
        { method: 'DELETE', url: '/api/v5/clients/gw-a', authorization: basic },
        { method: 'DELETE', url: '/api/v5/clients/gw%20a%2Fb', authorization: basic },
      ]);
    });

    it('takes a session gone meanwhile (404) as ended, and reports a refused API key', async () => {
      const log = pino({ level: 'silent' });
      const sessionsApi = new EmqxSessions({ url: base, key: KEY, secret: SECRET }, log);
      sessions.set('racing', 'gw-9');
      // Listed, then gone before the kick: the stand-in answers 404.
      const ended = await sessionsApi.cut('gw-9');
      expect(ended).toEqual(['racing']);
      expect(await sessionsApi.cut('gw-9')).toEqual([]);
      const wrong = new EmqxSessions({ url: base, key: KEY, secret: 'not-the-secret' }, log);
      await expect(wrong.cut('gw-9')).rejects.toThrow(/EMQX answered 401/);
    });
  },
);
