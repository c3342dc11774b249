/**
 * million: the cache at 1,000,000 reports (the reference service's generator, as in
 * offline-query). Prints the time to fill it and the file's size, the offline-query mix's
 * median, p95 and max on it, and the resident memory of a core walking it offline in a child
 * process (every 10th page of the 10,000, and the last: the figure is the same, a tenth of the
 * wait). The in-memory baseline is left out at this size (it would hold a million records in
 * this process); offline-query and the test suite prove the answers equal it.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { loadScopeSalt, saltedScope } from '../../electron/core/cache/scopeSalt';
import { freeLoopbackPort } from '../helpers/network';
import { emitGoal, info, median, note, percentile, round, tempDir } from './common';
import { BENCH_KEY, walkInChild } from './memory';
import { fillCache, queryMix } from './offlineQuery';

const BENCH = 'million';
const REPORTS = 1_000_000;
const MB = 1024 * 1024;
const WALK_STRIDE = 10;

export async function runMillion(): Promise<void> {
  const dir = tempDir(BENCH);
  try {
    const dataDir = join(dir.path, 'data');
    const file = join(dataDir, 'cache.sqlite');
    // A port nothing listens on: the walking core's first request fails and it serves the cache.
    const baseUrl = `http://127.0.0.1:${await freeLoopbackPort()}`;
    const cache = ReportCache.open(file);
    // The scope the walking CLI-style core derives for this base URL and key (salted per data dir).
    const scope = saltedScope(loadScopeSalt(dataDir), baseUrl, BENCH_KEY);
    try {
      note(BENCH, 'filling the cache with 1,000,000 reports…');
      const loadStart = performance.now();
      fillCache(cache, scope, null, REPORTS);
      info(BENCH, 'load_1m_reports', round((performance.now() - loadStart) / 1000, 1), 's');
      info(BENCH, 'file_size_1m', round(statSync(file).size / MB, 1), 'MB');

      const queries = queryMix(REPORTS);
      const times: number[] = [];
      const slowest: { ms: number; q: (typeof queries)[number] }[] = [];
      for (const q of queries) {
        const start = performance.now();
        const { page } = cache.query(scope, q);
        const ms = performance.now() - start;
        if (page.reports.length > q.per_page) throw new Error(`A page of ${page.reports.length} rows.`);
        times.push(ms);
        slowest.push({ ms, q });
      }
      for (const { ms, q } of slowest.sort((x, y) => y.ms - x.ms).slice(0, 3)) {
        const { search, project, result, sort_by, sort, per_page, page } = q;
        note(
          BENCH,
          `slow: ${round(ms, 1)} ms for ${JSON.stringify({ search, project, result, sort_by, sort, per_page, page })}`,
        );
      }
      const med = median(times);
      const p95 = percentile(times, 95);
      emitGoal(BENCH, 'sqlite_median_1m', med, 'ms', '<= 5 ms', 3);
      emitGoal(BENCH, 'sqlite_p95_1m', p95, 'ms', '<= 20 ms', 3);
      // Issue 22's goal for the slowest query of the mix at a million reports.
      const max = Math.max(...times);
      emitGoal(BENCH, 'sqlite_max_1m', max, 'ms', '<= 50 ms', 3);
    } finally {
      cache.close();
    }

    note(BENCH, `walking every ${WALK_STRIDE}th page offline in a child process…`);
    const child = await walkInChild(dataDir, baseUrl, WALK_STRIDE);
    const expectedPages = Math.ceil(REPORTS / 100 / WALK_STRIDE) + 1;
    if (child.pages < expectedPages - 1)
      throw new Error(`The walk read ${child.pages} pages, not ${expectedPages}.`);
    note(BENCH, `walked ${child.pages} pages, ${child.reports} reports, all from the cache`);
    const rss = child.rssAfterWalkBytes / MB;
    emitGoal(BENCH, 'rss_after_walk_1m', rss, 'MB', '<= 250 MB', 1);
    info(BENCH, 'rss_core_started_1m', round(child.rssStartBytes / MB, 1), 'MB');
  } finally {
    dir.remove();
  }
}
