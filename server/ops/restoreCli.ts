import { parseArgs } from 'node:util';
import { OpsError } from './backup';
import { restoreBackup } from './restore';

const USAGE = 'usage: npm run restore -- --from FILE --data-dir DIR';

/** `npm run restore -- --from FILE --data-dir DIR`: a backup into a new, empty DATA_DIR. */
async function main(): Promise<void> {
  try {
    let values: { from?: string; 'data-dir'?: string };
    try {
      ({ values } = parseArgs({
        args: process.argv.slice(2),
        strict: true,
        allowPositionals: false,
        options: { from: { type: 'string' }, 'data-dir': { type: 'string' } },
      }));
    } catch (error) {
      throw new OpsError(`${(error as Error).message.split('\n')[0]}\n${USAGE}`);
    }
    if (!values.from || !values['data-dir'])
      throw new OpsError(`--from and --data-dir are required.\n${USAGE}`);
    const result = await restoreBackup(values.from, values['data-dir']);
    const what = result.database
      ? `${result.database.users} users, ${result.database.alarms} alarms, ${result.database.telemetryHours} house-hours of readings`
      : 'no database (the server used PostgreSQL: restore it with pg_restore)';
    console.log(
      `Restored into ${result.dataDir}: ${what}; ${result.files.length} files of DATA_DIR (${result.files.join(', ') || 'none'}).`,
    );
    if (result.databaseOnly)
      console.log(
        'This backup was made by an older Roost and holds the database only: upgrade files and the camera key are not in it.',
      );
    console.log(`Start it with DATA_DIR=${result.dataDir} npm start.`);
  } catch (error) {
    console.error(`restore: ${error instanceof OpsError ? error.message : String(error)}`);
    process.exit(1);
  }
}

void main();
