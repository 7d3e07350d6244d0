import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../helpers/databases';
import { bodyOf, createTestApp, type TestApp } from '../helpers/testApp';
import pg from 'pg';

describe.each(testDatabaseTargets())('health tells the truth about writes on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  }, 180_000);
  afterAll(() => t?.close());

  /**
   * Makes the database refuse every write while reads go on, as a full disk or a database
   * switched to read-only does; `false` undoes it.
   */
  const readOnly = async (on: boolean) => {
    const value = on ? 'on' : 'off';
    if (target.name === 'pglite') {
      // PGlite is one connection: the setting holds for everything the server does.
      await t.database.query(`set default_transaction_read_only = ${value}`);
      return;
    }
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const [row] = await t.database.query<{ name: string }>('select current_database() as name');
      await admin.query(`alter database ${row!.name} set default_transaction_read_only = ${value}`);
      // The server's open connections take the setting when they connect again.
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [row!.name],
      );
    } finally {
      await admin.end();
    }
  };
  const health = async () => {
    // The first call after the connections were ended may meet a dead one: ask twice.
    let res = await t.app.inject({ method: 'GET', url: '/api/health' });
    if (res.statusCode !== 200) res = await t.app.inject({ method: 'GET', url: '/api/health' });
    return res;
  };

  it('answers 503 with the reason while writes fail, and ok once they work again', async () => {
    expect((await health()).statusCode).toBe(200);
    await readOnly(true);
    try {
      const down = await health();
      expect(down.statusCode).toBe(503);
      expect(bodyOf<{ db: string; write: string; reason: string }>(down).data).toMatchObject({
        write: 'down',
        reason: expect.stringMatching(/read-only/),
      });
    } finally {
      await readOnly(false);
    }
    const up = await health();
    expect(up.statusCode).toBe(200);
    expect(bodyOf(up).data).toEqual({ db: 'ok', mqtt: 'off', live: 'ok' });
  });
});
