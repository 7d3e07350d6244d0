import { bootstrap } from '../../server/bootstrap';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import { openTestDatabase, type TestDatabaseTarget } from './databases';

/**
 * A database of the run's own (openTestDatabase) with the demo's farms, houses and gateways but
 * no history: where the tests and benches that query the database directly start.
 */
export async function openDemoDatabase(
  target: TestDatabaseTarget,
): Promise<{ database: Database; close(): Promise<void> }> {
  const opened = await openTestDatabase(target);
  try {
    await bootstrap(
      readConfig({ DATA_DIR: 'memory://', ROOST_DEMO: '1', ROOST_DEMO_HISTORY: 'off' }),
      opened.database,
    );
  } catch (error) {
    await opened.close();
    throw error;
  }
  return opened;
}
