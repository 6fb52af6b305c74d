// @ts-check
/**
 * StrykerJS on the kernel's loop and run state (`npm run mutation`; docs/mutation-testing.md).
 * Only the kernel's tests run (scripts/mutation/vitest.kernel.config.ts); per-test coverage picks
 * the tests that reach each mutant; incremental mode reuses the last run's results for unchanged
 * code and tests (reports/mutation/stryker-incremental.json, gitignored).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'scripts/mutation/vitest.kernel.config.ts', related: false },
  mutate: [
    'packages/kernel/src/loop/**/*.ts',
    'packages/kernel/src/run-state/**/*.ts',
    '!**/*.test.ts',
    '!**/__fixtures__/**',
  ],
  // Only what the kernel's tests load is copied to the sandbox.
  ignorePatterns: [
    '/*',
    '!/packages',
    '/packages/*',
    '!/packages/kernel',
    '!/packages/testing',
    '!/fixtures',
    '!/scripts',
    '!/vitest.config.ts',
    '!/package.json',
    '!/tsconfig.base.json',
    '/packages/*/dist',
  ],
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  concurrency: 2,
  timeoutMS: 5_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: {
    allowColor: false,
    logTests: false,
    reportTests: false,
    reportMutants: false,
  },
  tempDirName: '.stryker-tmp',
  thresholds: { high: 90, low: 80, break: null },
};
