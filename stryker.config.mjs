// StrykerJS for `npm run mutation` (scripts/mutation.mjs runs it once per file, setting
// STRYKER_MUTATE and MUTATION_TESTS). See docs/TESTING.md.
const mutate = process.env.STRYKER_MUTATE ?? 'electron/core/api/baseUrl.ts';
const name = mutate.replace(/[^a-zA-Z0-9]+/g, '-');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'tests/mutation/vitest.config.ts', related: false },
  mutate: [mutate],
  // The machine is shared: one test runner at a time.
  concurrency: 1,
  coverageAnalysis: 'perTest',
  // A fresh runner every so often: native modules and servers started by tests stay bounded.
  maxTestRunnerReuse: 50,
  reporters: ['clear-text', 'json', 'progress-append-only'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // .tools holds the project's Node (a symlink in a git worktree, which the sandbox cannot copy).
  ignorePatterns: [
    'dist',
    'release',
    'test-results',
    'playwright-report',
    'coverage',
    'reports',
    '.tmp',
    '.tools',
  ],
  timeoutMS: 10_000,
  thresholds: { high: 90, low: 80, break: null },
};
