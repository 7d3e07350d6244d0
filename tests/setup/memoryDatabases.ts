import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { startMemoryDatabasesFrom } from '../../server/db/open';

// This process's `memory://` databases start from the run's migrated template
// (tests/setup/memoryDatabaseTemplate.ts) instead of running initdb and the migrations each.
startMemoryDatabasesFrom(readFileSync(inject('memoryDatabaseTemplate')));
