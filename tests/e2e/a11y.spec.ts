/**
 * Screens for everyone, in Chromium against the preview and the reference service: axe-core
 * over every screen and dialog in light and dark (0 violations; Settings while a CLI sync runs
 * is in processes.spec.ts), where the focus goes after
 * navigation, a closed dialog and an invalid submit, a keyboard-only walk, a long URL, the
 * smallest window, and the sentences shown for a service's errors.
 */
import { expect, test, type Page } from '@playwright/test';
import {
  ALPHA,
  expectAccessible as expectAccessibleOn,
  screenshotBoth,
  startStack,
  type Stack,
} from './stack';

test.describe.configure({ mode: 'serial' });

let stack: Stack;
let page: Page;

test.beforeAll(async ({ browser }) => {
  stack = await startStack();
  page = await (await browser.newContext()).newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await stack?.stop();
});

const rows = () => page.locator('table.table tbody tr[data-row-index]');
const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const announcer = () => page.locator('[data-live-region]');

/** axe-core over this file's page (or a dialog) in light and in dark (see stack.ts). */
const expectAccessible = (what: string, include?: string) => expectAccessibleOn(page, what, include);

/** The focused element's tag and text, for focus assertions that read well when they fail. */
// Strings, not functions: this file is type-checked without the DOM library (see stack.ts).
async function focused(): Promise<{ tag: string; text: string }> {
  return page.evaluate(
    `({ tag: document.activeElement?.tagName.toLowerCase() ?? '', text: (document.activeElement?.textContent ?? '').trim() })`,
  );
}

async function navTo(name: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}

/** Presses Tab until the focused element has this accessible text (bounded: 60 presses). */
async function tabTo(text: string | RegExp) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const label: string = await page.evaluate(
      `(() => { const el = document.activeElement; return (el?.getAttribute('aria-label') ?? el?.labels?.[0]?.textContent ?? el?.textContent ?? '').trim(); })()`,
    );
    if (typeof text === 'string' ? label === text : text.test(label)) return;
  }
  throw new Error(`Tab never reached ${String(text)}`);
}

test('welcome and first profile: accessible in light and dark', async () => {
  await page.goto(stack.preview.url);
  await expect(heading('Welcome to ReportDesk')).toBeVisible();
  await expectAccessible('Welcome');

  // An invalid submit: focus on the first invalid field, and how many need attention.
  await page.getByRole('button', { name: 'Add profile' }).click();
  await page.getByLabel('Profile name').fill('');
  await page.getByRole('button', { name: 'Add profile' }).click();
  await expect(page.getByLabel('Profile name')).toBeFocused();
  await expect(announcer()).toHaveText(/^3 fields need attention\./);
  await expectAccessible('Welcome with field errors');

  await page.getByLabel('Profile name').fill('Alpha');
  await page.getByLabel('Base URL').fill(stack.service.baseUrl);
  await page.getByLabel('API key').fill(ALPHA.apiKey);
  await page.getByRole('button', { name: 'Add profile' }).click();
  await expect(heading('Reports')).toBeVisible();
  await expect(rows()).toHaveCount(10);
});

test('every screen has no axe violations in light and dark', async () => {
  await expectAccessible('Reports list');
  await rows().first().locator('td').nth(2).click();
  await expect(page.getByRole('button', { name: 'Edit privacy' })).toBeVisible();
  await expectAccessible('Report detail');
  await page.getByRole('button', { name: 'Edit privacy' }).click();
  await expect(heading('Edit privacy')).toBeVisible();
  await expectAccessible('Edit privacy');
  await navTo('New report');
  await expect(heading('New report')).toBeVisible();
  await expectAccessible('New report');
  await navTo('Account');
  await expect(page.getByText('Alpha Team')).toBeVisible();
  await expectAccessible('Account');
  await navTo('Keys & profiles');
  await expect(heading('Keys & profiles')).toBeVisible();
  await expectAccessible('Keys & profiles');
  await navTo('Settings');
  await expect(heading('Settings')).toBeVisible();
  await expectAccessible('Settings');
  await page.goto(`${stack.preview.url}#/nowhere`);
  await expect(heading('Page not found')).toBeVisible();
  await expectAccessible('Not found');
});

test('every dialog: axe clean, described, modal (background inert), focus back to its opener', async () => {
  await navTo('Keys & profiles');
  const dialogs: { open: string; role: 'dialog' | 'alertdialog'; name: RegExp }[] = [
    { open: 'Add profile', role: 'dialog', name: /Add a profile/ },
    { open: 'Rename', role: 'dialog', name: /Rename/ },
    { open: 'Replace key', role: 'dialog', name: /Replace the key/ },
    { open: 'Remove', role: 'alertdialog', name: /Remove/ },
  ];
  for (const { open, role, name } of dialogs) {
    const opener = page.getByRole('button', { name: open, exact: true });
    await opener.click();
    const dialog = page.getByRole(role, { name });
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAttribute('aria-describedby', /.+/);
    const description = await dialog.evaluate(
      (el) => el.ownerDocument.getElementById(el.getAttribute('aria-describedby')!)?.textContent ?? '',
    );
    expect(description.length).toBeGreaterThan(10);
    // Outside <main>, with the app behind it inert (out of the tree and the Tab order).
    expect(await dialog.evaluate((el) => el.closest('main') === null)).toBe(true);
    expect(await page.locator('#root').getAttribute('inert')).toBe('');
    await expectAccessible(`${open} dialog`);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
    expect(await page.locator('#root').getAttribute('inert')).toBeNull();
  }

  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await expectAccessible('Shortcut sheet');
  await screenshotBoth(page, 'shortcuts');
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);

  await navTo('Settings');
  await page.getByRole('button', { name: 'Clear cache' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await expectAccessible('Clear cache confirmation');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
});

test('navigation moves the focus to the new screen’s heading and announces it', async () => {
  for (const [link, title] of [
    ['Account', 'Account'],
    ['Reports', 'Reports'],
    ['Keys & profiles', 'Keys & profiles'],
  ] as const) {
    await navTo(link);
    await expect(heading(title)).toBeFocused();
    await expect(announcer()).toHaveText(new RegExp(`^${title} screen`));
  }
});

test('on a start whose words arrive late, navigation still focuses and names the new screen', async () => {
  // The English words held back: the list's data is in before the first render, so the header
  // and the screens mount together (the order in which the route reached them once differed).
  const late = await page.context().newPage();
  try {
    await late.route(/catalogue-en-[^/]*\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await late.goto(`${stack.preview.url}#/settings`);
    await expect(late.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    for (const [link, title] of [
      ['Account', 'Account'],
      ['Reports', 'Reports'],
    ] as const) {
      await late
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: link, exact: true })
        .click();
      await expect(late.getByRole('heading', { level: 1, name: title })).toBeFocused();
      await expect(late.locator('[data-live-region]')).toHaveText(new RegExp(`^${title} screen`));
    }
  } finally {
    await late.close();
  }
});

test('invalid submit focuses the first invalid field and says how many need attention', async () => {
  await navTo('New report');
  await expect(heading('New report')).toBeFocused();
  await page.getByRole('button', { name: 'Create report' }).click();
  await expect(page.getByLabel('URL to analyse')).toBeFocused();
  await expect(announcer()).toHaveText(/^1 field needs attention\./);
  await page.getByLabel(/^Password/).check();
  await page.getByRole('button', { name: 'Create report' }).click();
  await expect(page.getByLabel('URL to analyse')).toBeFocused();
  await expect(announcer()).toHaveText(/^2 fields need attention\./);
  await expectAccessible('New report with errors');

  await page.getByLabel('URL to analyse').fill('https://www.example.org/a11y/focus');
  await page.getByRole('button', { name: 'Create report' }).click();
  await expect(page.getByLabel('Report password')).toBeFocused();
  await expect(announcer()).toHaveText(/^1 field needs attention\./);
});

test('keyboard only: list keys, open, select, change privacy, delete, shortcut sheet', async () => {
  await navTo('Account');
  await navTo('Reports');
  await expect(heading('Reports')).toBeFocused();
  await page.keyboard.press('j');
  await expect(rows().nth(0)).toBeFocused();
  await page.keyboard.press('j');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('k');
  await expect(rows().nth(1)).toBeFocused();
  await expect(rows().nth(1)).toHaveClass(/row-focus/);

  // Space selects; Shift+Space extends; the bar says how many.
  await page.keyboard.press('Space');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('Shift+Space');
  await expect(page.locator('.selection-bar')).toContainText('3 selected on this page');
  await expect(rows().nth(1).getByRole('checkbox')).toBeChecked();
  await expect(rows().nth(3).getByRole('checkbox')).toBeChecked();
  await tabTo('Clear selection');
  await page.keyboard.press('Enter');
  await expect(page.locator('.selection-bar')).not.toContainText('selected');

  // Back into the rows (Shift+Tab reaches the row that had the focus), and open one.
  await page.keyboard.press('Shift+Tab');
  for (let i = 0; i < 40 && !(await focused()).tag.match(/^tr$/); i++) await page.keyboard.press('Shift+Tab');
  expect((await focused()).tag).toBe('tr');
  const url: string = await page.evaluate(`document.activeElement?.querySelector('a')?.textContent ?? ''`);
  // The report, not its URL: the seed's pages have several reports each.
  const link: string = await page.evaluate(
    `document.activeElement?.querySelector('a')?.getAttribute('href') ?? ''`,
  );
  expect(link).toMatch(/^#\/reports\/.+/);
  await page.keyboard.press('Enter');
  await expect(heading(url)).toBeFocused();

  await tabTo('Edit privacy');
  await page.keyboard.press('Enter');
  await expect(heading('Edit privacy')).toBeFocused();
  // A radio group is one Tab stop; the arrow keys choose within it.
  await tabTo(/^(Public|Private|Password)/);
  for (let i = 0; i < 3 && !(await page.getByLabel(/^Private/).isChecked()); i++) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(page.getByLabel(/^Private/)).toBeChecked();
  await tabTo('Save privacy');
  await page.keyboard.press('Enter');
  await expect(heading(url)).toBeFocused();
  await expect(page.locator('.card').first().locator('.badge-privacy-1')).toHaveText('Private');

  await tabTo('Delete');
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Delete report' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toHaveCount(0);
  await expect(heading('Reports')).toBeFocused();
  await expect(rows().first()).toBeVisible();
  await expect(page.locator(`a[href="${link}"]`)).toHaveCount(0);

  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(heading('Reports')).toBeFocused();

  // Ctrl+N, the form, Enter: a report created without the mouse.
  await page.keyboard.press('Control+n');
  await expect(heading('New report')).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.type('https://www.example.org/keyboard-only');
  await page.keyboard.press('Enter');
  await expect(heading('https://www.example.org/keyboard-only')).toBeFocused();
});

test('after a confirmed delete whose opener is gone, the focus is on the heading', async () => {
  await navTo('Keys & profiles');
  await page.getByRole('button', { name: 'Add profile' }).click();
  const add = page.getByRole('dialog', { name: 'Add a profile' });
  await add.getByLabel('Profile name').fill('Second');
  await add.getByLabel('Base URL').fill(stack.service.baseUrl);
  await add.getByLabel('API key').fill(ALPHA.apiKey);
  await add.getByRole('button', { name: 'Add profile' }).click();
  await expect(add).toHaveCount(0);
  const second = page.locator('li.profile').filter({ hasText: 'Second' });
  await second.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove profile' }).click();
  await expect(page.locator('li.profile')).toHaveCount(1);
  await expect(heading('Keys & profiles')).toBeFocused();
});

const LONG_URL = 'https://www.example.org/' + 'a-rather-long-path-segment/'.repeat(8) + 'page?x=1';

test('a long URL is cut short with a tooltip, and the dates do not wrap', async () => {
  expect(LONG_URL.length).toBeGreaterThan(240);
  await navTo('New report');
  await page.getByLabel('URL to analyse').fill(LONG_URL);
  await page.getByRole('button', { name: 'Create report' }).click();
  await expect(heading(LONG_URL)).toBeVisible();
  await navTo('Reports');
  await page.getByLabel('Sort by').selectOption('id');
  await page.getByLabel('Order').selectOption('desc');
  const row = rows().filter({ hasText: 'a-rather-long-path-segment' });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('link')).toHaveAttribute('title', LONG_URL);
  const heights = await rows().evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
  expect(Math.max(...heights) - Math.min(...heights)).toBeLessThan(2);
  // Every date on one line: its cell is no taller than a line of text plus padding.
  const dateLines = await rows()
    .locator('time')
    .evaluateAll((times) =>
      times.map(
        (t) =>
          t.getBoundingClientRect().height /
          parseFloat(t.ownerDocument.defaultView!.getComputedStyle(t).lineHeight),
      ),
    );
  for (const lines of dateLines) expect(lines).toBeLessThan(1.5);
  const cell = row.locator('td.url-cell');
  expect(await cell.evaluate((td) => td.scrollWidth > td.clientWidth)).toBe(true);
});

test('at the 720×480 minimum: a two-row toolbar, several rows visible, toasts clear of the pager', async () => {
  await page.setViewportSize({ width: 720, height: 480 });
  try {
    await navTo('Reports');
    await expect(rows()).toHaveCount(10);
    // Measured without messages: they take their own room under the content while shown.
    for (let i = 0; i < 5 && (await page.locator('.toast').count()) > 0; i++) {
      await page.getByRole('button', { name: 'Dismiss message' }).first().click();
    }
    await expect(page.locator('.toast')).toHaveCount(0);
    // Fields whose tops are more than half a field apart sit on different rows.
    const tops = await page
      .locator('.toolbar .toolbar-field')
      .evaluateAll((fields) => fields.map((f) => f.getBoundingClientRect().top).sort((x, y) => x - y));
    const fieldTops = tops.filter((top, i) => i === 0 || top - tops[i - 1] > 20).length;
    expect(fieldTops).toBeLessThanOrEqual(2);
    const wrap = await page.locator('.table-wrap').boundingBox();
    const visible = await rows().evaluateAll(
      (trs, bottom) => trs.filter((tr) => tr.getBoundingClientRect().bottom <= bottom).length,
      wrap!.y + wrap!.height,
    );
    expect(visible).toBeGreaterThanOrEqual(4);
    // The pager is on screen, not below the fold.
    const pager = await page.getByRole('button', { name: /Next/ }).boundingBox();
    expect(pager!.y + pager!.height).toBeLessThanOrEqual(480);
    await expectAccessible('Reports list at 720×480');

    // A message never covers the pager's Next.
    await rows().first().locator('td').nth(2).click();
    await page.getByRole('button', { name: 'Open in browser' }).click();
    await expect(page.locator('.toast')).toContainText('cannot open your browser');
    await navTo('Reports');
    const next = await page.getByRole('button', { name: /Next/ }).boundingBox();
    const toast = await page.locator('.toast').first().boundingBox();
    expect(next && toast).toBeTruthy();
    const overlaps =
      next!.x < toast!.x + toast!.width &&
      toast!.x < next!.x + next!.width &&
      next!.y < toast!.y + toast!.height &&
      toast!.y < next!.y + next!.height;
    expect(overlaps).toBe(false);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test('error sentences quote a JSON message or an HTML title as sent (bidi-isolated), never the raw body', async () => {
  await navTo('Reports');
  await expect(rows()).toHaveCount(10);
  const REPORTS = '/api/v1/reports';
  const alertText = () => page.locator('.error-view').first();

  stack.service.faults.add({ method: 'GET', path: REPORTS, status: 500, body: '{"message":"Server Error"}' });
  await page.keyboard.press('Control+r');
  // What the service said is its own text: isolated (U+2068 … U+2069), so its direction cannot
  // reorder the sentence around it.
  await expect(alertText()).toContainText(
    'The Report Service had an internal problem (HTTP 500, "\u2068Server Error\u2069").',
  );
  await expect(alertText()).not.toContainText('{');
  stack.service.faults.clear();

  stack.service.faults.add({
    method: 'GET',
    path: REPORTS,
    status: 502,
    contentType: 'text/html',
    body: '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>',
  });
  await page.keyboard.press('Control+r');
  await expect(alertText()).toContainText('(HTTP 502, "\u2068502 Bad Gateway\u2069")');
  await expect(alertText()).not.toContainText('nginx');
  await expectAccessible('Reports list with an error');
  stack.service.faults.clear();

  // A 429 states its wait once, counts down on Retry, and turns Retry on when it is over.
  stack.service.faults.add({ method: 'GET', path: REPORTS, status: 429, headers: { 'Retry-After': '3' } });
  await page.keyboard.press('Control+r');
  await expect(alertText()).toContainText('HTTP 429');
  const text = (await alertText().textContent()) ?? '';
  expect(text.match(/wait 3 seconds/g) ?? []).toHaveLength(1);
  const retry = alertText().getByRole('button', { name: /^Retry/ });
  await expect(retry).toBeDisabled();
  await expect(retry).toHaveText(/^Retry in \d s$/);
  stack.service.faults.clear();
  await expect(retry).toBeEnabled({ timeout: 15_000 });
  await expect(retry).toHaveText('Retry');
  await retry.click();
  await expect(page.locator('.error-view')).toHaveCount(0);
});
