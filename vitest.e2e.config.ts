import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The JSON report lets .ci/run print one closing 'N passed, N failed' line for both suites.
    reporters: ['default', 'json'],
    outputFile: { json: '.tmp/vitest-e2e.json' },
    include: ['tests/e2e/**/*.test.ts'],
    // One real server and one Chromium per file, two files at a time. They ran one after
    // another to keep the 2-core machine responsive for timing-sensitive UI assertions; every
    // wait is now on a condition (no test asserts how soon), and much of a file's time is
    // waiting (a restart, a minute-old banner, network idle), which the other file fills.
    pool: 'forks',
    // Each server's PGlite starts from a migrated copy made once per run (vitest.config.ts).
    globalSetup: ['tests/setup/databaseTemplates.ts'],
    setupFiles: ['tests/setup/startFromTemplates.ts', 'tests/setup/e2eFlightRecorder.ts'],
    maxWorkers: 2,
    // At load 24 single tests took up to 55 s (each step waits on a condition); 120 s leaves
    // room, and a test that hangs still ends.
    testTimeout: 120_000,
    // No retry: a test waits on events and conditions, so a failure under load is a real one.
    // expect.poll waits on a condition too, but its default 1 s is shorter than a cold page
    // load on the shared 2-core machine (a first /login took longer at load 25); a poll that
    // passes returns at once, so a longer bound costs nothing. No test asserts how soon:
    // speed is a bench figure.
    expect: { poll: { timeout: 10_000 } },
    // Starting a server seeds the demo on a fresh PGlite: at load 25 on the shared machine two
    // servers and Chromium took over 120 s. Only a start that never finishes hits this bound.
    hookTimeout: 300_000,
  },
});
