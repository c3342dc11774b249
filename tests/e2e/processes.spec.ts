/**
 * The window and the CLI on one data dir: profiles added, renamed elsewhere and removed by
 * real `report-desk` processes show up in the open UI without a reload (the store's folder
 * watch → the gateway's `profiles:changed` → the renderer), and a `cache sync` it runs shows in
 * Settings (the cache's sync lease → `cache:status.syncing`), against the real core, keychain
 * and SQLite of tests/e2e/stack.ts.
 */
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { spawnCliCaptured } from '../helpers/cli';
import { addAlphaProfile, BETA, expectAccessible, startStack, type Stack } from './stack';

test.describe.configure({ mode: 'serial' });

let stack: Stack;
let page: Page;

test.beforeAll(async ({ browser }) => {
  stack = await startStack();
  await addAlphaProfile(stack);
  page = await (await browser.newContext()).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await stack?.stop();
});

function cli(args: string[], stdin = '') {
  const env = { REPORT_DESK_DATA_DIR: join(stack.dataDir, 'app'), REPORT_DESK_API_KEY: '' };
  return spawnCliCaptured(args, env, stdin);
}

test('a profile added and removed by the CLI appears and disappears in the open window', async () => {
  await page.goto(`${stack.preview.url}#/profiles`);
  const profiles = page.locator('li.profile');
  await expect(profiles).toHaveCount(1);
  const switcher = page.getByLabel('Active profile');

  const added = await cli(['profiles', 'add', 'From CLI', '--base-url', stack.service.baseUrl], BETA.apiKey);
  expect(added.code, added.stderr).toBe(0);
  await expect(profiles.filter({ hasText: 'From CLI' })).toContainText(`•••• ${BETA.apiKey.slice(-4)}`);
  // The CLI made it the active profile, for the window too.
  await expect(switcher.locator('option:checked')).toHaveText('From CLI');

  const removed = await cli(['profiles', 'remove', 'From CLI', '--yes']);
  expect(removed.code, removed.stderr).toBe(0);
  await expect(profiles).toHaveCount(1);
  await expect(switcher.locator('option:checked')).toHaveText('Alpha');
});

test('a `cache sync` run by the CLI shows in Settings while it runs, axe clean, and the button comes back when it ends', async () => {
  // A slow service keeps the CLI's sync running while the screen is checked; the window learns
  // of it only from the lease in the cache file the two processes share.
  stack.service.faults.setLatency(3_000);
  const sync = cli(['cache', 'sync']);
  try {
    await expect
      .poll(async () => (await stack.core.handlers['cache:status'](undefined)).syncing, { timeout: 15_000 })
      .toBe(true);
    await page.goto(`${stack.preview.url}#/settings`);
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(
      page.getByRole('status').filter({ hasText: 'by another ReportDesk window or command' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Make available offline' })).toBeDisabled();
    await expectAccessible(page, 'Settings while another process syncs');
  } finally {
    stack.service.faults.setLatency(0);
  }
  const done = await sync;
  expect(done.code, done.stderr).toBe(0);
  await expect(page.getByRole('button', { name: 'Make available offline' })).toBeEnabled({ timeout: 10_000 });
  await expect(page.getByText('by another ReportDesk window or command')).toHaveCount(0);
});
