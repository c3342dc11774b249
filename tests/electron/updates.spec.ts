/**
 * The updater in the real Electron app (skips where the runtime is absent, as here):
 * - a development run (dist/electron/main.cjs) never checks: no menu item, Settings says why;
 * - the packaged e2e build (Linux: `npm run build && npx electron-builder --config
 *   electron-builder.e2e.yml --dir`, then this spec) run as an AppImage would be ($APPIMAGE set),
 *   its app-update.yml pointed at a feed on 127.0.0.1: Help › Check for Updates… opens Settings,
 *   and a release signed with a key the app does not embed is refused — the manifest and its
 *   .sig are asked, the installer never is, and no request carries an Authorization header.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron } from '@playwright/test';
import { makeReleaseKeys, publishRelease, startUpdateFeed } from '../helpers/updateFeed';
import { expect, skipWithoutElectron, test } from './fixtures';

skipWithoutElectron();

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const unpacked = join(root, 'release', 'linux-unpacked');
const unpackedExecutable = join(unpacked, 'report-desk');
/** The page's own bridge, as the Settings screen asks it. A string: this file has no DOM types. */
const UPDATE_STATUS = `window.reportDesk.invoke('updates:status').then((result) => (result.ok ? result.value : null))`;

test('a development run never checks for updates', async ({ electronApp, appWindow: page }) => {
  const item = await electronApp.evaluate(
    ({ Menu }) => Menu.getApplicationMenu()?.getMenuItemById('check-for-updates') ?? null,
  );
  expect(item).toBeNull();
  const status = await page.evaluate(UPDATE_STATUS);
  expect(status).toMatchObject({ managed: false, unmanagedReason: 'development' });
});

test('the packaged app refuses a feed signed by a key it does not embed, downloading nothing', async () => {
  test.skip(
    process.platform !== 'linux' || !existsSync(unpackedExecutable),
    'needs the packaged e2e build: npx electron-builder --config electron-builder.e2e.yml --dir',
  );
  const feed = await startUpdateFeed();
  const dataDir = mkdtempSync(join(tmpdir(), 'reportdesk-electron-updates-'));
  const { fileName } = publishRelease(feed, makeReleaseKeys(), { version: '99.0.0' });
  // electron-builder wrote the project's feed here at build time; this run reads the test's.
  writeFileSync(
    join(unpacked, 'resources', 'app-update.yml'),
    `provider: generic\nurl: ${feed.url}\nupdaterCacheDirName: report-desk-updater\n`,
  );
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  Object.assign(env, {
    REPORT_DESK_DATA_DIR: dataDir,
    REPORT_DESK_E2E: '1',
    APPIMAGE: join(dataDir, 'ReportDesk.AppImage'),
  });
  const app = await _electron.launch({
    executablePath: unpackedExecutable,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    env,
  });
  try {
    const page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
    await app.evaluate(({ Menu }) =>
      Menu.getApplicationMenu()!.getMenuItemById('check-for-updates')!.click(),
    );
    await expect
      .poll(() => feed.asked('latest-linux.yml.sig').length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const status = await page.evaluate(UPDATE_STATUS);
    expect(status).toMatchObject({ managed: true, failure: 'signature_invalid', update: null });
    expect(feed.asked(fileName)).toEqual([]);
    for (const request of feed.requests) {
      expect(Object.keys(request.headers).map((name) => name.toLowerCase())).not.toContain('authorization');
      expect(Object.keys(request.headers).map((name) => name.toLowerCase())).not.toContain(
        'x-user-staging-id',
      );
    }
  } finally {
    await app.close();
    await feed.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
