import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import { precompress } from '../../scripts/precompress';

const [pglite] = testDatabaseTargets();
/** A script large and repetitive enough to be worth compressing, as a real bundle is. */
const BIG_SCRIPT = Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i};`).join(
  '\n',
);

describe('serving the console and the health checks', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'roost-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Roost console</title>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dist, 'assets', 'big-def456.js'), BIG_SCRIPT);
    await precompress(dist);
    t = await createTestApp(pglite!, {}, { staticDir: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('gives index.html for any console path (history routing) with a CSP and no caching', async () => {
    for (const url of ['/', '/login', '/shack/status/overview', '/system/user?x=1']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>Roost console</title>');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves fingerprinted assets for a year and never sniffs types', async () => {
    const res = await t.app.inject({ url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends the smallest copy of an asset the browser accepts, and the same bytes unpacked', async () => {
    const url = '/assets/big-def456.js';
    const br = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.rawPayload.length).toBeLessThan(BIG_SCRIPT.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_SCRIPT);
    const gz = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_SCRIPT);
    const plain = await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_SCRIPT);
  });

  it('answers health, version and config without a session', async () => {
    const health = await t.app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(bodyOf(health).data).toEqual({ db: 'ok', mqtt: 'off', live: 'ok' });
    const version = await t.app.inject({ url: '/api/version' });
    expect(bodyOf(version).data).toEqual({ version: 'test' });
    const config = await t.app.inject({ url: '/api/config' });
    expect(bodyOf(config).data).toEqual({
      edition: 'default',
      alarmScreen: true,
      version: 'test',
      demo: true,
    });
  });

  it('refuses a JSON body over 1 MiB with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'x'.repeat(1024 * 1024 + 10), password: 'Roost12345' }),
    });
    expect(res.statusCode).toBe(413);
    expect(bodyOf(res).code).toBe(413);
  });
});
