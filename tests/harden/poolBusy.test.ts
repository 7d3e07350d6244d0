import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';

const postgres = testDatabaseTargets().filter((t) => t.name === 'postgres');

/**
 * Found by the scale bench: with 18,500 gateways signing in at once every PostgreSQL connection
 * stayed busy past the pool's 5 s wait, and the house overview answered 500. A request that
 * could not get a connection is the server being busy: 503 with Retry-After, in the caller's
 * language, and the next request once a connection is free succeeds.
 */
describe.each(postgres)('a request while every pool connection is busy, on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  }, 180_000);
  afterAll(() => t?.close());

  it('answers 503 "busy" with Retry-After in en and zh, then works again', async () => {
    const token = await t.signIn('admin');
    // The pool holds 10 connections: all of them sleep for longer than its 5 s wait.
    const held = Promise.all(
      Array.from({ length: 10 }, () => t.database.query('select pg_sleep(7)')),
    );
    await new Promise((r) => setTimeout(r, 200));
    const [en, zh] = await Promise.all(
      (['en', 'zh'] as const).map((locale) =>
        t.app.inject({
          url: '/api/overview/listOverview/',
          headers: { authorization: token, locale },
        }),
      ),
    );
    for (const res of [en!, zh!]) {
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
    }
    expect(JSON.parse(en!.body).msg).toBe('The server is busy. Please try again in a few seconds.');
    expect(JSON.parse(zh!.body).msg).toBe('服务器繁忙，请几秒后重试。');
    await held;
    const after = await t.app.inject({
      url: '/api/overview/listOverview/',
      headers: { authorization: token },
    });
    expect(after.statusCode).toBe(200);
  }, 60_000);
});
