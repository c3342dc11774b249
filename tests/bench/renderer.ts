/**
 * renderer: the production bundle's size, and two timings of the real UI in Debian's Chromium
 * through the browser preview, answered FROM THE CACHE (the profile is synced, then the
 * service is stopped):
 *  - navigation → the first list of 100 rows on screen (performance.now() in the page is
 *    measured from the navigation's start, read at the first animation frame with 100 rows);
 *  - a click on a column header → the re-sorted list (performance.now() in the page before the
 *    click, then at the first animation frame whose first row is the report the cache says
 *    comes first in the new order).
 * The bundle is built into a temp folder, so dist/ (used by other test runs) is left alone.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startPreviewServer, type PreviewServer } from '../../electron/preview/server';
import { startDemoService } from '../../electron/demo-service/server';
import { normalizeListQuery, type SortBy, type SortDirection } from '../../shared/model';
import { emit, info, median, note, round, tempDir } from './common';
import { coreWithProfile, type BenchCore } from './core';
import { measureLanguageSwitch } from './languageSwitch';
import { CHROMIUM_LAUNCH_OPTIONS } from '../helpers/chromium';

const BENCH = 'renderer';
const KB = 1024;
export const REPORTS = 1_000;
const LOAD_RUNS = 5;
const SORT_ROUNDS = 3;
const UI_TIMEOUT_MS = 20_000;
export const ROWS = 'table[aria-label="Reports"] tbody tr.clickable';

/** Header label to click → the order it leads to, from the default (id, descending). */
const SORT_CLICKS: { label: string; sortBy: SortBy; sort: SortDirection }[] = [
  { label: 'URL', sortBy: 'url', sort: 'asc' },
  { label: 'URL', sortBy: 'url', sort: 'desc' },
  { label: 'Result', sortBy: 'result', sort: 'desc' },
  { label: 'Result', sortBy: 'result', sort: 'asc' },
  { label: 'Generated', sortBy: 'generated_at', sort: 'desc' },
  { label: 'Generated', sortBy: 'generated_at', sort: 'asc' },
];

/** The page's globals, seen from the callbacks below (the Node type-check has no DOM lib). */
interface PageGlobals {
  document: {
    querySelectorAll(selector: string): ArrayLike<{ textContent: string | null; click(): void }>;
    querySelector(selector: string): { textContent: string | null } | null;
  };
  requestAnimationFrame(callback: () => void): void;
}
declare const window: PageGlobals;

async function buildRenderer(outDir: string): Promise<void> {
  const vite = join(import.meta.dirname, '../../node_modules/vite/bin/vite.js');
  await promisify(execFile)(
    process.execPath,
    [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: join(import.meta.dirname, '../..'),
    },
  );
}

/** The language a window on this machine shows first, whose catalogue the first screen loads. */
const FIRST_LANGUAGE = 'en';

function measureBundle(outDir: string): void {
  const assets = join(outDir, 'assets');
  const sizes = { js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 } };
  /** Each language's catalogue chunks (its first screen's part and the rest), gzip bytes. */
  const catalogues = new Map<string, { first: number; later: number }>();
  for (const name of readdirSync(assets)) {
    const kind = name.endsWith('.js') ? 'js' : name.endsWith('.css') ? 'css' : null;
    if (!kind) continue;
    const bytes = readFileSync(join(assets, name));
    const gzip = gzipSync(bytes).length;
    sizes[kind].raw += bytes.length;
    sizes[kind].gzip += gzip;
    const catalogue = /^catalogue-(.+?)(-later)?-[A-Za-z0-9_-]{8}\.js$/.exec(name);
    if (catalogue) {
      const parts = catalogues.get(catalogue[1]) ?? { first: 0, later: 0 };
      parts[catalogue[2] ? 'later' : 'first'] += gzip;
      catalogues.set(catalogue[1], parts);
    }
  }
  const first = catalogues.get(FIRST_LANGUAGE);
  if (!first) throw new Error(`The build has no catalogue for ${FIRST_LANGUAGE}.`);
  // What the first load runs before anything else: the entry script and the modules it
  // preloads (issue 22: screens and dialogs the list does not need come later, when used), and
  // (issue 28) the first screen's part of its language's catalogue, asked for beside them.
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const initial = [
    ...html.matchAll(/<(?:script type="module"|link rel="modulepreload")[^>]*?(?:src|href)="\.\/([^"]+)"/g),
  ];
  if (initial.length === 0) throw new Error('index.html names no entry script.');
  const initialBytes = initial.map(([, file]) => readFileSync(join(outDir, file)));
  const scriptsGzip = initialBytes.reduce((sum, b) => sum + gzipSync(b).length, 0);
  const initialGzip = (scriptsGzip + first.first) / KB;
  emit({
    bench: BENCH,
    metric: 'js_gzip_initial',
    value: round(initialGzip, 1),
    unit: 'KB',
    goal: '<= 110 KB',
    met: initialGzip <= 110,
  });
  info(BENCH, 'js_gzip_initial_scripts', round(scriptsGzip / KB, 1), 'KB');
  info(BENCH, 'js_raw_initial', round(initialBytes.reduce((sum, b) => sum + b.length, 0) / KB, 1), 'KB');
  // Every language's catalogue is in the build; a window loads only its own.
  info(BENCH, 'js_gzip', round(sizes.js.gzip / KB, 1), 'KB');
  info(BENCH, 'js_raw', round(sizes.js.raw / KB, 1), 'KB');
  const largest = Math.max(...[...catalogues.values()].map((parts) => parts.first + parts.later));
  info('i18n', 'catalogue_gzip_max', round(largest / KB, 1), 'KB');
  info('i18n', 'catalogue_gzip_first_screen', round(first.first / KB, 1), 'KB');
  info('i18n', 'catalogues', catalogues.size, 'languages');
  info(BENCH, 'css_raw', round(sizes.css.raw / KB, 1), 'KB');
  info(BENCH, 'css_gzip', round(sizes.css.gzip / KB, 1), 'KB');
}

function listStateKey(profileId: string): string {
  return `reportdesk.list.${profileId}`;
}

/**
 * Installed in every page before its own scripts (issue 22): from the navigation on, each
 * animation frame looks for the 100 rows, and the first frame that has them records
 * `performance.now()` as `__rowsSeenAt`. The goal's figure stays the one polled from Playwright
 * (as before): its polling starts once the page's load event has reached this process and
 * Playwright's own script has run in the page, so it sees the rows when the page is also free
 * to answer, up to tens of milliseconds after the first frame that had them. Both are printed.
 */
export const ROWS_WATCH = `(() => {
  const check = () => {
    if (document.querySelectorAll(${JSON.stringify(ROWS)}).length === 100) {
      globalThis.__rowsSeenAt = performance.now();
    } else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

/** A reload's two readings of the first frame with 100 rows (ms after the navigation's start). */
export interface RowsTiming {
  /** Seen by ROWS_WATCH, inside the page, at the first frame with the rows. */
  inPage: number;
  /** Seen by Playwright's polling at the first frame after the load event and its own setup. */
  polled: number;
}

/** Puts the list back to id/desc with 100 rows per page, reloads, and times the first 100 rows. */
export async function reloadForRows(page: Page, profileId: string): Promise<RowsTiming> {
  const polled = await reloadWithHundredRows(page, profileId);
  const inPage = await page.evaluate(() => (globalThis as { __rowsSeenAt?: number }).__rowsSeenAt);
  if (typeof inPage !== 'number') throw new Error('The page did not record its first frame with 100 rows.');
  return { inPage, polled };
}

/** Puts the list back to id/desc with 100 rows per page and reloads; answers ms to 100 rows (polled). */
export async function reloadWithHundredRows(page: Page, profileId: string): Promise<number> {
  await page.evaluate(
    ([key]) =>
      (
        globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }
      ).localStorage.setItem(
        key,
        JSON.stringify({
          search: '',
          result: null,
          project: '',
          sortBy: 'id',
          sort: 'desc',
          perPage: 100,
          page: 1,
        }),
      ),
    [listStateKey(profileId)],
  );
  await page.reload();
  const handle = await page.waitForFunction(
    (selector) => (window.document.querySelectorAll(selector).length === 100 ? performance.now() : false),
    ROWS,
    { polling: 'raf', timeout: UI_TIMEOUT_MS },
  );
  return (await handle.jsonValue()) as number;
}

/**
 * What the page did before its first rows, from its own timings (ms since navigation start):
 * HTML and script received, DOM ready, and each bridge call's start and end.
 */
export async function startProfile(page: Page): Promise<string> {
  return page.evaluate(() => {
    // The page's timeline (the Node type-check has no DOM lib, hence the local shape).
    interface Entry {
      name: string;
      startTime: number;
      responseEnd: number;
      domContentLoadedEventEnd: number;
      loadEventEnd: number;
    }
    const timeline = globalThis.performance as unknown as { getEntriesByType(type: string): Entry[] };
    const at = (ms: number) => Math.round(ms);
    const [nav] = timeline.getEntriesByType('navigation');
    const parts = [`html ${at(nav.responseEnd)}`];
    for (const entry of timeline.getEntriesByType('resource')) {
      const name = new URL(entry.name).pathname;
      const label = name.startsWith('/__bridge') ? 'bridge call' : name.split('/').pop();
      parts.push(`${label} ${at(entry.startTime)}→${at(entry.responseEnd)}`);
    }
    parts.push(`DOM ready ${at(nav.domContentLoadedEventEnd)}`, `load ${at(nav.loadEventEnd)}`);
    return parts.join(', ');
  });
}

/** Clicks a header and answers ms until the first row shows `expectedFirstId`, timed in the page. */
function timeSortClick(page: Page, label: string, expectedFirstId: string): Promise<number> {
  return page.evaluate(
    ([rows, label, expected, timeoutMs]) =>
      new Promise<number>((resolve, reject) => {
        const buttons = Array.from(
          window.document.querySelectorAll('table[aria-label="Reports"] thead th button'),
        );
        const button = buttons.find((b) => (b.textContent ?? '').startsWith(label));
        if (!button) return reject(new Error(`No "${label}" column header to click.`));
        const start = performance.now();
        button.click();
        const check = () => {
          const first = window.document.querySelector(`${rows} td.id-cell`);
          if (first?.textContent === expected && window.document.querySelectorAll(rows).length === 100) {
            resolve(performance.now() - start);
          } else if (performance.now() - start > timeoutMs) {
            reject(new Error(`The list did not re-sort by ${label} within ${timeoutMs} ms.`));
          } else {
            window.requestAnimationFrame(check);
          }
        };
        window.requestAnimationFrame(check);
      }),
    [ROWS, label, expectedFirstId, UI_TIMEOUT_MS] as const,
  );
}

async function measureUi(page: Page, preview: PreviewServer, bench: BenchCore): Promise<void> {
  await page.goto(preview.url);
  // The first load also finds out that the service is gone (one refused request, one retry).
  const firstLoad = await reloadWithHundredRows(page, bench.profileId);
  info(BENCH, 'first_load_while_detecting_offline', round(firstLoad, 1), 'ms');
  const fromCacheNote = await page.locator('.source-note').count();
  if (fromCacheNote === 0) throw new Error('The list does not say it comes from the offline copy.');

  const loads: RowsTiming[] = [];
  for (let run = 0; run < LOAD_RUNS; run++) loads.push(await reloadForRows(page, bench.profileId));
  note(
    BENCH,
    `navigation → 100 rows (ms, polled by Playwright): ${loads.map((t) => round(t.polled, 1)).join(', ')}`,
  );
  note(
    BENCH,
    `the same loads' first frame with the rows (ms): ${loads.map((t) => round(t.inPage, 1)).join(', ')}`,
  );
  note(BENCH, `before the first rows of the last load: ${await startProfile(page)}`);
  info(BENCH, 'navigation_to_100_rows_in_page_median', round(median(loads.map((t) => t.inPage)), 1), 'ms');
  const navigationMedian = median(loads.map((t) => t.polled));
  emit({
    bench: BENCH,
    metric: 'navigation_to_100_rows_from_cache_median',
    value: round(navigationMedian, 1),
    unit: 'ms',
    goal: '<= 150 ms',
    met: navigationMedian <= 150,
  });

  const sorts: number[] = [];
  for (let r = 0; r < SORT_ROUNDS; r++) {
    await reloadWithHundredRows(page, bench.profileId);
    for (const click of SORT_CLICKS) {
      const query = normalizeListQuery({ sort_by: click.sortBy, sort: click.sort, per_page: 100 });
      const expected = bench.core.cache.query(bench.profileId, query).page.reports[0].id;
      const current = await page.locator(`${ROWS} td.id-cell`).first().textContent();
      const ms = await timeSortClick(page, click.label, expected);
      // Same first report before and after: the wait proves nothing, so the figure is not kept.
      if (current !== expected) sorts.push(ms);
    }
  }
  note(BENCH, `sort click → re-sorted list (ms): ${sorts.map((ms) => round(ms, 1)).join(', ')}`);
  const sortMedian = median(sorts);
  emit({
    bench: BENCH,
    metric: 'sort_click_to_screen_median',
    value: round(sortMedian, 1),
    unit: 'ms',
    goal: '<= 100 ms',
    met: sortMedian <= 100,
  });
  info(BENCH, 'sort_click_to_screen_max', round(Math.max(...sorts), 1), 'ms');
}

export async function runRenderer(): Promise<void> {
  const dir = tempDir(BENCH);
  const outDir = join(dir.path, 'renderer');
  let browser: Browser | null = null;
  let preview: PreviewServer | null = null;
  let bench: BenchCore | null = null;
  try {
    await buildRenderer(outDir);
    measureBundle(outDir);

    const service = await startDemoService({ reportsPerAccount: 10 });
    try {
      service.seedReports(REPORTS);
      bench = await coreWithProfile(service, BENCH);
      await bench.handlers['cache:sync'](undefined);
    } finally {
      await service.stop();
    }
    preview = await startPreviewServer({
      handlers: bench.handlers,
      events: bench.core.events,
      rendererDir: outDir,
    });
    browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // tsx compiles the page callbacks with esbuild's keepNames, which calls a __name helper
    // that only exists in Node; in the page it can be the identity.
    await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
    await context.addInitScript({ content: ROWS_WATCH });
    const page = await context.newPage();
    try {
      await measureUi(page, preview, bench);
      const profileId = bench.profileId;
      await measureLanguageSwitch(
        context,
        page,
        () => reloadWithHundredRows(page, profileId),
        preview,
        bench,
      );
    } catch (thrown) {
      // The bundle figures stand; say plainly which timings are missing and why.
      note(
        BENCH,
        `SKIPPED the UI timings not printed above: ${thrown instanceof Error ? thrown.message : String(thrown)}`,
      );
      throw thrown;
    }
  } finally {
    await browser?.close();
    await preview?.stop();
    await bench?.close();
    dir.remove();
  }
}
