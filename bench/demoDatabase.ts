import type { Database } from '../server/db/client';
import type { TestDatabaseTarget } from '../tests/helpers/databases';
import { openDemoDatabase } from '../tests/helpers/demoDatabase';

/** A new demo database without history (openDemoDatabase) given to `use`, then dropped. */
export async function withDemoDatabase<T>(
  target: TestDatabaseTarget,
  use: (database: Database) => Promise<T>,
): Promise<T> {
  const { database, close } = await openDemoDatabase(target);
  try {
    return await use(database);
  } finally {
    await close();
  }
}
