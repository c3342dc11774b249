/** A user's first session with the embedded demo service: list, open, create, re-protect, delete. */
import { expect, skipWithoutElectron, test } from './fixtures';

skipWithoutElectron();

test('demo mode: list, open, create, change privacy, delete', async ({ electronApp, appWindow: page }) => {
  await page.getByRole('button', { name: /Try with a local demo service/i }).click();

  const table = page.getByRole('table', { name: /reports/i });
  await expect(table.getByRole('link').first()).toBeVisible();
  expect(await table.getByRole('link').count()).toBeGreaterThan(1);

  // Open a report from the list.
  const firstLink = table.getByRole('link').first();
  const firstUrl = (await firstLink.textContent())?.trim() ?? '';
  await firstLink.click();
  await expect(page.getByRole('heading', { level: 1, name: firstUrl })).toBeVisible();

  // Create one, through the File menu's "New Report" (menu → main → app:command → page).
  await electronApp.evaluate(({ Menu }) => Menu.getApplicationMenu()?.getMenuItemById('new-report')?.click());
  const url = `https://electron-e2e.example/page-${Date.now()}`;
  await page.getByLabel(/URL to analyse/i).fill(url);
  await page.getByRole('button', { name: /create report/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: url })).toBeVisible();

  // Protect it with a password.
  await page.getByRole('button', { name: /edit privacy/i }).click();
  await page.getByRole('radio', { name: /password/i }).check();
  await page.getByLabel(/report password/i).fill('e2e-report-password');
  await page.getByRole('button', { name: /save privacy/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: url })).toBeVisible();
  await expect(page.getByText(/password/i).first()).toBeVisible();

  // Delete it: a confirmation naming the URL, then it is gone from the list.
  await page.getByRole('button', { name: /^delete$/i }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(url);
  await dialog.getByRole('button', { name: /delete report/i }).click();
  await expect(table.getByRole('link').first()).toBeVisible();
  await expect(page.getByRole('link', { name: url })).toHaveCount(0);
});
