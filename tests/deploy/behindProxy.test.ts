import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { io } from 'socket.io-client';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../server/demo/demoFarms';
import { testDatabaseTargets } from '../helpers/databases';
import { startTestRoost, type TestRoost } from '../helpers/testRoost';
import { startKitNginx, type KitNginx } from './kitNginx';

/**
 * Behind the kit's nginx, Roost counts sign-in failures by the browser's address (the one
 * nginx adds to X-Forwarded-For, believed because nginx is a trusted proxy), and a forged
 * X-Forwarded-For, sent by a browser through nginx or straight to Roost, changes nothing.
 * Browsers are told apart by the loopback address they connect from (127.0.0.2, .3, …).
 */
describe.each(testDatabaseTargets().slice(0, 1))('sign-in behind nginx, $name', (target) => {
  let t: TestRoost;
  let nginx: KitNginx;
  let dist: string;

  /** POST /api/login from `from`, through nginx (https) or straight to Roost: the status. */
  const signIn = (
    from: string,
    way: 'nginx' | 'direct',
    password: string,
    forwardedFor?: string,
  ): Promise<number> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ username: 'farm', password });
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      };
      if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
      const options = {
        method: 'POST',
        host: '127.0.0.1',
        path: '/api/login',
        localAddress: from,
        headers,
      };
      const req =
        way === 'nginx'
          ? httpsRequest({
              ...options,
              port: nginx.httpsPort,
              ca: nginx.cert,
              servername: 'localhost',
            })
          : httpRequest({ ...options, port: t.roost.port });
      req.once('response', (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      });
      req.once('error', reject);
      req.end(body);
    });
  const failFiveTimes = async (from: string, way: 'nginx' | 'direct', forged?: () => string) => {
    for (let i = 0; i < 5; i += 1)
      expect(await signIn(from, way, 'wrong-password', forged?.())).toBe(401);
  };

  beforeAll(async () => {
    t = await startTestRoost(target, { trustedProxies: ['127.0.0.1'] });
    dist = mkdtempSync(path.join(tmpdir(), 'roost-dist-'));
    // A fingerprinted asset as the build writes it, with its pre-compressed copy beside it.
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets/index-abc123.js'), 'console.log("plain");');
    writeFileSync(path.join(dist, 'assets/index-abc123.js.gz'), gzipSync('console.log("gz");'));
    const upstream = `127.0.0.1:${t.roost.port}`;
    nginx = await startKitNginx([upstream, upstream], dist);
  }, 180_000);
  afterAll(async () => {
    await nginx?.stop();
    await t?.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  it("counts the browser's address, not nginx's", async () => {
    await failFiveTimes('127.0.0.2', 'nginx');
    expect(await signIn('127.0.0.2', 'nginx', DEMO_PASSWORD)).toBe(429);
    // Another browser, through the same nginx, signs in: nginx's own address is not locked.
    expect(await signIn('127.0.0.3', 'nginx', DEMO_PASSWORD)).toBe(200);
  });

  it('ignores an X-Forwarded-For a browser forged through nginx', async () => {
    // The locked-out browser claims to be the one that may still sign in.
    expect(await signIn('127.0.0.2', 'nginx', DEMO_PASSWORD, '127.0.0.3')).toBe(429);
    // A new address each try does not spread the failures either.
    let n = 10;
    await failFiveTimes('127.0.0.4', 'nginx', () => `10.9.9.${(n += 1)}`);
    expect(await signIn('127.0.0.4', 'nginx', DEMO_PASSWORD, '10.9.9.99')).toBe(429);
  });

  it('ignores X-Forwarded-For from an address that is no trusted proxy', async () => {
    let n = 10;
    await failFiveTimes('127.0.0.5', 'direct', () => `10.8.8.${(n += 1)}`);
    expect(await signIn('127.0.0.5', 'direct', DEMO_PASSWORD, '10.8.8.99')).toBe(429);
    expect(await signIn('127.0.0.5', 'direct', DEMO_PASSWORD)).toBe(429);
  });

  it('carries the live updates over a WebSocket through nginx', async () => {
    const token = await t.signIn('farm');
    const socket = io(`https://localhost:${nginx.httpsPort}`, {
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      ca: nginx.cert,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      expect(socket.connected).toBe(true);
    } finally {
      socket.disconnect();
    }
  });

  it('serves a fingerprinted asset from disk, cached for good, its .gz as it is', async () => {
    const res = await new Promise<{
      status: number;
      headers: Record<string, unknown>;
      body: Buffer;
    }>((resolve, reject) => {
      const req = httpsRequest({
        host: '127.0.0.1',
        port: nginx.httpsPort,
        path: '/assets/index-abc123.js',
        ca: nginx.cert,
        servername: 'localhost',
        headers: { 'accept-encoding': 'gzip' },
      });
      req.once('response', (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.once('end', () =>
          resolve({ status: r.statusCode ?? 0, headers: r.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.once('error', reject);
      req.end();
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.equals(gzipSync('console.log("gz");'))).toBe(true);
  });
});
