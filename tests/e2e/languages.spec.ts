/**
 * Languages in the real UI (issue 28), one test per language, each walking every screen in one
 * browser page against its own stack (the preview started as `npm run preview -- --lang CODE`):
 *  - en-XA at the 720×480 minimum: every screen and dialog shows only pseudo-localised text
 *    (user data aside: it is marked up with its own direction), and no text is cut off, drawn
 *    outside the window or over other text (tests/e2e/page/languageChecks.ts);
 *  - right to left (Arabic, or ar-XB until its translation lands): `<html lang dir="rtl">` from
 *    the first frame, the layout mirrored (the sidebar on the right, text starting on the right,
 *    the first column on the right, Next on the left), user data left to right and isolated
 *    inside sentences, the arrow keys following what the eye sees; axe clean, light and dark;
 *  - German and Arabic, as soon as their catalogues are in the repository: every screen axe clean
 *    in light and dark and laid out without text cut off at 720×480, and the README's pictures.
 */
import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { KeytarKeyStore } from '../../electron/core/keys/keyStore';
import { dataPaths } from '../../electron/core/services';
import { deadOwnerToken } from '../helpers/deadOwner';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { Language } from '../../shared/i18n/languages';
import type { MessageId, MessageValues } from '../../shared/i18n/messages';
import { hasCatalogue, wordsIn } from './languageWords';
import { pageScript } from './pageScript';
import { addAlphaProfile, ALPHA, expectAccessible, screenshotBoth, startStack, type Stack } from './stack';
import type { TextProblem } from './languageProblems';

const SMALLEST = { width: 720, height: 480 };
const USUAL = { width: 1280, height: 800 };

/** The right-to-left language the mirrored layout is checked in: Arabic once it is translated. */
const RIGHT_TO_LEFT: Language = hasCatalogue('ar') ? 'ar' : 'ar-XB';

interface Walk {
  stack: Stack;
  page: Page;
  /** The page's words in its language. */
  words: (id: MessageId, values?: MessageValues) => string;
}

async function open(browser: Browser, language: Language, viewport = SMALLEST): Promise<Walk> {
  const stack = await startStack({ language });
  const context = await browser.newContext({ viewport });
  await context.addInitScript({ content: pageScript('languageChecks.ts') });
  const page = await context.newPage();
  return { stack, page, words: wordsIn(language) };
}

async function close(walk: Walk | undefined): Promise<void> {
  await walk?.page.context().close();
  await walk?.stack.stop();
}

function summary(problems: TextProblem[]): string[] {
  return problems.map((p) => `${p.problem}: ${p.text} (${p.where})`);
}

/**
 * No text left in English (pseudo-languages only: real ones cannot be told from English this
 * way). Soft, as the next: the walk goes on and the test fails with every screen's problems.
 */
async function expectTranslated(page: Page, what: string): Promise<void> {
  const problems = await page.evaluate(() => globalThis.__languageChecks.untranslated());
  expect.soft(summary(problems), `${what}: text that did not come from the catalogue`).toEqual([]);
}

/** No text cut off, outside the window, or over other text. */
async function expectLaidOut(page: Page, what: string): Promise<void> {
  const problems = await page.evaluate(() => globalThis.__languageChecks.layout());
  expect.soft(summary(problems), `${what}: text that does not fit`).toEqual([]);
}

const rows = (page: Page) => page.locator('table.table tbody tr[data-row-index]');

function helpers({ page, words, stack }: Walk) {
  const heading = (id: MessageId) => page.getByRole('heading', { level: 1, name: words(id), exact: true });
  return {
    heading,
    button: (id: MessageId, values?: MessageValues) =>
      page.getByRole('button', { name: words(id, values), exact: true }),
    async navTo(id: MessageId) {
      await page
        .getByRole('navigation', { name: words('nav.label') })
        .getByRole('link', { name: words(id), exact: true })
        .click();
      await expect(heading(id)).toBeVisible();
    },
    /** Opens a dialog, looks at it, and closes it with Escape. */
    async inDialog(opener: () => Promise<void>, look: () => Promise<void>) {
      await opener();
      await expect(page.locator('[aria-modal="true"]')).toBeVisible();
      await look();
      await page.keyboard.press('Escape');
      await expect(page.locator('[aria-modal="true"]')).toHaveCount(0);
    },
    async addProfileOnWelcome() {
      await page.getByLabel(words('profile.field.name'), { exact: true }).fill('Alpha');
      await page.getByLabel(words('profile.field.base_url'), { exact: true }).fill(stack.service.baseUrl);
      await page.getByLabel(words('profile.field.api_key'), { exact: true }).fill(ALPHA.apiKey);
      await page.getByRole('button', { name: words('profiles.add'), exact: true }).click();
      await expect(rows(page)).toHaveCount(10);
    },
  };
}

/** A page made to fail the checks in every way they look for, and pass them where they must not look. */
const FIXTURE = `<!doctype html><html lang="en-XA"><head><title>ReportDesk</title></head>
<body style="margin: 0; font: 14px sans-serif">
  <p>[Ŝéţţîñĝš ~~~]</p>
  <p>Settings</p>
  <p><span dir="ltr">https://reports.example.com/a</span> <bdi>Alpha</bdi> <time>Nov 27, 2026, 10:00 PM</time></p>
  <p>[Šýñçéð ~~] 3 minutes ago</p>
  <p title="Open it">[Öƥéñ ~~]</p>
  <div style="width: 80px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis">[Ŵîðé ţéẋţ ţĥáţ ðöéš ñöţ ƒîţ ~~~]</div>
  <div style="position: absolute; left: 600px; top: 300px; white-space: nowrap">[Ţöö ƒáŕ ţö ţĥé ŕîĝĥţ ~~~~~~]</div>
  <div style="position: absolute; left: 10px; top: 400px">[Ƒîŕšţ ~~]</div>
  <div style="position: absolute; left: 14px; top: 402px">[Šéçöñð ~~]</div>
  <div style="position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap">[Ŝçŕééñ ŕéáðéŕš ~~~]</div>
  <div style="width: 200px; overflow: auto"><table><tr><td style="white-space: nowrap">[Á ŵîðé ţáƀļé ţĥáţ šçŕöļļš šîðéŵáýš ~~~~~~~~]</td></tr></table></div>
  <div style="width: 200px; overflow: auto"><p style="white-space: nowrap">[Šçŕöļļš šîðéŵáýš, ñöţ á ţáƀļé ~~~~~~~~]</p></div>
</body></html>`;

test('the checks find untranslated, cut-off, outside and overlapping text, and leave user data alone', async ({
  browser,
}) => {
  const page = await browser.newPage({ viewport: SMALLEST });
  try {
    await page.setContent(FIXTURE);
    await page.addScriptTag({ content: pageScript('languageChecks.ts') });
    const untranslated = summary(await page.evaluate(() => globalThis.__languageChecks.untranslated()));
    expect(untranslated).toEqual([
      'untranslated: Settings (p)',
      'untranslated: title="Open it" (p)',
      'untranslated: ReportDesk (document.title)',
    ]);
    const layout = summary(await page.evaluate(() => globalThis.__languageChecks.layout()));
    expect(layout).toEqual([
      expect.stringMatching(/^outside the window: \d+px too wide \(div\)$/),
      'cut off: [Ŵîðé ţéẋţ ţĥáţ ðöéš ñöţ ƒîţ ~~~] (div)',
      'outside the window: [Ţöö ƒáŕ ţö ţĥé ŕîĝĥţ ~~~~~~] (div)',
      'outside the window: [Šçŕöļļš šîðéŵáýš, ñöţ á ţáƀļé ~~~~~~~~] (div > p)',
      'overlapping: "[Ƒîŕšţ ~~]" and "[Šéçöñð ~~]" (div)',
    ]);
  } finally {
    await page.close();
  }
});

test('en-XA: every screen and dialog pseudo-localised, nothing cut off or overlapping at 720×480', async ({
  browser,
}) => {
  let walk: Walk | undefined;
  try {
    walk = await open(browser, 'en-XA');
    const { page, words, stack } = walk;
    const { heading, button, navTo, addProfileOnWelcome, inDialog } = helpers(walk);
    /** Every state below is looked at in the same two ways. */
    const look = async (what: string) => {
      await expectTranslated(page, what);
      await expectLaidOut(page, what);
    };
    const dialog = (what: string, opener: () => Promise<void>) => inDialog(opener, () => look(what));

    await page.goto(stack.preview.url);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
    await expect(heading('welcome.heading')).toBeVisible();
    await look('Welcome');
    await page.getByRole('button', { name: words('profiles.add'), exact: true }).click();
    await expect(page.locator('.field-error').first()).toBeVisible();
    await look('Welcome with field errors');
    await addProfileOnWelcome();
    await look('Reports list');

    await dialog('Shortcut sheet', () => page.keyboard.press('?'));
    await dialog('Open link', () => button('reports.open_link').click());
    await dialog('Export', () => button('reports.export').click());
    // Two rows picked: the selection bar and the bulk actions, then each confirmation.
    await rows(page).nth(0).locator('input[type="checkbox"]').check();
    await rows(page).nth(1).locator('input[type="checkbox"]').check();
    await expect(button('bulk.delete')).toBeVisible();
    await look('Reports list with two selected');
    await dialog('Delete selected', () => button('bulk.delete').click());
    await dialog('Change privacy of the selected', () => button('bulk.change_privacy').click());
    await button('reports.selection.clear').click();

    // The panels above the list: the overview of the offline copy and what changed since.
    const service = stack.service;
    await stack.core.handlers['cache:sync'](undefined);
    await stack.core.handlers['changes:markSeen'](undefined);
    const ids = service.reportIds(ALPHA.apiKey);
    service.changeReport(ids[4], { result: 'bad', privacy: 1 }, ALPHA.apiKey);
    service.addReports(2, ALPHA.apiKey);
    await stack.core.handlers['cache:sync'](undefined);
    await page.reload();
    await expect(rows(page)).toHaveCount(10);
    await expect(page.locator('.overview')).toBeVisible();
    await button('changes.show_list').click();
    await expect(page.locator('.changes-table tbody tr')).not.toHaveCount(0);
    await look('Reports list with the overview and the changes');

    await rows(page).first().locator('td').nth(2).click();
    await expect(button('privacy_form.heading')).toBeVisible();
    await look('Report');
    await dialog('Delete report', () => button('report.delete').click());
    await button('privacy_form.heading').click();
    await expect(heading('privacy_form.heading')).toBeVisible();
    await look('Edit privacy');

    // History over the synced copy: the chart (one period chosen), the table, a period's URLs, a compare.
    await navTo('history.heading');
    await expect(page.locator('.history-chart')).toBeVisible();
    await page.locator('.history-chart').focus();
    await page.keyboard.press('Home');
    await look('History chart');
    await button('history.view.table').click();
    await page.locator('table.history-periods-table tbody tr').first().getByRole('button').click();
    await expect(page.locator('.history-urls tbody tr').first()).toBeVisible();
    await look('History table and a period’s URLs');
    await button('history.view.chart').click();
    await button('history.compare_from_here').click();
    await page.keyboard.press('End');
    await page.locator('#history-compare-to').fill(new Date().toISOString().slice(0, 10));
    await button('history.compare.run').click();
    await expect(page.locator('.history-compare-summary')).toBeVisible();
    await look('History compare');

    await navTo('nav.new_report');
    await look('New report');
    await button('create.submit').click();
    await expect(page.locator('.field-error').first()).toBeVisible();
    await look('New report with an error');

    await navTo('account.heading');
    await expect(page.locator('.card').first()).toBeVisible();
    await look('Account');

    await navTo('nav.profiles');
    await look('Keys & profiles');
    await dialog('Add profile', () => button('profiles.add').click());
    await dialog('Rename', () => button('profiles.rename').click());
    await dialog('Replace key', () => button('profiles.replace_key').click());
    await dialog('Remove profile', () => button('profiles.remove').click());

    await navTo('settings.heading');
    await look('Settings');
    await dialog('Clear cache', () => button('settings.clear_cache').click());

    await page.goto(`${stack.preview.url}#/nowhere`);
    await expect(page.getByRole('heading', { level: 1, name: words('not_found.heading') })).toBeVisible();
    await look('Not found');

    // The service goes away: the banner, and an error from it on the next refresh.
    service.faults.add({
      method: 'GET',
      path: '/api/v1/reports',
      status: 500,
      body: '{"message":"Server Error"}',
    });
    await navTo('nav.reports');
    await page.keyboard.press('Control+r');
    await expect(page.locator('.error-view').first()).toBeVisible();
    await look('Reports list with an error from the service');
    service.faults.clear();
    await stack.stopService();
    await page.keyboard.press('Control+r');
    await expect(page.locator('.banner-offline')).toBeVisible({ timeout: 15_000 });
    await look('Offline');

    // Repairs (issue 30), last (the backup is of the empty list): profiles.json cut short (its backup
    // restored) and a key an add killed part way left.
    const { profiles } = dataPaths(`${stack.dataDir}/app`);
    truncateSync(profiles, 100);
    await stack.core.handlers['profiles:list'](undefined);
    const saved = JSON.parse(readFileSync(profiles, 'utf8')) as Record<string, unknown>;
    const pending = {
      at: new Date().toISOString(),
      owner: deadOwnerToken(),
      id: 'orphan-xa-0001',
      op: 'add',
    };
    const profile = { name: 'Gamma', baseUrl: 'https://gamma.example.com', allowInsecureHttp: false };
    await new KeytarKeyStore({}).set(pending.id, 'left-behind-key-9876');
    writeFileSync(profiles, JSON.stringify({ ...saved, pending: [{ ...pending, profile }] }));
    await page.reload();
    await expect(page.locator('.repair-banners section')).toHaveCount(2);
    await look('Repair banners');
    await dialog('Remove an orphaned key', () => button('damage.orphans.remove_one').click());

    // A damaged profiles file with no backup: its screen and the new list's confirmation.
    rmSync(`${profiles}.backup`, { force: true });
    truncateSync(profiles, 100);
    await page.reload();
    await expect(heading('damage.profiles_damaged.title')).toBeVisible();
    await look('Damaged profiles');
    await dialog('Start a new list', () => button('damage.profiles_damaged.start_afresh').click());
  } finally {
    await close(walk);
  }
});

test(`right to left (${RIGHT_TO_LEFT}): mirrored from the first frame, user data left to right, arrows as the eye sees them`, async ({
  browser,
}) => {
  let walk: Walk | undefined;
  try {
    walk = await open(browser, RIGHT_TO_LEFT, USUAL);
    const { page, words, stack } = walk;
    const { heading, button, navTo } = helpers(walk);
    await addAlphaProfile(stack);
    // The direction each frame is drawn in, from the first: an Arabic window never shows left to right.
    await page.context().addInitScript({
      content: `globalThis.__frameDirections = [];
        const record = () => { globalThis.__frameDirections.push(document.documentElement.dir || 'ltr');
          if (globalThis.__frameDirections.length < 30) requestAnimationFrame(record); };
        requestAnimationFrame(record);`,
    });
    await page.goto(`${stack.preview.url}#/reports`);
    await expect(rows(page)).toHaveCount(10);
    await expect(page.locator('html')).toHaveAttribute('lang', RIGHT_TO_LEFT);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const directions: string[] = await page.evaluate('globalThis.__frameDirections');
    expect(new Set(directions)).toEqual(new Set(['rtl']));

    // Mirrored: the sidebar on the right of the content, the heading starting on the right.
    const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;
    const nav = await box('.app-nav');
    const main = await box('main');
    expect(nav.x).toBeGreaterThanOrEqual(main.x + main.width - 1);
    const screen = await box('.screen-list');
    const title = await box('#reports-title');
    expect(screen.x + screen.width - (title.x + title.width)).toBeLessThan(40);
    // The first column (the checkboxes) on the right, the last (the date) on the left.
    const firstColumn = await box('table.table thead th.select-cell');
    const lastColumn = await box('table.table thead th:last-child');
    expect(firstColumn.x).toBeGreaterThan(lastColumn.x);
    // The pager: Next on the left of Previous.
    const next = (await button('pages.next').boundingBox())!;
    const previous = (await button('pages.previous').boundingBox())!;
    expect(next.x).toBeLessThan(previous.x);

    // User data keeps its own direction: a URL left to right, starting on the right of its cell.
    const urlCell = rows(page).first().locator('td.url-cell');
    await expect(urlCell).toHaveCSS('direction', 'ltr');
    await expect(urlCell).toHaveCSS('text-align', 'right');
    const cell = (await urlCell.boundingBox())!;
    const link = (await urlCell.locator('a').boundingBox())!;
    expect(cell.x + cell.width - (link.x + link.width)).toBeLessThan(20);
    expect((await urlCell.textContent())!).toMatch(/^https?:\/\//);

    // ← goes to the page drawn on the left (the next one), → back; from a row, as from the list.
    const currentPage = page.locator('.pagination [aria-current="page"]');
    // As the page formats it, in its own language (a string: this file is type-checked without the DOM).
    const pageNumber = (n: number): Promise<string> =>
      page.evaluate(`new Intl.NumberFormat(document.documentElement.lang).format(${n})`);
    await page.keyboard.press('j');
    await expect(rows(page).first()).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(currentPage).toHaveText(await pageNumber(2));
    await page.keyboard.press('ArrowRight');
    await expect(currentPage).toHaveText(await pageNumber(1));
    // The shortcut sheet names those keys as they are here.
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: words('shortcuts.title') });
    await expect(sheet.locator('div', { hasText: words('shortcuts.next_page') }).locator('kbd')).toHaveText(
      '←',
    );
    await expect(
      sheet.locator('div', { hasText: words('shortcuts.previous_page') }).locator('kbd'),
    ).toHaveText('→');
    await expectAccessible(page, `Shortcut sheet in ${RIGHT_TO_LEFT}`);
    await page.keyboard.press('Escape');
    await expectAccessible(page, `Reports list in ${RIGHT_TO_LEFT}`);

    // A report: the back link on the right, the URL heading left to right inside it.
    await rows(page).first().locator('td').nth(2).click();
    await expect(button('privacy_form.heading')).toBeVisible();
    const back = await box('.back-link');
    const detail = await box('.screen-detail');
    expect(detail.x + detail.width - (back.x + back.width)).toBeLessThan(40);
    await expect(page.locator('#report-title bdi')).toHaveCSS('direction', 'ltr');
    await expectAccessible(page, `Report in ${RIGHT_TO_LEFT}`);

    // Inside a sentence user data is isolated: its own direction cannot reorder the words around it.
    await navTo('nav.profiles');
    await button('profiles.remove').click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(`\u2068${stack.service.baseUrl}\u2069`);
    await expectAccessible(page, `Remove profile in ${RIGHT_TO_LEFT}`);
    await page.keyboard.press('Escape');

    await navTo('settings.heading');
    await expect(heading('settings.heading')).toBeVisible();
    await expectAccessible(page, `Settings in ${RIGHT_TO_LEFT}`);

    // History mirrored: the oldest period on the right, ← moves to the next (newer) one.
    await stack.core.handlers['cache:sync'](undefined);
    await navTo('history.heading');
    const columns = page.locator('.history-columns:not(.history-generated-row) .history-column');
    await expect(columns.first()).toBeVisible();
    const oldest = (await columns.first().boundingBox())!;
    const newest = (await columns.last().boundingBox())!;
    expect(oldest.x).toBeGreaterThan(newest.x);
    await page.locator('.history-chart').focus();
    await page.keyboard.press('Home');
    await expect(columns.nth(0)).toHaveClass(/selected/);
    await page.keyboard.press('ArrowLeft');
    await expect(columns.nth(1)).toHaveClass(/selected/);
    await page.keyboard.press('ArrowRight');
    await expect(columns.nth(0)).toHaveClass(/selected/);
    await expectAccessible(page, `History in ${RIGHT_TO_LEFT}`);
  } finally {
    await close(walk);
  }
});

for (const language of ['de', 'ar'] as const) {
  test(`${language}: every screen axe clean in light and dark, nothing cut off at 720×480`, async ({
    browser,
  }) => {
    test.skip(
      !hasCatalogue(language),
      `shared/i18n/catalogues/${language}.json is not in the repository yet`,
    );
    let walk: Walk | undefined;
    try {
      walk = await open(browser, language);
      const { page, words, stack } = walk;
      const { heading, button, navTo, addProfileOnWelcome, inDialog } = helpers(walk);
      const look = async (what: string) => {
        await expectLaidOut(page, what);
        await expectAccessible(page, `${what} in ${language}`);
      };
      const dialog = (what: string, opener: () => Promise<void>) => inDialog(opener, () => look(what));

      await page.goto(stack.preview.url);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      // The first screen drawn, not the page still waiting for it.
      await expect(heading('welcome.heading')).toBeVisible();
      await look('Welcome');
      await addProfileOnWelcome();
      await look('Reports list');
      await dialog('Shortcut sheet', () => page.keyboard.press('?'));
      await dialog('Export', () => button('reports.export').click());
      await rows(page).first().locator('td').nth(2).click();
      await expect(button('privacy_form.heading')).toBeVisible();
      await look('Report');
      await dialog('Delete report', () => button('report.delete').click());
      await navTo('nav.new_report');
      await button('create.submit').click();
      await expect(page.locator('.field-error').first()).toBeVisible();
      await look('New report with an error');
      await navTo('account.heading');
      await look('Account');
      await navTo('nav.profiles');
      await look('Keys & profiles');
      await dialog('Add profile', () => button('profiles.add').click());
      await navTo('settings.heading');
      await look('Settings');

      // The README's pictures: German Settings (the language chosen there), the Arabic list.
      await page.setViewportSize(USUAL);
      if (language === 'de') {
        // Chosen in Settings › Language, it replaces this run's --lang: Deutsch, named in itself.
        await page.getByLabel(words('language.label'), { exact: true }).selectOption({ value: 'de' });
        await expect(page.getByLabel(words('language.label'), { exact: true })).toHaveValue('de');
        await expect(page.getByText(words('language.run_language', { language }))).toHaveCount(0);
        await screenshotBoth(page, 'settings-de');
      } else {
        await navTo('nav.reports');
        await expect(rows(page)).toHaveCount(10);
        await screenshotBoth(page, 'reports-ar');
      }
    } finally {
      await close(walk);
    }
  });
}
