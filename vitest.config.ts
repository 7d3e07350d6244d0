import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The JSON report lets .ci/run print one closing 'N passed, N failed' line for both suites.
    reporters: ['default', 'json'],
    outputFile: { json: '.tmp/vitest-unit.json' },
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    // Server tests each open their own database and broker; two cores, so keep concurrency low.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A migrated empty PGlite made once per run: each test's `memory://` database starts as a
    // copy of it instead of running initdb and the migrations (most of a test server's start).
    globalSetup: ['tests/setup/databaseTemplates.ts'],
    setupFiles: ['tests/setup/failOnConsoleError.ts', 'tests/setup/startFromTemplates.ts'],
  },
});
