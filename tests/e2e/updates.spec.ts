/**
 * Settings › Updates and the ready bar in Chromium, axe-clean in light and dark, in every
 * state a user meets. The browser preview has no updater, so this core is given the app's:
 * createAppUpdates with electron-updater's real BaseUpdater (DownloadOnlyUpdater: the real
 * check, signature check, download and sha512 check) against a feed served on 127.0.0.1. Only
 * what Electron alone can do is stood in for, as electron-updater's AppAdapter documents it:
 * `isPackaged: true` (an installed app), and `quit()` recorded instead of ending the process;
 * the install itself (replacing the AppImage) is recorded by DownloadOnlyUpdater.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createAppUpdates } from '../../electron/core/updates/appUpdates';
import { DownloadOnlyUpdater } from '../../electron/core/updates/updaters';
import { makeReleaseKeys, publishRelease, startUpdateFeed, type UpdateFeed } from '../helpers/updateFeed';
import {
  addAlphaProfile,
  ALPHA,
  expectAccessible as expectAccessibleOn,
  screenshotBoth,
  startStack,
  type Stack,
} from './stack';

test.describe.configure({ mode: 'serial' });

const keys = makeReleaseKeys();
let feed: UpdateFeed;
let stack: Stack;
let page: Page;
let root: string;
const installed: string[] = [];
let quits = 0;

test.beforeAll(async ({ browser }) => {
  feed = await startUpdateFeed();
  root = mkdtempSync(join(tmpdir(), 'reportdesk-e2e-updates-'));
  const resources = join(root, 'resources');
  mkdirSync(resources);
  writeFileSync(
    join(resources, 'app-update.yml'),
    `provider: generic\nurl: ${feed.url}\nupdaterCacheDirName: rd-updater\n`,
  );
  stack = await startStack({
    updates: (context) =>
      createAppUpdates({
        ...context,
        dataDir: root,
        adapter: {
          version: '1.0.0',
          name: 'ReportDesk',
          isPackaged: true,
          appUpdateConfigPath: join(resources, 'app-update.yml'),
          userDataPath: root,
          baseCachePath: join(root, 'cache'),
          whenReady: () => Promise.resolve(),
          relaunch: () => undefined,
          quit: () => void quits++,
          onQuit: () => undefined,
        },
        platform: 'linux',
        resourcesPath: resources,
        appImage: '/opt/ReportDesk/ReportDesk.AppImage',
        publicKeys: [keys.publicPem],
        createUpdater: (_kind, adapter) =>
          new DownloadOnlyUpdater(adapter, (file) => (installed.push(file), true)),
      }),
  });
  await addAlphaProfile(stack);
  page = await (await browser.newContext()).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await stack?.stop();
  await feed?.stop();
  rmSync(root, { recursive: true, force: true });
});

const updatesCard = () =>
  page.locator('.card', { has: page.getByRole('checkbox', { name: /automatically/ }) });
const bar = () => page.locator('.banner-update');

test('before any check: Settings › Updates is accessible, with automatic checks on', async () => {
  await page.goto(`${stack.preview.url}#/settings`);
  await expect(page.getByRole('heading', { level: 2, name: 'Updates' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Check for updates automatically' })).toBeChecked();
  await expect(updatesCard()).toContainText('ReportDesk has not checked for updates yet.');
  await expectAccessible('Settings › Updates before a check');
});

test('a feed that answers 404: one sentence, accessible', async () => {
  await page.getByRole('button', { name: 'Check now' }).click();
  await expect(updatesCard().getByRole('status')).toHaveText(
    'The update server has no update information for this version. ReportDesk tries again in a few hours.',
  );
  await expectAccessible('Settings › Updates after a failed check');
});

test('a manifest signed by another key: refused, nothing downloaded, one sentence', async () => {
  const { fileName } = publishRelease(feed, makeReleaseKeys(), { version: '1.2.0' });
  await page.getByRole('button', { name: 'Check now' }).click();
  await expect(updatesCard().getByRole('status')).toContainText('not signed with the ReportDesk release key');
  expect(feed.asked(fileName)).toEqual([]);
  await expect(bar()).toHaveCount(0);
});

test('a signed newer version: downloaded, verified, release notes as text, the ready bar', async () => {
  publishRelease(feed, keys, {
    version: '1.2.0',
    releaseNotes: 'Faster lists.\n<script>alert(1)</script> is shown as text.',
  });
  await page.getByRole('button', { name: 'Check now' }).click();
  await expect(updatesCard().getByRole('status')).toHaveText(
    'ReportDesk 1.2.0 is downloaded and verified; restart to update.',
  );
  await expect(page.getByRole('heading', { name: 'What’s new in 1.2.0' })).toBeVisible();
  await expect(page.locator('.release-notes-text')).toHaveText(
    'Faster lists.\n<script>alert(1)</script> is shown as text.',
  );
  await expect(bar()).toContainText('ReportDesk 1.2.0 is ready');
  await expect(bar().getByRole('button', { name: 'Restart to update' })).toBeVisible();
  expect(installed).toEqual([]);
  await expectAccessible('Settings with an update ready, and the ready bar');
  await screenshotBoth(page, 'updates-ready');
  // The bar is on every screen.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Reports', exact: true })
    .click();
  await expect(bar()).toContainText('ReportDesk 1.2.0 is ready');
  await expectAccessible('Reports with the ready bar', '.banner-update');
});

test('a restart asked for during a full sync waits for it, and can cancel it', async () => {
  // Ten pages, two seconds each: the sync outlasts the checks below.
  stack.service.seedReports(1_000, ALPHA.apiKey);
  stack.service.faults.setLatency(2_000);
  try {
    const sync = stack.core.handlers['cache:sync'](undefined).catch((thrown: unknown) => thrown);
    await expect.poll(() => stack.core.handlers['cache:status'](undefined).then((s) => s.syncing)).toBe(true);
    await bar().getByRole('button', { name: 'Restart to update' }).click();
    await expect(bar()).toContainText(
      'ReportDesk restarts as soon as it is no longer busy: reports are made available offline.',
    );
    expect(installed).toEqual([]);
    await expectAccessible('The ready bar while a restart waits', '.banner-update');
    await bar().getByRole('button', { name: 'Cancel it and restart' }).click();
    await sync;
  } finally {
    stack.service.faults.setLatency(0);
  }
  await expect(bar()).toContainText('restarting…');
  await expect.poll(() => installed.length).toBe(1);
  expect(installed[0]).toMatch(/ReportDesk-1\.2\.0\.AppImage$/);
  expect(quits).toBe(1);
});

/** axe-core over this file's page (or a part) in light and in dark (see stack.ts). */
function expectAccessible(what: string, include?: string) {
  return expectAccessibleOn(page, what, include);
}
