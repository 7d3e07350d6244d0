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

/** A gateway of the demo with its house and farm: what a test's readings are made for. */
export interface DemoHouse {
  gatewayId: number;
  houseId: number;
  farmId: number;
}

/** The demo's first gateway (lowest id), its house and farm. */
export async function firstDemoHouse(database: Database): Promise<DemoHouse> {
  const [row] = await database.query<{ id: number; house_id: number; farm_id: number }>(
    `select g.id, g.house_id, h.farm_id from gateways g join houses h on h.id = g.house_id
     order by g.id limit 1`,
  );
  if (!row) throw new Error('the demo has no gateway');
  return { gatewayId: row.id, houseId: row.house_id, farmId: row.farm_id };
}
