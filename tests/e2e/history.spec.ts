/**
 * History (issue 27) in the real UI: the preview over the real core, the reference service's
 * seed (URLs analysed again and again over a year). Before the first full read the screen says
 * history is not available offline and offers to make it so; after it, the chart's and the
 * table's numbers, and a Compare, equal what `report-desk cache history / compare --json` print
 * for the same data folder and time zone (the CLI run as a process of its own). A report's page
 * lists its URL's reports as `cache timeline` does. With the service stopped the screen works
 * the same. Axe clean in light and dark; the README's pictures.
 */
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { spawnCliCaptured } from '../helpers/cli';
import { addAlphaProfile, expectAccessible, screenshotBoth, startStack, type Stack } from './stack';

/** The zone the browser shows dates in (playwright.config.ts) and the CLI is given as TZ. */
const TIME_ZONE = 'Europe/London';

interface CliPeriod {
  start: string;
  end: string;
  urls: { good: number; decent: number; bad: number };
  generated: { good: number; decent: number; bad: number };
}
interface CliChange {
  url: string;
  before: string | null;
  after: string;
  beforeId: string | null;
  afterId: string;
}

let stack: Stack;

test.beforeAll(async () => {
  stack = await startStack();
  await addAlphaProfile(stack);
});
test.afterAll(async () => {
  await stack?.stop();
});

async function cliJson<T>(args: string[]): Promise<T> {
  const env = { REPORT_DESK_DATA_DIR: join(stack.dataDir, 'app'), REPORT_DESK_API_KEY: '', TZ: TIME_ZONE };
  const run = await spawnCliCaptured([...args, '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

const live = (page: Page) => page.locator('[data-live-region]');
const chart = (page: Page) => page.getByRole('group', { name: 'URLs by result at the end of each period' });

/** "…: 3 good, 1 decent, 2 bad; 4 reports generated" → its four numbers. */
function numbersOf(sentence: string): number[] {
  const match = /: (\d+) good, (\d+) decent, (\d+) bad; (\d+) reports? generated/.exec(sentence);
  expect(match, sentence).not.toBeNull();
  return match!.slice(1).map(Number);
}

const cliNumbers = (p: CliPeriod) => [
  p.urls.good,
  p.urls.decent,
  p.urls.bad,
  p.generated.good + p.generated.decent + p.generated.bad,
];

/** The table view's rows as numbers: good, decent, bad, reports generated. */
async function tableNumbers(page: Page): Promise<number[][]> {
  const table = page.locator('table.history-periods-table');
  await expect(table).toBeVisible();
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].slice(0, 4).map((td) => Number(td.textContent))),
    );
}

test('History: not available before the first full read, then the CLI’s numbers on the chart, the table and Compare, offline too', async ({
  page,
}) => {
  await page.goto(`${stack.preview.url}#/history`);
  await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
  await expect(page.getByText(/this profile is not available offline yet/)).toBeVisible();
  await expectAccessible(page, 'History before the first full read');
  await page.getByRole('button', { name: 'Make available offline' }).click();
  await expect(chart(page)).toBeVisible({ timeout: 30_000 });

  // Months: a year of the seed in about a dozen columns.
  await page.getByLabel('Periods').selectOption('month');
  const history = await cliJson<{ by: string; periods: CliPeriod[] }>(['cache', 'history', '--by', 'month']);
  expect(history.periods.length).toBeGreaterThan(6);
  // The seed's URLs were analysed again and again: some period has URLs carried over from before it.
  expect(history.periods.some((p) => p.urls.good + p.urls.decent + p.urls.bad > 0)).toBe(true);

  // The chart, period by period from the first, as the live region says each.
  await expect(chart(page)).toHaveAttribute('data-periods', String(history.periods.length));
  await chart(page).focus();
  await page.keyboard.press('Home');
  const fromChart: number[][] = [];
  for (let i = 0; i < history.periods.length; i++) {
    if (i > 0) await page.keyboard.press('ArrowRight');
    await expect(live(page)).toContainText(i === 0 ? /: \d+ good/ : /./);
    fromChart.push(numbersOf((await live(page).textContent()) ?? ''));
  }
  expect(fromChart).toEqual(history.periods.map(cliNumbers));
  await expectAccessible(page, 'History chart');
  await screenshotBoth(page, 'history');

  await page.getByRole('button', { name: 'Table', exact: true }).click();
  expect(await tableNumbers(page)).toEqual(history.periods.map(cliNumbers));
  await expectAccessible(page, 'History table');

  // A period's URLs: as many as the CLI counted at its end.
  const third = history.periods[2];
  await page.locator('table.history-periods-table tbody tr').nth(2).getByRole('button').click();
  const urls = page.getByRole('region', { name: /^URLs at the end of/ });
  await expect(
    urls.getByText(`${third.urls.good} good, ${third.urls.decent} decent, ${third.urls.bad} bad`),
  ).toBeVisible();
  await expectAccessible(page, 'History: the URLs at a period’s end');

  // Compare the end of the third month with the start of the last.
  const from = third.end.slice(0, 10);
  const to = history.periods[history.periods.length - 1].start.slice(0, 10);
  const compared = await cliJson<{ changes: CliChange[] }>(['cache', 'compare', '--from', from, '--to', to]);
  expect(compared.changes.length).toBeGreaterThan(0);
  const region = page.getByRole('region', { name: 'Compare two dates' });
  await region.getByLabel('From').fill(from);
  await region.getByLabel('To').fill(to);
  await region.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(region.getByRole('status')).toContainText(`${compared.changes.length} URL`);
  const rows = () =>
    region.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => {
        const cells = [...tr.querySelectorAll('td')];
        const id = (td: (typeof cells)[number]) =>
          td.querySelector('a')?.getAttribute('href')?.replace('#/reports/', '') ?? null;
        return { url: cells[0].textContent, beforeId: id(cells[2]), afterId: id(cells[3]) };
      }),
    );
  expect(await rows()).toEqual(
    compared.changes.map(({ url, beforeId, afterId }) => ({ url, beforeId, afterId })),
  );
  await expectAccessible(page, 'History: Compare');

  // This URL over time, from a compared URL's report after.
  const first = compared.changes[0];
  await region
    .locator('tbody tr')
    .first()
    .getByRole('link', { name: `Report ${first.afterId}` })
    .click();
  const timeline = page.getByRole('region', { name: 'This URL over time' });
  await expect(timeline).toBeVisible();
  const cliTimeline = await cliJson<{ reports: { id: string }[]; transitions: { id: string }[] }>([
    'cache',
    'timeline',
    first.url,
  ]);
  const listed = await timeline
    .locator('ol > li')
    .evaluateAll((items) =>
      items.map((li) => [
        li.querySelector('a')?.getAttribute('href') ?? 'this',
        li.querySelector('.url-timeline-change') !== null,
      ]),
    );
  expect(listed).toEqual(
    cliTimeline.reports.map((r) => [
      r.id === first.afterId ? 'this' : `#/reports/${r.id}`,
      cliTimeline.transitions.some((t) => t.id === r.id),
    ]),
  );
  await expectAccessible(page, 'A report with This URL over time');
  await timeline.scrollIntoViewIfNeeded();
  await screenshotBoth(page, 'url-timeline');

  // The service goes away: history never needed it.
  await stack.stopService();
  await page.goto(`${stack.preview.url}#/history`);
  await page.getByLabel('Periods').selectOption('month');
  expect(await tableNumbers(page)).toEqual(history.periods.map(cliNumbers));
});
