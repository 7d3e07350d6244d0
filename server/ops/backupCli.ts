import { parseArgs } from 'node:util';
import { OpsError, requestBackup } from './backup';

const USAGE = 'usage: npm run backup -- --out FILE [--url http://127.0.0.1:8080]';

/**
 * `npm run backup -- --out FILE`: asks the running server for a backup of everything it keeps
 * (its embedded database and the files of its DATA_DIR). The token is ROOST_BACKUP_TOKEN, as
 * the server was started with; the server is at --url, else ROOST_URL, else
 * http://127.0.0.1:$PORT (8080).
 */
async function main(): Promise<void> {
  try {
    let values: { out?: string; url?: string };
    try {
      ({ values } = parseArgs({
        args: process.argv.slice(2),
        strict: true,
        allowPositionals: false,
        options: { out: { type: 'string' }, url: { type: 'string' } },
      }));
    } catch (error) {
      throw new OpsError(`${(error as Error).message.split('\n')[0]}\n${USAGE}`);
    }
    if (!values.out) throw new OpsError(`--out is required.\n${USAGE}`);
    const token = process.env.ROOST_BACKUP_TOKEN?.trim();
    if (!token)
      throw new OpsError('Set ROOST_BACKUP_TOKEN to the token the server was started with.');
    const url =
      values.url ?? process.env.ROOST_URL ?? `http://127.0.0.1:${process.env.PORT || 8080}`;
    const started = Date.now();
    const result = await requestBackup({ url, token, out: values.out });
    console.log(
      `Backup written to ${result.file} (${(result.bytes / 1024 / 1024).toFixed(1)} MiB, asked at ${result.requestedAt}, ${((Date.now() - started) / 1000).toFixed(1)} s).`,
    );
    if (result.database === 'none')
      console.log(
        'It holds the files of DATA_DIR only: the server uses PostgreSQL, back its database up with pg_dump (README, "Backups").',
      );
  } catch (error) {
    console.error(`backup: ${error instanceof OpsError ? error.message : String(error)}`);
    process.exit(1);
  }
}

void main();
