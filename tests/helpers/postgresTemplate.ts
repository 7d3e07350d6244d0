/**
 * For tests only: createMigrated() on PostgreSQL (tests/helpers/databases.ts) copies `template`,
 * a database of this run with every migration applied, instead of creating an empty one. Apart
 * from databases.ts, which loads pg and the server's database code, so that the setup every test
 * process runs (tests/setup/startFromTemplates.ts) loads neither.
 */
export function startPostgresDatabasesFrom(template: string | undefined): void {
  postgresTemplate = template;
}

let postgresTemplate: string | undefined;

/** The migrated template named for this process, if any. */
export function postgresDatabaseTemplate(): string | undefined {
  return postgresTemplate;
}
