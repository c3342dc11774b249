/**
 * Walks every screen of the real UI in Chromium: first run, the list with every filter, a
 * report, create (with a 422 inline), privacy, delete, account, profiles, the offline copy,
 * going offline and coming back. Screens are saved in light and dark.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ALPHA, BETA, screenshotBoth, startStack, type Stack } from './stack';

test.describe.configure({ mode: 'serial' });

let stack: Stack;
let page: Page;

test.beforeAll(async ({ browser }) => {
  stack = await startStack();
  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.preview.origin });
  page = await context.newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await stack?.stop();
});

const rows = () => page.locator('table.table tbody tr:not(.skeleton-row)');
const resultCells = () => rows().locator('td:nth-child(4)');
const urlCells = () => rows().locator('td:nth-child(3)');
const showing = () => page.locator('.pagination > span');

async function navTo(name: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}

/** The error shown next to a labelled control (wired through aria-describedby). */
function fieldError(control: Locator): Locator {
  return control.locator('xpath=ancestor::*[contains(@class,"form-field")][1]').locator('.field-error');
}

test('first run: a rejected key is explained; a good key is tested, saved and used', async () => {
  await page.goto(stack.preview.url);
  await expect(page.getByRole('heading', { name: 'Welcome to ReportDesk' })).toBeVisible();
  await screenshotBoth(page, 'welcome');

  await page.getByLabel('Profile name').fill('Alpha');
  await page.getByLabel('Base URL').fill(stack.service.baseUrl);
  await page.getByLabel('API key').fill('not-the-right-key');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('alert')).toContainText('rejected the API key');

  await page.getByRole('button', { name: 'Add profile' }).click();
  await expect(page.getByRole('alert')).toContainText('rejected the API key');
  await expect(page).toHaveURL(/#\/welcome$/);

  await page.getByLabel('API key').fill(ALPHA.apiKey);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connection works' })).toContainText(
    'Alpha Team (alpha@example.test)',
  );
  await page.getByRole('button', { name: 'Add profile' }).click();
  await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
  await expect(page).toHaveURL(/#\/reports$/);
  await expect(page.getByLabel('Active profile')).toHaveValue(/.+/);
  await expect(page.getByLabel('Active profile').locator('option:checked')).toHaveText('Alpha');
});

test('list: result, search, project, sort, page size and paging, all kept after a restart', async () => {
  await expect(showing()).toHaveText('Showing 1–10 of 60');
  await expect(rows()).toHaveCount(10);

  await page.getByLabel('Result').selectOption('good');
  await expect(showing()).not.toHaveText('Showing 1–10 of 60');
  for (const text of await resultCells().allTextContents()) expect(text).toBe('Good');
  await page.getByLabel('Result').selectOption('');

  const firstUrl = (await urlCells().first().textContent())!;
  // The whole row: a URL is analysed again and again, so the seed repeats URLs (not ids).
  const firstRow = await rows().first().textContent();
  const host = new URL(firstUrl).host;
  await page.getByLabel('Search URL').fill(host);
  await expect(page.getByLabel('Search URL')).toHaveValue(host);
  await expect(async () => {
    const urls = await urlCells().allTextContents();
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toContain(host);
    expect(await showing().textContent()).not.toContain('of 60');
  }).toPass();
  await page.getByLabel('Search URL').fill('');

  await page.getByLabel('Project').focus();
  await expect(page.locator('#project-suggestions option').first()).toBeAttached();
  const project = await page.locator('#project-suggestions option').first().getAttribute('value');
  expect(project).toBeTruthy();
  await page.getByLabel('Project').fill(project!);
  await expect(async () => {
    const projects = await rows().locator('td:nth-child(6)').allTextContents();
    expect(projects.length).toBeGreaterThan(0);
    for (const p of projects) expect(p).toBe(project);
  }).toPass();
  await page.getByLabel('Project').fill('');
  await expect(showing()).toHaveText('Showing 1–10 of 60');

  await page.getByLabel('Sort by').selectOption('url');
  await page.getByLabel('Order').selectOption('asc');
  await expect(async () => {
    const urls = await urlCells().allTextContents();
    expect(urls).toEqual([...urls].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(await rows().first().textContent()).not.toBe(firstRow);
  }).toPass();

  await page.getByLabel('Per page').selectOption('25');
  await expect(showing()).toHaveText('Showing 1–25 of 60');
  await expect(rows()).toHaveCount(25);
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(showing()).toHaveText('Showing 26–50 of 60');
  await page.getByRole('button', { name: /Next/ }).click();
  await expect(showing()).toHaveText('Showing 51–60 of 60');
  await expect(page.getByRole('button', { name: /Next/ })).toBeDisabled();

  // A restart opens the same screen with the same choices.
  await page.reload();
  await expect(showing()).toHaveText('Showing 51–60 of 60');
  await expect(page.getByLabel('Per page')).toHaveValue('25');
  await expect(page.getByLabel('Sort by')).toHaveValue('url');
  await expect(page.getByLabel('Order')).toHaveValue('asc');

  await page.getByLabel('Sort by').selectOption('id');
  await page.getByLabel('Order').selectOption('desc');
  await expect(showing()).toHaveText('Showing 1–25 of 60');
  await screenshotBoth(page, 'reports');
});

test('report: known fields laid out, unknown ones readable, URL copied', async () => {
  const link = urlCells().first().getByRole('link');
  const url = (await link.textContent())!;
  await link.click();
  await expect(page.getByRole('heading', { name: url })).toBeVisible();
  const other = page.getByLabel('Other fields');
  await expect(other.getByText('Summary', { exact: true })).toBeVisible();
  await expect(other.getByText('Checks', { exact: true })).toBeVisible();
  await expect(other).not.toContainText('{"');
  await page.getByRole('button', { name: 'Copy URL' }).click();
  await expect(page.getByText('The URL was copied.')).toBeVisible();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(url);
  await screenshotBoth(page, 'report');

  await page.getByRole('link', { name: '‹ Reports' }).click();
  await expect(showing()).toHaveText('Showing 1–25 of 60');
});

const NEW_URL = 'https://www.example.org/e2e/new-page';

test('create: the service’s 422 shows next to the URL; then the report is created and opened', async () => {
  stack.service.faults.add({
    method: 'POST',
    path: '/api/v1/reports',
    status: 422,
    body: JSON.stringify({
      message: 'The url has already been taken.',
      errors: { url: ['The url has already been taken.'] },
    }),
    times: 1,
  });
  await page.keyboard.press('Control+n');
  await expect(page.getByRole('heading', { name: 'New report' })).toBeVisible();
  const url = page.getByLabel('URL to analyse');
  await url.fill('example.org');
  await expect(fieldError(url)).toHaveText('Enter a full address starting with http:// or https://.');
  await url.fill(NEW_URL);
  await expect(fieldError(url)).toHaveCount(0);
  await page.getByRole('button', { name: 'Create report' }).click();
  await expect(fieldError(url)).toHaveText('The url has already been taken.');
  await screenshotBoth(page, 'create');

  await page.getByRole('button', { name: 'Create report' }).click();
  await expect(page.getByRole('heading', { name: NEW_URL })).toBeVisible();
  await expect(page).toHaveURL(/#\/reports\/[A-Za-z0-9_-]+$/);
  await expect(page.locator('.card').first()).toContainText('Public');
});

test('privacy: change to Password (password required), back on the report, updated', async () => {
  await page.getByRole('button', { name: 'Edit privacy' }).click();
  await expect(page.getByRole('heading', { name: 'Edit privacy' })).toBeVisible();
  await page.getByLabel(/^Password/).check();
  await page.getByRole('button', { name: 'Save privacy' }).click();
  await expect(fieldError(page.getByLabel('Report password'))).toHaveText(
    'A password-protected report needs a password.',
  );
  await page.getByLabel('Report password').fill('e2e-s3cret');
  await page.getByLabel('Yes').check();
  await screenshotBoth(page, 'privacy');
  await page.getByRole('button', { name: 'Save privacy' }).click();
  await expect(page.getByRole('heading', { name: NEW_URL })).toBeVisible();
  await expect(page.locator('.card').first().locator('.badge-privacy-2')).toHaveText('Password');
});

test('delete: a confirmation names the URL; afterwards the report is gone from the list', async () => {
  const before = stack.service.reportCount(ALPHA.apiKey);
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(NEW_URL);
  await screenshotBoth(page, 'delete');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete report' }).click();
  await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
  await expect(page.getByText(NEW_URL)).toHaveCount(0);
  expect(stack.service.reportCount(ALPHA.apiKey)).toBe(before - 1);
  await expect(showing()).toHaveText('Showing 1–25 of 60');
});

test('account: the fields the service sent, with the profile and base URL', async () => {
  await navTo('Account');
  await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
  await expect(page.getByText('Alpha Team')).toBeVisible();
  await expect(page.getByText('business')).toBeVisible();
  await expect(page.getByText(stack.service.baseUrl)).toBeVisible();
  await screenshotBoth(page, 'account');
});

test('profiles: add a second key, see where keys live, switch from the header', async () => {
  await navTo('Keys & profiles');
  await page.getByRole('button', { name: 'Add profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a profile' });
  await dialog.getByLabel('Profile name').fill('Beta');
  await dialog.getByLabel('Base URL').fill(stack.service.baseUrl);
  await dialog.getByLabel('API key').fill(BETA.apiKey);
  await dialog.getByRole('button', { name: 'Add profile' }).click();
  await expect(dialog).toHaveCount(0);
  const beta = page.locator('li.profile').filter({ hasText: 'Beta' });
  await expect(beta).toContainText(`•••• ${BETA.apiKey.slice(-4)}`);
  await expect(beta).toContainText('System keychain');
  await expect(page.locator('li.profile')).toHaveCount(2);
  await screenshotBoth(page, 'profiles');

  const switcher = page.getByLabel('Active profile');
  await switcher.selectOption({ label: 'Beta' });
  await navTo('Account');
  await expect(page.getByText('Beta Studio')).toBeVisible();
  await switcher.selectOption({ label: 'Alpha' });
  await expect(page.getByText('Alpha Team')).toBeVisible();
});

test('profiles: rename, a rejected replacement key keeps the old one, remove with confirmation', async () => {
  await navTo('Keys & profiles');
  const beta = page.locator('li.profile').filter({ hasText: 'Beta' });
  await beta.getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename Beta' });
  await rename.getByLabel('Profile name').fill('Beta (studio)');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename).toHaveCount(0);
  const renamed = page.locator('li.profile').filter({ hasText: 'Beta (studio)' });
  await expect(renamed).toBeVisible();
  await expect(page.getByLabel('Active profile').locator('option', { hasText: 'Beta (studio)' })).toHaveCount(
    1,
  );

  await renamed.getByRole('button', { name: 'Replace key' }).click();
  const replace = page.getByRole('dialog', { name: /Replace the key/ });
  await replace.getByLabel('New API key').fill('a-key-nobody-issued');
  await replace.getByRole('button', { name: 'Test and save' }).click();
  await expect(replace.getByRole('alert')).toContainText('rejected the API key');
  await page.keyboard.press('Escape');
  await expect(replace).toHaveCount(0);
  await expect(renamed).toContainText(`•••• ${BETA.apiKey.slice(-4)}`);

  await renamed.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('deletes the key from the keychain and the cached data');
  await confirm.getByRole('button', { name: 'Remove profile' }).click();
  await expect(page.locator('li.profile')).toHaveCount(1);
  await expect(page.getByLabel('Active profile').locator('option')).toHaveCount(1);
});

test('settings: make every report available offline, with progress and Cancel', async () => {
  await navTo('Settings');
  // Enough reports for several sync pages (100 each), and slow pages, so the progress bar and
  // its Cancel button can be seen and used.
  stack.service.seedReports(250, ALPHA.apiKey);
  stack.service.faults.add({ method: 'GET', path: '/api/v1/reports', delayMs: 3_000, passThrough: true });
  await page.getByRole('button', { name: 'Make available offline' }).click();
  const progress = page.getByRole('progressbar', { name: 'Making reports available offline' });
  await expect(progress).toBeVisible();
  await expect(page.locator('.sync-progress')).toContainText('100 of 250 reports');
  await expect(progress).toHaveAttribute('value', '100');
  await screenshotBoth(page, 'sync');
  await page.locator('.sync-progress').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Making reports available offline was cancelled.')).toBeVisible();
  await expect(progress).toHaveCount(0);

  stack.service.faults.clear();
  await page.getByRole('button', { name: 'Make available offline' }).click();
  await expect(page.getByText(/^\d+ reports are available offline[.;]/)).toBeVisible();
  await expect(
    page.locator('.field-row').filter({ hasText: 'Last made available offline' }),
  ).not.toContainText('Never');
  await expect(
    page.locator('.field-row').filter({ hasText: 'Reports saved for this profile' }),
  ).toContainText('250');
  await screenshotBoth(page, 'settings');
});

test('offline: the cache keeps the list browsable and searchable; writes are disabled; back online', async () => {
  await navTo('Reports');
  await expect(showing()).toHaveText('Showing 1–25 of 250');
  await stack.stopService();

  await page.keyboard.press('Control+r');
  await expect(page.getByText(/Offline since/)).toBeVisible();
  await expect(page.locator('.connectivity')).toHaveText('Offline');
  await expect(page.getByRole('button', { name: 'New report' })).toBeDisabled();

  const url = (await urlCells().nth(3).textContent())!;
  await page.getByLabel('Search URL').fill(url);
  await expect(async () => {
    const urls = await urlCells().allTextContents();
    expect(urls).toContain(url);
    for (const u of urls) expect(u).toContain(url);
  }).toPass();
  await expect(page.locator('.banner-offline')).toContainText(/Showing reports saved .* ago/);
  await screenshotBoth(page, 'offline');

  await urlCells().filter({ hasText: url }).first().getByRole('link').click();
  await expect(page.getByRole('heading', { name: url })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Edit privacy' })).toBeDisabled();

  // Asking while the service is still down keeps the app honestly offline.
  const tryAgain = page.getByRole('button', { name: 'Try again' });
  await tryAgain.click();
  await expect(tryAgain).toBeEnabled();
  await expect(page.locator('.connectivity')).toHaveText('Offline');

  // Once it is back, "Try again" brings the app online. Every read while offline also probes
  // the service, so the app may get there first and take the button away mid-click.
  await stack.restartService();
  await expect(async () => {
    if ((await tryAgain.count()) > 0) await tryAgain.click({ timeout: 1_000 });
    await expect(page.locator('.connectivity')).toHaveText('Online', { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByText(/Offline since/)).toHaveCount(0);
  await expect(page.locator('.connectivity')).toHaveText('Online');
  await expect(page.getByRole('button', { name: 'Delete' })).toBeEnabled();
});

test('settings: clear the cache after a confirmation', async () => {
  await navTo('Settings');
  await page.getByRole('button', { name: 'Clear cache' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Clear cache' }).click();
  await expect(page.getByText('The offline copy was cleared.')).toBeVisible();
  await expect(
    page.locator('.field-row').filter({ hasText: 'Reports saved for this profile' }),
  ).toContainText('0');
});
