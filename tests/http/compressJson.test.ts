import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedEncoding, COMPRESS_FROM_CHARS } from '../../server/http/compressJson';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';

const [pglite] = testDatabaseTargets();

describe('large JSON answers', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(pglite!);
    token = await t.signIn('admin');
  }, 180_000);
  afterAll(() => t?.close());

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      url,
      headers: {
        authorization: `Bearer ${token}`,
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
      },
    });

  it('go out as Brotli or gzip when the browser takes them, with the same JSON inside', async () => {
    const url = '/api/overview/listOverview/';
    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    // The demo's 42 houses: large enough to be worth it.
    expect(plain.body.length).toBeGreaterThan(COMPRESS_FROM_CHARS);
    const rows = (JSON.parse(plain.body) as { data: { total: number } }).data.total;
    expect(rows).toBe(42);

    const br = await get(url, 'gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(
      JSON.parse(plain.body),
    );

    const gz = await get(url, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(JSON.parse(plain.body));

    const refused = await get(url, 'br;q=0, identity');
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(plain.body);
  });

  it('leave small answers as they are', async () => {
    const res = await get('/api/user/getCurrent', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toMatchObject({ success: true });
  });
});

describe('the accepted encoding', () => {
  it('prefers Brotli, then gzip, and honours q=0', () => {
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br');
    expect(acceptedEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(acceptedEncoding(['deflate', 'GZIP'])).toBe('gzip');
    expect(acceptedEncoding('identity')).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
  });
});
