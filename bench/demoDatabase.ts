import { bootstrap } from '../server/bootstrap';
import { readConfig } from '../server/config';
import type { Database } from '../server/db/client';
import { openDatabase } from '../server/db/open';
import type { TestDatabaseTarget } from '../tests/helpers/databases';

/**
 * A new database of the target's kind with the demo's farms and houses but no history, given to
 * `use`, then closed and dropped: where the benches that query the database directly start.
 */
export async function withDemoDatabase<T>(
  target: TestDatabaseTarget,
  use: (database: Database) => Promise<T>,
): Promise<T> {
  const created = await target.create();
  const database = await openDatabase(created.target);
  try {
    await bootstrap(
      readConfig({ DATA_DIR: 'memory://', ROOST_DEMO: '1', ROOST_DEMO_HISTORY: 'off' }),
      database,
    );
    return await use(database);
  } finally {
    await database.close();
    await created.drop();
  }
}
