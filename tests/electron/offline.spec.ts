/**
 * A profile on a reference service run by the test: when the service stops, the app keeps
 * showing what it saved and says it is offline; when it comes back, so does the app.
 */
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { expect, skipWithoutElectron, test } from './fixtures';

skipWithoutElectron();

let service: DemoService | null = null;
test.afterEach(async () => {
  await service?.stop();
  service = null;
});

test('offline: cached reports stay visible, writes are disabled, and it recovers', async ({
  appWindow: page,
}) => {
  service = await startDemoService();
  const { baseUrl, apiKey } = service;
  const port = Number(new URL(baseUrl).port);

  await page.getByLabel(/profile name/i).fill('E2E service');
  await page.getByLabel(/base url/i).fill(baseUrl);
  await page.getByLabel(/api key/i).fill(apiKey);
  await page.getByRole('button', { name: /save profile/i }).click();
  // No keychain on this machine: keep the key for this session, as a user would.
  const sessionOnly = page.getByRole('button', { name: /session only/i });
  const table = page.getByRole('table', { name: /reports/i });
  await expect(table.getByRole('link').first().or(sessionOnly)).toBeVisible();
  if (await sessionOnly.isVisible()) await sessionOnly.click();
  await expect(table.getByRole('link').first()).toBeVisible();
  const shown = await table.getByRole('link').allTextContents();

  await service.stop();
  service = null;
  await page.keyboard.press('ControlOrMeta+R');
  const banner = page.getByRole('status').filter({ hasText: /offline/i });
  await expect(banner).toBeVisible();
  expect(await table.getByRole('link').allTextContents()).toEqual(shown);
  await expect(page.getByRole('button', { name: /new report/i })).toBeDisabled();

  service = await startDemoService({ port });
  await banner.getByRole('button', { name: /try again/i }).click();
  await expect(banner).toHaveCount(0);
  await expect(page.getByRole('button', { name: /new report/i })).toBeEnabled();
});
