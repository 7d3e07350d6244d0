import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { startMemoryDatabasesFrom } from '../../server/db/open';
import { startPostgresDatabasesFrom } from '../helpers/databases';

// This process's databases start from the run's migrated templates
// (tests/setup/databaseTemplates.ts) instead of running initdb and the migrations each.
startMemoryDatabasesFrom(readFileSync(inject('memoryDatabaseTemplate')));
startPostgresDatabasesFrom(inject('postgresDatabaseTemplate'));
