import { inject } from 'vitest';
import { startMemoryDatabasesFrom } from '../../server/db/memoryTemplate';
import { startPostgresDatabasesFrom } from '../helpers/postgresTemplate';

// This process's databases start from the run's migrated templates
// (tests/setup/databaseTemplates.ts) instead of running initdb and the migrations each. Only
// named here: the database code is loaded by the tests that open a database.
startMemoryDatabasesFrom(inject('memoryDatabaseTemplate'));
startPostgresDatabasesFrom(inject('postgresDatabaseTemplate'));
