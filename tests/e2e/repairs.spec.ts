/**
 * The machine's own faults in the real UI (issue 30): the browser preview in Chromium over the
 * real core, keychain, SQLite files and reference service (tests/e2e/stack.ts), with the damage
 * made WHILE the app runs — the offline copy's middle overwritten, profiles.json cut short with
 * and without its backup, a key left in the keychain by an add killed part way — and what the
 * window then shows: one banner per repair, the damaged profiles screen and its confirmed new
 * list, orphaned keys restored and removed. Axe clean in light and dark.
 */
import { readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { KeytarKeyStore } from '../../electron/core/keys/keyStore';
import { dataPaths } from '../../electron/core/services';
import { overwriteMiddle } from '../helpers/damage';
import { deadOwnerToken } from '../helpers/deadOwner';
import { addAlphaProfile, BETA, expectAccessible, screenshotBoth, startStack, type Stack } from './stack';

test.describe.configure({ mode: 'serial' });

let stack: Stack;
let page: Page;
let paths: ReturnType<typeof dataPaths>;

test.beforeAll(async ({ browser }) => {
  stack = await startStack();
  await addAlphaProfile(stack);
  paths = dataPaths(`${stack.dataDir}/app`);
  page = await (await browser.newContext()).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await stack?.stop();
});

const announced = () => page.locator('[data-live-region]');
const banner = (name: string | RegExp) => page.getByRole('region', { name });

test('the offline copy damaged while the app runs: set aside, said in a banner, refilled', async () => {
  await page.goto(`${stack.preview.url}#/settings`);
  await page.getByRole('button', { name: 'Make available offline' }).click();
  await expect(page.getByText(/Keep available offline is now on/)).toBeVisible();

  // A bad sector in the copy's pages (what the WAL held is in the file first, as after a while).
  const db = new Database(paths.cache);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  overwriteMiddle(paths.cache, 8192);

  await page.getByRole('button', { name: 'Make available offline' }).click();
  const copy = banner('The offline copy was damaged, so it was set aside and a new one started');
  await expect(copy).toBeVisible();
  await expect(copy).toContainText(/reports it held will be fetched again from the service\./);
  await expect(copy).toContainText('It is being filled again for the profile kept available offline: Alpha.');
  await expect(copy.locator('bdi[dir="ltr"]')).toHaveText(/cache\.sqlite\.corrupt-\d{4}-\d{2}-\d{2}T\d{9}Z$/);
  await expect(announced()).toHaveText(/The offline copy was damaged/);
  // Never "Something went wrong": the sync ran again into the new copy.
  await expect(page.getByText(/Something went wrong/)).toHaveCount(0);

  // The list recovers: the refilled copy holds the service's 60 reports.
  await page.goto(`${stack.preview.url}#/reports`);
  await expect(page.locator('table.table tbody tr').first()).toBeVisible();
  await expect.poll(async () => (await stack.core.handlers['cache:status'](undefined)).reportCount).toBe(60);
  // Kept until dismissed, on every screen.
  await expect(copy).toBeVisible();
  await expectAccessible(page, 'the offline copy’s banner', '.repair-banners');
  await screenshotBoth(page, 'repair-banner');

  // Dismissed by keyboard: gone for good (after a reload too).
  await copy.getByRole('button', { name: 'Dismiss' }).focus();
  await page.keyboard.press('Enter');
  await expect(copy).toHaveCount(0);
  await page.reload();
  await expect(page.locator('table.table tbody tr').first()).toBeVisible();
  await expect(banner(/^The offline copy/)).toHaveCount(0);
});

test('profiles.json cut short, with its backup: restored and said so, nothing lost', async () => {
  // A second profile, then the file cut short.
  await stack.core.handlers['profiles:add']({
    name: 'Beta',
    baseUrl: stack.service.baseUrl,
    apiKey: BETA.apiKey,
    allowInsecureHttp: false,
    sessionOnly: false,
  });
  truncateSync(paths.profiles, 100);
  await page.reload();

  const restored = banner('The profiles file was damaged, so its backup was restored');
  await expect(restored).toBeVisible();
  await expect(restored).toContainText(
    /Your profiles are as they were on .+\. A change made after that may be missing/,
  );
  await expect(restored.locator('bdi[dir="ltr"]')).toHaveText(/profiles\.json\.corrupt-\S+$/);
  // Nothing lost: both profiles were in the backup (an add writes twice, so its backup has it too).
  await expect(page.getByLabel('Active profile').locator('option')).toHaveText(['Alpha', 'Beta']);
  await expectAccessible(page, 'the restored profiles banner', '.repair-banners');
  await restored.getByRole('button', { name: 'Dismiss' }).click();
  await expect(restored).toHaveCount(0);
});

test('profiles.json damaged with no backup: a screen of its own, a new list once confirmed, then its keys restored', async () => {
  rmSync(`${paths.profiles}.backup`);
  // Cut short near its end: both profiles' ids, names and addresses are still in what is left.
  truncateSync(paths.profiles, statSync(paths.profiles).size - 40);
  const damaged = readFileSync(paths.profiles);
  await page.reload();

  await expect(page.getByRole('heading', { level: 1, name: 'The profiles file is damaged' })).toBeVisible();
  await expect(page.getByText(/could not start|Something went wrong/)).toHaveCount(0);
  await expect(page.locator('main bdi[dir="ltr"]').first()).toHaveText(paths.profiles);
  await expectAccessible(page, 'the damaged profiles screen');

  await page.getByRole('button', { name: 'Start a new list of profiles' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Start a new list of profiles?' });
  await expect(dialog).toContainText(/The old list stays in the copy .*profiles\.json\.corrupt-/);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAccessible(page, 'the new list confirmation');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // Nothing was written over the damaged file meanwhile.
  expect(readFileSync(paths.profiles).equals(damaged)).toBe(true);

  await page.getByRole('button', { name: 'Start a new list of profiles' }).click();
  await dialog.getByRole('button', { name: 'Start a new list' }).click();
  await expect(page.getByRole('button', { name: 'Try with a local demo service' })).toBeVisible();

  // The keys of both profiles are offered back, from what the damaged copy still said.
  const orphans = banner('2 keys in the system keychain belong to no profile');
  await expect(orphans).toBeVisible();
  await expect(orphans).toContainText('found in a damaged profiles file');
  await expectAccessible(page, 'the first-run screen with orphaned keys', '.repair-banners');
  await orphans.getByRole('button', { name: 'Restore all profiles (2)' }).click();
  // Both back, in the order the keychain listed them.
  const options = page.getByLabel('Active profile').locator('option');
  await expect(options).toHaveCount(2);
  expect((await options.allTextContents()).sort()).toEqual(['Alpha', 'Beta']);
  await expect(orphans).toHaveCount(0);
});

test('a key an add killed part way left in the keychain: listed, removed once confirmed', async () => {
  const account = 'orphan-e2e-0001';
  const keychain = new KeytarKeyStore({});
  await keychain.set(account, 'left-behind-key-9876');
  const saved = JSON.parse(readFileSync(paths.profiles, 'utf8')) as Record<string, unknown>;
  writeFileSync(
    paths.profiles,
    JSON.stringify({
      ...saved,
      pending: [
        {
          at: new Date().toISOString(),
          owner: deadOwnerToken(),
          id: account,
          op: 'add',
          profile: { name: 'Gamma', baseUrl: 'https://gamma.example.com', allowInsecureHttp: false },
        },
      ],
    }),
  );
  await page.reload();

  const orphans = banner('1 key in the system keychain belongs to no profile');
  await expect(orphans).toContainText(
    'Key ending in 9876 It belonged to the profile Gamma at https://gamma.example.com (which was being added when ReportDesk stopped).',
  );
  await orphans.getByRole('button', { name: 'Remove key' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Remove 1 key from the system keychain?' });
  await expect(dialog).toContainText('The key is deleted for good');
  await dialog.getByRole('button', { name: 'Remove key' }).click();
  await expect(page.getByText('1 key was removed from the system keychain.')).toBeVisible();
  await expect(orphans).toHaveCount(0);
  expect(await keychain.get(account)).toBeNull();
});
