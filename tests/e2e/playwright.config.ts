import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from '../helpers/chromium';

// UI end to end in Chromium against the browser preview: the real core (keychain, SQLite) and
// the reference service on 127.0.0.1. Debian's Chromium; never `npx playwright install`.
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 1,
  fullyParallel: false,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  outputDir: '../../test-results/e2e',
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    trace: 'retain-on-failure',
    actionTimeout: 15_000,
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
});
