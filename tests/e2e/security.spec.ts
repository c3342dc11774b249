/**
 * Attacks from the same browser, in Chromium against the preview with the real core:
 * another local web server reading or using the preview's credential, and a renderer
 * re-pointing a profile at a server that captures the key. The capture server listens on
 * another port of 127.0.0.1 and records every request it receives.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { ProfileView, ReportDeskBridge } from '../../shared/contract';
import { startCaptureServer, type CaptureServer } from '../helpers/captureServer';
import { addAlphaProfile, ALPHA, startStack, type Stack } from './stack';

/** What page.evaluate callbacks see (this file is type-checked without the DOM library). */
declare const window: { reportDesk: ReportDeskBridge; sessionStorage: Record<string, string> };

test.describe.configure({ mode: 'serial' });

let stack: Stack;
let capture: CaptureServer;
let context: BrowserContext;
let page: Page;
let profile: ProfileView;

test.beforeAll(async ({ browser }) => {
  stack = await startStack();
  capture = await startCaptureServer();
  profile = await addAlphaProfile(stack);
  context = await browser.newContext();
  page = await context.newPage();
  await page.goto(stack.preview.url);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test.afterAll(async () => {
  await context?.close();
  await capture?.stop();
  await stack?.stop();
});

test('another local server opened in the same browser receives no credential and cannot call the bridge', async () => {
  // The preview works in its own tab.
  await expect(page).toHaveURL(`${stack.preview.origin}/#/reports`);
  const other = await context.newPage();
  await other.goto(`${capture.origin}/`);
  await expect(other.locator('p')).toHaveText('nothing here');

  // What the browser sent to the other server: no cookie, no token anywhere.
  expect(capture.requests.length).toBeGreaterThan(0);
  for (const request of capture.requests) expect(request.headers.cookie).toBeUndefined();
  expect(capture.everything()).not.toContain(stack.preview.token);
  expect(await context.cookies()).toEqual([]);
  // The other origin sees none of the preview's storage.
  expect(await other.evaluate(() => JSON.stringify({ ...window.sessionStorage }))).toBe('{}');

  // From there, the bridge: a CORS call is refused at its preflight, a no-cors one by the
  // server (no token). The profile it tries to remove is still there.
  const attempts = await other.evaluate(
    async ({ origin, id }) => {
      const body = JSON.stringify({ channel: 'profiles:remove', input: { id } });
      const outcomes: string[] = [];
      try {
        const reply = await fetch(`${origin}/__bridge/invoke`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
          credentials: 'include',
        });
        outcomes.push(`cors answered ${reply.status}: ${await reply.text()}`);
      } catch {
        outcomes.push('cors refused');
      }
      const blind = await fetch(`${origin}/__bridge/invoke`, {
        method: 'POST',
        mode: 'no-cors',
        headers: { 'Content-Type': 'text/plain' },
        body,
        credentials: 'include',
      });
      outcomes.push(`no-cors ${blind.type}`);
      return outcomes;
    },
    { origin: stack.preview.origin, id: profile.id },
  );
  expect(attempts).toEqual(['cors refused', 'no-cors opaque']);
  const state = await stack.core.handlers['profiles:list'](undefined);
  expect(state.profiles.map((p) => p.id)).toEqual([profile.id]);
  await other.close();

  // The preview tab still works after a reload: the token stayed in its own session storage.
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  const listed = await page.evaluate(() => window.reportDesk.invoke('profiles:list'));
  expect(listed.ok).toBe(true);
});

test('a renderer re-pointing a profile at a capture server never gets the stored key sent there', async () => {
  const before = capture.requests.length;
  // As a compromised renderer would: straight through the bridge.
  const direct = await page.evaluate(
    ({ id, baseUrl }) => window.reportDesk.invoke('profiles:update', { id, baseUrl }),
    { id: profile.id, baseUrl: capture.origin },
  );
  expect(direct).toMatchObject({ ok: false, error: { kind: 'invalid_input', reason: 'key_required' } });

  // Through the form: a new address shows the key field, and saving without a key is refused.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys & profiles' }).click();
  await page
    .locator('li.profile')
    .filter({ hasText: 'Alpha' })
    .getByRole('button', { name: 'Rename' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Rename Alpha' });
  await expect(dialog.getByLabel('API key for the new address')).toHaveCount(0);
  await dialog.getByLabel('Base URL').fill(capture.origin);
  const keyField = dialog.getByLabel('API key for the new address');
  await expect(keyField).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toContainText('Enter the API key');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // Everything the app does next still goes to the real service.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page.locator('table.table tbody tr:not(.skeleton-row)').first()).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await expect(page.getByText('Alpha Team').first()).toBeVisible();
  expect(capture.requests.length).toBe(before);
  expect(capture.everything()).not.toContain(ALPHA.apiKey);

  // With a key typed for the new address, only that key is ever sent there.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys & profiles' }).click();
  await page
    .locator('li.profile')
    .filter({ hasText: 'Alpha' })
    .getByRole('button', { name: 'Rename' })
    .click();
  await dialog.getByLabel('Base URL').fill(capture.origin);
  await dialog.getByLabel('API key for the new address').fill('key-typed-for-capture-0001');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await expect(page.getByText('Attacker').first()).toBeVisible();
  expect(capture.everything()).toContain('key-typed-for-capture-0001');
  expect(capture.everything()).not.toContain(ALPHA.apiKey);
});
