import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The JSON report lets .ci/run print one closing 'N passed, N failed' line for both suites.
    reporters: ['default', 'json'],
    outputFile: { json: '.tmp/vitest-e2e.json' },
    include: ['tests/e2e/**/*.test.ts'],
    // One real server and one Chromium per file; files run one after another to keep the
    // 2-core machine responsive enough for timing-sensitive UI assertions.
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 60_000,
    // One retry: on the 2-core CI machine two shell tests (the language menu item re-mounting,
    // Escape on the password dialog) have failed once each under load and passed on the next
    // run; a failure that repeats is real. Both are named in the notes to be fixed at the root.
    retry: 1,
    hookTimeout: 120_000,
  },
});
