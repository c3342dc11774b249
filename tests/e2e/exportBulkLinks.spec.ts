/**
 * Issue 14 end to end in Chromium against the preview, the real core and the reference
 * service: exports read back and compared with the service over every page (with planted
 * formula-looking projects), the overview's counts against the service's per-result totals,
 * bulk delete with one injected failure and bulk privacy, and the copy-link round trip.
 * Every new dialog passes axe and is driven by keyboard at least once.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { csvRecords } from '../helpers/csv';
import { plantTrickyReports, TRICKY_PROJECTS } from '../helpers/trickyReports';
import { ALPHA, BETA, expectAccessible, screenshotBoth, startStack, type Stack } from './stack';

test.describe.configure({ mode: 'serial' });

let stack: Stack;
let page: Page;
let alphaId: string;
let betaId: string;
let planted: string[];
/** More than one page of 100, so the exports really follow pages. */
const TOTAL = 230;

type ServiceReport = Record<string, unknown> & { id: number | string };

/** What the service itself lists for a query, every page, straight over HTTP. */
async function serviceList(apiKey: string, params: Record<string, string> = {}): Promise<ServiceReport[]> {
  const out: ServiceReport[] = [];
  for (let page = 1; page <= 100; page++) {
    const query = new URLSearchParams({ ...params, per_page: '100', page: String(page) });
    const response = await fetch(`${stack.service.baseUrl}/api/v1/reports?${query}`, {
      headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
    });
    const body = (await response.json()) as { data: ServiceReport[]; meta: { last_page: number } };
    out.push(...body.data);
    if (page >= body.meta.last_page) return out;
  }
  throw new Error('The service did not stop paging.');
}

async function serviceTotal(params: Record<string, string>): Promise<number> {
  const query = new URLSearchParams(params);
  const response = await fetch(`${stack.service.baseUrl}/api/v1/reports?${query}`, {
    headers: { Authorization: `Bearer ${ALPHA.apiKey}`, Accept: 'application/json' },
  });
  return ((await response.json()) as { meta: { total: number } }).meta.total;
}

async function expectNoAxeViolations(selector: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

const rows = () => page.locator('table.table tbody tr:not(.skeleton-row)');

/** Runs "Export…" for the current list and answers the downloaded file's text. */
async function exportList(format: 'CSV' | 'JSON'): Promise<string> {
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export reports' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: new RegExp(`^${format}`) }).check();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: `Export ${format}` }).click();
  const file = await (await download).path();
  await expect(dialog).toBeHidden();
  return readFile(file, 'utf8');
}

test.beforeAll(async ({ browser }) => {
  stack = await startStack();
  stack.service.seedReports(TOTAL, ALPHA.apiKey);
  // Formula-looking projects cannot be made through the API: plant them in the service's data.
  await stack.stopService();
  planted = plantTrickyReports(join(stack.dataDir, 'service.json'), ALPHA.account.id as number);
  await stack.restartService();

  const add = stack.core.handlers['profiles:add'];
  const common = { baseUrl: stack.service.baseUrl, allowInsecureHttp: false, sessionOnly: false };
  betaId = (await add({ ...common, name: 'Beta', apiKey: BETA.apiKey })).id;
  alphaId = (await add({ ...common, name: 'Alpha', apiKey: ALPHA.apiKey })).id;

  const context = await browser.newContext({ acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.preview.origin });
  page = await context.newPage();
  await page.goto(stack.preview.url);
  await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
  await expect(rows()).toHaveCount(10);
});

test.afterAll(async () => {
  await page?.context().close();
  await stack?.stop();
});

test('export: CSV and JSON of every page equal the service’s list, formulas neutralised', async () => {
  // Nothing synced yet: no overview.
  await expect(page.getByRole('heading', { name: 'Overview' })).toHaveCount(0);
  const expected = await serviceList(ALPHA.apiKey);
  expect(expected.length).toBe(TOTAL);

  const before = stack.service.requests.length;
  const csv = csvRecords(await exportList('CSV'));
  // Every page of 100 was asked for, once.
  const pages = stack.service.requests
    .slice(before)
    .filter((r) => r.method === 'GET' && r.path === '/api/v1/reports' && r.query.includes('per_page=100'))
    .map((r) => new URLSearchParams(r.query).get('page') ?? '1');
  expect(pages).toEqual(['1', '2', '3']);
  expect(csv.header.slice(0, 6)).toEqual(['id', 'url', 'result', 'generated_at', 'privacy', 'project']);
  for (const field of Object.keys(expected[0])) expect(csv.header).toContain(field);
  expect(csv.records.map((r) => r.id)).toEqual(expected.map((r) => String(r.id)));
  csv.records.forEach((record, i) => {
    expect(record.url).toBe(expected[i].url);
    expect(record.result).toBe(expected[i].result);
    expect(record.generated_at).toBe(new Date(expected[i].generated_at as string).toISOString());
  });
  planted.forEach((id, i) => {
    const project = TRICKY_PROJECTS[i];
    const cell = csv.records.find((r) => r.id === id)!.project;
    expect(cell).toBe(/^[=+\-@\t\r]/.test(project) ? `'${project}` : project);
  });
  await expect(page.getByText(new RegExp(`Exported ${TOTAL} reports to reports-.*\\.csv\\.`))).toBeVisible();

  // With a filter and by keyboard: JSON of every matching page.
  await page.getByLabel('Result').selectOption('bad');
  const bad = await serviceList(ALPHA.apiKey, { result: 'bad' });
  await page.getByRole('button', { name: 'Export…' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Export reports' });
  await expect(dialog.getByRole('radio', { name: /^CSV/ })).toBeFocused();
  await expectNoAxeViolations('.modal');
  await screenshotBoth(page, 'export');
  await page.keyboard.press('ArrowDown');
  await expect(dialog.getByRole('radio', { name: /^JSON/ })).toBeChecked();
  const download = page.waitForEvent('download');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Export JSON' })).toBeFocused();
  await page.keyboard.press('Enter');
  const json = JSON.parse(await readFile(await (await download).path(), 'utf8')) as {
    source: string;
    count: number;
    data: ServiceReport[];
  };
  expect(json.source).toBe('network');
  expect(json.count).toBe(bad.length);
  expect(json.data).toEqual(bad.map((r) => ({ ...r, id: String(r.id) })));
  await page.getByLabel('Result').selectOption('');
});

test('overview: after a full sync, counts equal the service’s per-result totals, overall and per project', async () => {
  await stack.core.handlers['cache:sync'](undefined);
  await page.reload();
  const overview = page.getByRole('region', { name: 'Overview' });
  await expect(overview).toBeVisible();
  await expect(overview).toContainText('From the offline copy, synced');
  const table = overview.locator('table');
  const cells = async (rowName: string) =>
    (
      await table
        .getByRole('row', { name: new RegExp(`^${rowName}`) })
        .locator('td')
        .allTextContents()
    ).map(Number);

  const totals = await Promise.all(['good', 'decent', 'bad'].map((result) => serviceTotal({ result })));
  expect(await cells('All matching reports')).toEqual([...totals, TOTAL]);

  const projects = [...new Set((await serviceList(ALPHA.apiKey)).map((r) => r.project))].filter(
    (p): p is string => typeof p === 'string' && !p.includes('"') && !p.startsWith('\t'),
  );
  for (const project of projects.slice(0, 4)) {
    const perResult = await Promise.all(
      ['good', 'decent', 'bad'].map((result) => serviceTotal({ result, project })),
    );
    const escaped = project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(await cells(escaped)).toEqual([...perResult, perResult.reduce((a, b) => a + b, 0)]);
  }

  // For the list's filters: only the good ones.
  await page.getByLabel('Result').selectOption('good');
  await expect.poll(() => cells('All matching reports')).toEqual([totals[0], 0, 0, totals[0]]);
  await page.getByLabel('Result').selectOption('');
  await expectNoAxeViolations('.overview');
  await screenshotBoth(page, 'overview');

  // Keyboard: the panel folds away and comes back.
  await overview.getByRole('button', { name: 'Hide overview' }).focus();
  await page.keyboard.press('Enter');
  await expect(table).toHaveCount(0);
  await overview.getByRole('button', { name: 'Show overview' }).press('Enter');
  await expect(table).toHaveCount(1);
});

test('overview: the chart leaves the list its room, and a short window gets one line of counts', async () => {
  const overview = page.getByRole('region', { name: 'Overview' });
  const drawn = overview.locator('.overview-projects .overview-project-name');
  const projectCount = (await overview.locator('table tbody tr').count()) - 1;
  expect(projectCount).toBeGreaterThan(4);
  await expect(drawn).toHaveCount(4);

  // By keyboard, all projects are drawn, then the four largest again.
  await overview.getByRole('button', { name: `Show all ${projectCount} projects` }).press('Enter');
  await expect(drawn).toHaveCount(projectCount);
  await expectAccessible(page, 'Overview with every project drawn', '.overview');
  await overview.getByRole('button', { name: 'Show the 4 largest projects' }).press('Enter');
  await expect(drawn).toHaveCount(4);
  const wrapAt800 = (await page.locator('.table-wrap').boundingBox())!;
  expect(wrapAt800.height).toBeGreaterThanOrEqual(250);

  await page.setViewportSize({ width: 720, height: 480 });
  try {
    await expect(overview.locator('.overview-bars')).toBeHidden();
    await expect(overview.locator('.overview-projects')).toBeHidden();
    await expect(overview.locator('.overview-summary')).toBeVisible();
    const [good, decent, bad] = await overview
      .locator('table tbody tr')
      .first()
      .locator('td')
      .allTextContents();
    await expect(overview.locator('.overview-total')).toContainText(
      `${TOTAL} matching reports · ${good} good · ${decent} decent · ${bad} bad`,
    );
    // The list keeps four whole rows and its pager on screen, as without the overview (a11y.spec.ts).
    const wrap = (await page.locator('.table-wrap').boundingBox())!;
    const whole = await rows().evaluateAll(
      (trs, bottom) => trs.filter((tr) => tr.getBoundingClientRect().bottom <= bottom).length,
      wrap.y + wrap.height,
    );
    expect(whole).toBeGreaterThanOrEqual(4);
    const next = (await page.getByRole('button', { name: /Next/ }).boundingBox())!;
    expect(next.y + next.height).toBeLessThanOrEqual(480);
    await expectAccessible(page, 'Reports list at 720×480 with the one-line overview');
    await screenshotBoth(page, 'overview-short-window');
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test('export offline: from the cache, and it says so', async () => {
  await stack.stopService();
  try {
    await page.keyboard.press('Control+r');
    await expect(page.locator('.connectivity')).toHaveText('Offline');
    await page.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export reports' });
    await expect(dialog.getByRole('note')).toContainText('the export comes from the offline copy');
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export CSV' }).click();
    const text = await readFile(await (await download).path(), 'utf8');
    expect(csvRecords(text).records).toHaveLength(TOTAL);
    await expect(
      page.getByText(`Exported ${TOTAL} reports from the offline copy saved`, { exact: false }),
    ).toBeVisible();

    // Bulk changes are off offline, and the reason is on screen.
    await rows().first().locator('input[type=checkbox]').check();
    await expect(page.getByRole('button', { name: 'Delete selected…' })).toBeDisabled();
    await expect(page.getByRole('group', { name: /Bulk actions/ })).toContainText('You are offline');
    await page.getByRole('button', { name: 'Clear selection' }).click();
  } finally {
    await stack.restartService();
  }
  await expect(page.locator('.connectivity')).toHaveText('Online', { timeout: 20_000 });
});

test('export: Cancel stops a running export and saves nothing', async () => {
  // Every list page takes a while, so there is time to cancel.
  stack.service.faults.add({
    method: 'GET',
    path: '/api/v1/reports',
    delayMs: 700,
    passThrough: true,
    times: 5,
  });
  let downloaded = false;
  page.on('download', () => (downloaded = true));
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export reports' });
  await dialog.getByRole('button', { name: 'Export CSV' }).click();
  await expect(dialog.getByRole('status')).toHaveText(/Starting the export…|Fetched \d+ of \d+ reports/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('The export was cancelled; nothing was saved.')).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(downloaded).toBe(false);
  stack.service.faults.clear();
});

test('bulk delete: one confirmation naming the count, one injected failure listed, list refreshed', async () => {
  await page.reload();
  await expect(rows()).toHaveCount(10);
  const ids = (await rows().locator('td:nth-child(2)').allTextContents()).slice(0, 3);
  // Checkbox, then Shift-click for the range.
  await rows().nth(0).locator('input[type=checkbox]').click();
  await rows()
    .nth(2)
    .locator('input[type=checkbox]')
    .click({ modifiers: ['Shift'] });
  await expect(page.getByText('3 selected on this page')).toBeVisible();
  await expectNoAxeViolations('.bulk-actions');

  stack.service.faults.add({
    method: 'DELETE',
    path: `/api/v1/reports/${ids[1]}`,
    status: 500,
    body: JSON.stringify({ message: 'Storage is read-only right now.' }),
    times: 1,
  });
  const before = stack.service.requests.length;
  await page.getByRole('button', { name: 'Delete selected…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete 3 reports?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoAxeViolations('.modal');
  await dialog.getByRole('button', { name: 'Delete 3 reports' }).click();
  await expect(dialog.getByRole('alert')).toContainText('2 of 3 reports were deleted. 1 report failed:');
  await expect(dialog.getByRole('listitem')).toHaveText([new RegExp(`^Report ${ids[1]}: .+`)]);
  await expectNoAxeViolations('.modal');
  await screenshotBoth(page, 'bulk');
  await dialog.getByRole('button', { name: 'Close' }).click();
  // What failed stays selected, ready to try again.
  await expect(page.getByText('1 selected on this page')).toBeVisible();
  await expect(rows().filter({ has: page.locator('input[type=checkbox]:checked') })).toHaveText([
    new RegExp(`^${ids[1]}`),
  ]);

  const deletes = stack.service.requests.slice(before).filter((r) => r.method === 'DELETE');
  // Each once, never retried, the failed one included.
  expect(deletes.map((r) => r.path).sort()).toEqual(ids.map((id) => `/api/v1/reports/${id}`).sort());
  const left = (await serviceList(ALPHA.apiKey)).map((r) => String(r.id));
  expect(left).toContain(ids[1]);
  expect(left).not.toContain(ids[0]);
  expect(left).not.toContain(ids[2]);
  await expect(rows().locator('td:nth-child(2)')).not.toContainText([ids[0]]);
  await expect(page.locator('.pagination > span')).toHaveText(`Showing 1–10 of ${TOTAL - 2}`);
  await page.getByRole('button', { name: 'Clear selection' }).click();
});

test('bulk privacy by keyboard: Space selects, the change reaches the service', async () => {
  const ids = (await rows().locator('td:nth-child(2)').allTextContents()).slice(0, 2);
  await rows().first().focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await expect(page.getByText('2 selected on this page')).toBeVisible();
  await page.getByRole('button', { name: 'Change privacy…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change the privacy of 2 reports' });
  await expect(dialog.getByRole('radio', { name: 'Private' })).toBeFocused();
  await dialog.getByRole('radio', { name: 'Password' }).check();
  await dialog.getByLabel('Report password').fill('bulk-secret-1');
  await expectNoAxeViolations('.modal');
  await dialog.getByRole('button', { name: 'Change 2 reports' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('2 reports made password-protected.')).toBeVisible();
  const all = await serviceList(ALPHA.apiKey);
  for (const id of ids) expect(all.find((r) => String(r.id) === id)?.privacy).toBe(2);
});

test('links: Copy link, then open it from another profile; a missing profile is named', async () => {
  const id = (await rows().first().locator('td:nth-child(2)').textContent())!;
  const url = (await rows().first().locator('td:nth-child(3)').textContent())!;
  await rows().first().locator('td:nth-child(3) a').click();
  await expect(page.getByRole('heading', { name: url })).toBeVisible();
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.evaluate('navigator.clipboard.readText()');
  expect(link).toBe(`reportdesk://report/${id}?profile=${alphaId}`);

  // Switch to Beta, then open the link: ReportDesk goes back to Alpha and shows the report.
  await page.getByRole('link', { name: 'Reports', exact: true }).click();
  await page.getByLabel('Active profile').selectOption({ label: 'Beta' });
  await expect(page.getByLabel('Active profile')).toHaveValue(betaId);
  await page.getByRole('button', { name: 'Open link…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open a ReportDesk link' });
  await expect(dialog.getByLabel('Link')).toBeFocused();
  await expectNoAxeViolations('.modal');
  await page.keyboard.type(link as string);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: url })).toBeVisible();
  await expect(page.getByLabel('Active profile')).toHaveValue(alphaId);

  // A profile that is not here is named; nothing switches.
  await page.getByRole('link', { name: 'Reports', exact: true }).click();
  await page.getByRole('button', { name: 'Open link…' }).click();
  await dialog.getByLabel('Link').fill(`reportdesk://report/${id}?profile=someone-elses`);
  await dialog.getByRole('button', { name: 'Open' }).click();
  await expect(dialog).toContainText('“someone-elses”, which is not set up on this computer');
  await expect(page.getByLabel('Active profile')).toHaveValue(alphaId);

  // Without a profile: the active one.
  await dialog.getByLabel('Link').fill(`reportdesk://report/${id}`);
  await dialog.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('heading', { name: url })).toBeVisible();
});
