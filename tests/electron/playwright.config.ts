import { defineConfig } from '@playwright/test';

// Electron end-to-end tests: the built app (npm run build) driven through Playwright's _electron.
// Without the Electron runtime (ELECTRON_SKIP_BINARY_DOWNLOAD) every spec skips, and the run
// still exits 0; globalSetup prints the reason once.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './globalSetup.ts',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  outputDir: '../../test-results/electron',
  reporter: [['list']],
});
