/**
 * How every browser test, bench and script here launches Chromium: Debian's build (Playwright's
 * own download is not available), headless, and without the background services whose
 * connections a closed network refuses.
 */
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const CHROMIUM_LAUNCH_OPTIONS = { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS };
