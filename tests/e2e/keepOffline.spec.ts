/**
 * "Keep available offline" in the real UI (the browser preview in Chromium, the real core,
 * keychain, SQLite and reference service of tests/e2e/stack.ts): the Settings section and its
 * first turn-on by "Make available offline", then changes made on the service's side found by
 * a quick refresh and a full sync, shown as "Changes since …" with its filter, the new-row marks
 * until a report is opened, and "Mark all as seen" — by keyboard, announced, axe clean in light
 * and dark.
 */
import { expect, test, type Page } from '@playwright/test';
import { addAlphaProfile, ALPHA, expectAccessible, screenshotBoth, startStack, type Stack } from './stack';

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

const announced = () => page.locator('[data-live-region]');
const keepSwitch = () =>
  page.getByRole('checkbox', { name: 'Keep this profile’s reports available offline' });

test('Settings: the first "Make available offline" turns Keep available offline on and says so; choices are kept', async () => {
  await page.goto(`${stack.preview.url}#/settings`);
  await expect(keepSwitch()).not.toBeChecked();
  await expect(page.getByText('Not checked yet')).toBeVisible();
  await page.getByRole('button', { name: 'Make available offline' }).click();
  await expect(
    page.getByText(/Keep available offline is now on: ReportDesk keeps this copy current/),
  ).toBeVisible();
  await expect(keepSwitch()).toBeChecked();
  await expect(page.locator('.keep-offline-checked')).toHaveText(
    /^New reports checked less than a minute ago · everything checked less than a minute ago$/,
  );

  // By keyboard: the interval, and the notification.
  await page.getByLabel('Check for new reports').focus();
  await page.getByLabel('Check for new reports').selectOption('5');
  await expect(announced()).toHaveText(/^Saved\./);
  await page.getByRole('checkbox', { name: /^Notify me/ }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('checkbox', { name: /^Notify me/ })).toBeChecked();
  await page.reload();
  await expect(page.getByLabel('Check for new reports')).toHaveValue('5');
  await expect(page.getByRole('checkbox', { name: /^Notify me/ })).toBeChecked();
  await expectAccessible(page, 'Settings with Keep available offline');
});

test('Changes since …: found by a quick refresh and a full sync, filtered, marked until opened, marked seen', async () => {
  const service = stack.service;
  const ids = service.reportIds(ALPHA.apiKey);
  const turned = ids[4];
  const gone = ids[9];
  // A known starting point: the report good and public in the copy, and nothing unseen.
  service.changeReport(turned, { result: 'good', privacy: 0 }, ALPHA.apiKey);
  await stack.core.handlers['cache:sync'](undefined);
  await stack.core.handlers['changes:markSeen'](undefined);
  service.changeReport(turned, { result: 'bad', privacy: 1 }, ALPHA.apiKey);
  service.deleteReport(gone, ALPHA.apiKey);
  const added = service.addReports(2, ALPHA.apiKey);

  // The newest reports, by hand: a quick refresh (its one page of 100 holds the changed one too).
  await page.getByRole('button', { name: 'Check for new reports now' }).click();
  await expect(announced()).toHaveText(/^Checked for new reports: 2 new reports and 1 changed report\./);
  // Everything: the changed and the removed one are found by a full sync.
  await page.getByRole('button', { name: 'Make available offline' }).click();
  await expect(
    page.getByText(/reports are available offline; 1 that no longer exists was removed\./),
  ).toBeVisible();

  await page.goto(`${stack.preview.url}#/reports`);
  const panel = page.getByRole('region', { name: /^Changes since / });
  await expect(panel.locator('.changes-counts')).toHaveText(
    /^2 new(, \d of them bad)? · 1 changed, 1 turned bad · 1 removed$/,
  );
  await expect(panel).toContainText('New reports checked');

  // The new rows (newest first in the list) carry a mark.
  const newRow = (id: number) =>
    page
      .locator('table.table tbody tr')
      .filter({ has: page.locator('td.id-cell', { hasText: new RegExp(`^${id}New$`) }) });
  await expect(newRow(added[0])).toHaveCount(1);
  await expect(newRow(added[1])).toHaveCount(1);

  // "Show changed reports", by keyboard.
  const show = panel.getByRole('button', { name: 'Show changed reports' });
  await show.focus();
  await page.keyboard.press('Enter');
  const table = panel.getByRole('table', { name: 'Changed reports' });
  await expect(table.locator('tbody tr')).toHaveCount(4);
  await expect(table.locator('tbody tr').filter({ hasText: String(turned) })).toContainText(
    'Result good → bad; privacy Public → Private',
  );
  await expect(table.locator('tbody tr').filter({ hasText: String(gone) })).toContainText('Removed');
  await expectAccessible(page, 'the list with Changes since … open');
  await screenshotBoth(page, 'changes-since');

  // Opening a new report takes its mark away.
  await table.getByRole('link', { name: String(added[1]) }).click();
  await expect(page).toHaveURL(new RegExp(`#/reports/${added[1]}$`));
  await expect(page.locator('#report-title')).toBeVisible();
  await page.goBack();
  await expect(panel.locator('.changes-counts')).toHaveText(/^1 new/);
  await expect(newRow(added[1])).toHaveCount(0);
  await expect(newRow(added[0])).toHaveCount(1);

  await panel.getByRole('button', { name: 'Mark all as seen' }).click();
  await expect(announced()).toHaveText(/^All changes are marked as seen\./);
  await expect(panel.locator('.changes-counts')).toHaveText('Nothing new.');
  await expect(newRow(added[0])).toHaveCount(0);
  await expectAccessible(page, 'the list with nothing new');
});
