/**
 * offline-query: 100,000 cached reports in a temp SQLite file, a mixed set of list queries
 * (url search, result and project filters, every sort_by and direction, shallow and deep
 * pages), timed against a plain in-memory filter-sort-slice of the same records. The two are
 * interleaved query by query (alternating which goes first) so machine noise hits both alike,
 * and every answer is compared, so a fast wrong answer cannot pass.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { DEMO_PROJECTS } from '../../electron/demo-service/seed';
import { mulberry32, pick } from '../../electron/demo-service/random';
import {
  PER_PAGE_VALUES,
  REPORT_RESULTS,
  SORT_BY_VALUES,
  SORT_VALUES,
  type NormalizedListQuery,
  type Report,
} from '../../shared/model';
import { emit, info, median, note, percentile, realisticReportChunks, round, tempDir } from './common';

const BENCH = 'offline-query';
export const OFFLINE_REPORT_COUNT = 100_000;
const QUERY_COUNT = 120;
const WARM_UP = 10;
const SCOPE = 'bench';

/** Fills `file` with the realistic reports (or the chunks given); answers the records kept in memory as well, if asked. */
export function fillCache(
  cache: ReportCache,
  scope: string,
  keep: Report[] | null,
  count = OFFLINE_REPORT_COUNT,
  chunks: Iterable<Report[]> = realisticReportChunks(count),
): void {
  const fetchedAt = new Date('2025-06-01T12:00:00.000Z').toISOString();
  for (const chunk of chunks) {
    cache.putReports(scope, chunk, fetchedAt);
    if (keep) keep.push(...chunk);
  }
}

const SEARCHES = [
  'contoso',
  'fabrikam.io/products',
  '/checkout',
  'http://',
  'news',
  'utm_source=ads',
  'zz-no-such',
];

/** A deterministic mix: about half filtered or searched, every sort, pages from 1 to the last. */
export function queryMix(reportCount = OFFLINE_REPORT_COUNT): NormalizedListQuery[] {
  const random = mulberry32(7);
  const queries: NormalizedListQuery[] = [];
  for (let i = 0; i < QUERY_COUNT; i++) {
    const roll = random();
    const perPage = pick(random, PER_PAGE_VALUES);
    const lastPage = Math.ceil(reportCount / perPage);
    const filtered = roll < 0.5;
    // Shallow pages most of the time, deep ones (up to the very last) the rest.
    const deep = random() < 0.3;
    const page = filtered
      ? 1 + Math.floor(random() * 3)
      : deep
        ? 1 + Math.floor(random() * lastPage)
        : 1 + Math.floor(random() * 5);
    queries.push({
      search: filtered && roll < 0.25 ? pick(random, SEARCHES) : '',
      search_by: 'url',
      project: filtered && random() < 0.5 ? pick(random, DEMO_PROJECTS) : '',
      result: filtered && random() < 0.5 ? pick(random, REPORT_RESULTS) : null,
      sort_by: SORT_BY_VALUES[i % SORT_BY_VALUES.length],
      sort: SORT_VALUES[Math.floor(i / SORT_BY_VALUES.length) % SORT_VALUES.length],
      per_page: perPage,
      page,
    });
  }
  return queries;
}

interface MemoryRecord {
  report: Report;
  idNumber: number;
  urlLower: string;
}

/** The baseline: what a client without a database would do with an array of records. */
function memoryQuery(
  records: readonly MemoryRecord[],
  q: NormalizedListQuery,
): { ids: string[]; total: number } {
  const search = q.search.toLowerCase();
  const matching = records.filter(
    (r) =>
      (q.project === '' || r.report.project === q.project) &&
      (q.result === null || r.report.result === q.result) &&
      (search === '' || r.urlLower.includes(search)),
  );
  const direction = q.sort === 'asc' ? 1 : -1;
  const key = q.sort_by;
  matching.sort((a, b) => {
    if (key !== 'id') {
      const x = String(a.report[key] ?? '');
      const y = String(b.report[key] ?? '');
      if (x !== y) return (x < y ? -1 : 1) * direction;
    }
    return (a.idNumber - b.idNumber) * direction;
  });
  const start = (q.page - 1) * q.per_page;
  return { ids: matching.slice(start, start + q.per_page).map((r) => r.report.id), total: matching.length };
}

export async function runOfflineQuery(): Promise<void> {
  const dir = tempDir(BENCH);
  const cache = ReportCache.open(join(dir.path, 'cache.sqlite'));
  try {
    const reports: Report[] = [];
    const loadStart = performance.now();
    fillCache(cache, SCOPE, reports);
    info(BENCH, 'load_100k_reports', round((performance.now() - loadStart) / 1000), 's');
    const records: MemoryRecord[] = reports.map((report) => ({
      report,
      idNumber: Number(report.id),
      urlLower: report.url.toLowerCase(),
    }));

    const queries = queryMix();
    const sqliteMs: number[] = [];
    const memoryMs: number[] = [];
    const slowest: { ms: number; q: NormalizedListQuery }[] = [];
    for (let i = 0; i < WARM_UP + queries.length; i++) {
      const q = queries[i % queries.length];
      const timeSqlite = () => {
        const start = performance.now();
        const { page } = cache.query(SCOPE, q);
        return { ms: performance.now() - start, ids: page.reports.map((r) => r.id), total: page.total };
      };
      const timeMemory = () => {
        const start = performance.now();
        const answer = memoryQuery(records, q);
        return { ms: performance.now() - start, ...answer };
      };
      const sqliteFirst = i % 2 === 0;
      const a = sqliteFirst ? timeSqlite() : timeMemory();
      const b = sqliteFirst ? timeMemory() : timeSqlite();
      const [fromSqlite, fromMemory] = sqliteFirst ? [a, b] : [b, a];
      if (fromSqlite.total !== fromMemory.total || fromSqlite.ids.join() !== fromMemory.ids.join()) {
        throw new Error(`The cache and the in-memory baseline disagree on ${JSON.stringify(q)}.`);
      }
      if (i >= WARM_UP) {
        sqliteMs.push(fromSqlite.ms);
        memoryMs.push(fromMemory.ms);
        slowest.push({ ms: fromSqlite.ms, q });
      }
    }
    note(BENCH, `${queries.length} queries, every answer identical between the cache and the baseline`);
    // The tail is where a missing index shows: name the slowest queries so they can be fixed.
    for (const { ms, q } of slowest.sort((x, y) => y.ms - x.ms).slice(0, 3)) {
      const { search, project, result, sort_by, sort, per_page, page } = q;
      note(
        BENCH,
        `slow: ${round(ms, 1)} ms for ${JSON.stringify({ search, project, result, sort_by, sort, per_page, page })}`,
      );
    }

    const sqliteMedian = median(sqliteMs);
    emit({
      bench: BENCH,
      metric: 'sqlite_median',
      value: round(sqliteMedian, 3),
      unit: 'ms',
      goal: '<= 5 ms',
      met: sqliteMedian <= 5,
    });
    const p95 = percentile(sqliteMs, 95);
    emit({
      bench: BENCH,
      metric: 'sqlite_p95',
      value: round(p95, 3),
      unit: 'ms',
      goal: '<= 5 ms',
      met: p95 <= 5,
    });
    const max = Math.max(...sqliteMs);
    emit({
      bench: BENCH,
      metric: 'sqlite_max',
      value: round(max, 3),
      unit: 'ms',
      goal: '<= 20 ms',
      met: max <= 20,
    });
    const memoryMedian = median(memoryMs);
    info(BENCH, 'in_memory_median', round(memoryMedian, 3), 'ms');
    info(BENCH, 'in_memory_p95', round(percentile(memoryMs, 95), 3), 'ms');
    const speedup = memoryMedian / sqliteMedian;
    emit({
      bench: BENCH,
      metric: 'speedup_vs_in_memory',
      value: round(speedup),
      unit: 'x',
      goal: '>= 3x',
      met: speedup >= 3,
    });
  } finally {
    cache.close();
    dir.remove();
  }
}
