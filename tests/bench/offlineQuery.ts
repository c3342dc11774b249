/**
 * offline-query: 100,000 cached reports in a temp SQLite file, a mixed set of list queries
 * (url search, result and project filters, every sort_by and direction, shallow and deep
 * pages), timed against a plain in-memory filter-sort-slice of the same records. The two are
 * interleaved query by query (alternating which goes first) so machine noise hits both alike,
 * and every answer is compared, so a fast wrong answer cannot pass.
 *
 * The measured mix is cold, as a user's first look is: no query in it runs twice, and each of
 * its 48 searches (common words to none at all) appears once, since the cache remembers a
 * search's counts while the file is unchanged. A warm-up of other queries comes first; the
 * same searches paged or re-sorted (remembered) are a figure of their own.
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
import { emitGoal, info, median, note, percentile, realisticReportChunks, round, tempDir } from './common';

const BENCH = 'offline-query';
export const OFFLINE_REPORT_COUNT = 100_000;
/** Queries in the measured mix: about a quarter of them searches, each with its own string. */
const QUERY_COUNT = 192;
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

/**
 * The measured mix's searches, each used once (the cache remembers a search's counts while the
 * file is unchanged, so a repeated search would be measured warm): words in most of the
 * generated urls, words in a few, parts of paths and queries, mixed case, and none at all.
 */
export const SEARCHES = [
  // In a third or more of the urls.
  'contoso',
  'https://',
  '.com',
  'www.',
  'fabrikam',
  // In a few percent.
  'docs',
  'shop.',
  'blog',
  'support',
  'careers',
  'products',
  'openings',
  'articles',
  'guides/',
  'news',
  'tailspintoys',
  'wingtiptoys',
  'adventure-works',
  'woodgrovebank',
  'lucernepublishing',
  'litware',
  'proseware',
  'example.com',
  'http://',
  // In a fraction of a percent.
  'checkout',
  'pricing',
  'webinar',
  'Spring-Sale',
  'API/Reports',
  'trail-runner',
  'desk-lamp',
  'reset-password',
  'billing',
  'launch-week',
  'year-in-review',
  'frontend-engineer',
  'life-at-contoso',
  'utm_source=ads',
  'utm_source=partner',
  'newsletter',
  'category/outdoor',
  'northwindtraders.com/about',
  'litware.net/investors',
  // A handful of reports, or none.
  'performance-tips/4',
  '/417',
  'jobs.adventure-works.com/apply',
  'zz-no-such',
  'nothing-here.example',
] as const;

/** Searches the warm-up uses, never the measured mix. */
const WARM_UP_SEARCHES = ['northwind', 'developer.', 'status', 'help.', 'faq', 'cart'];

/** A query with a fresh shape: filters, sort and page drawn from `random`. */
function drawQuery(
  random: () => number,
  i: number,
  reportCount: number,
  search: string,
): NormalizedListQuery {
  const perPage = pick(random, PER_PAGE_VALUES);
  const lastPage = Math.ceil(reportCount / perPage);
  const filtered = search !== '' || random() < 0.35;
  // Shallow pages most of the time, deep ones (up to the very last) the rest.
  const deep = random() < 0.3;
  const page = filtered
    ? 1 + Math.floor(random() * 3)
    : deep
      ? 1 + Math.floor(random() * lastPage)
      : 1 + Math.floor(random() * 5);
  return {
    search,
    search_by: 'url',
    project: filtered && random() < 0.5 ? pick(random, DEMO_PROJECTS) : '',
    result: filtered && random() < 0.5 ? pick(random, REPORT_RESULTS) : null,
    sort_by: SORT_BY_VALUES[i % SORT_BY_VALUES.length],
    sort: SORT_VALUES[Math.floor(i / SORT_BY_VALUES.length) % SORT_VALUES.length],
    per_page: perPage,
    page,
  };
}

const queryKey = (q: NormalizedListQuery) => JSON.stringify(q);

/**
 * The measured mix, deterministic: QUERY_COUNT queries, no two alike, every sort, pages from
 * the first to the last, about a third filtered; each of SEARCHES once, spread through it.
 */
export function queryMix(reportCount = OFFLINE_REPORT_COUNT): NormalizedListQuery[] {
  const random = mulberry32(7);
  const searchAt = new Map<number, string>();
  const step = QUERY_COUNT / SEARCHES.length;
  SEARCHES.forEach((search, n) => searchAt.set(Math.floor(n * step + random() * step), search));
  const queries: NormalizedListQuery[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < QUERY_COUNT; i++) {
    let q = drawQuery(random, i, reportCount, searchAt.get(i) ?? '');
    while (seen.has(queryKey(q))) q = drawQuery(random, i, reportCount, q.search);
    seen.add(queryKey(q));
    queries.push(q);
  }
  return queries;
}

/** Warm-up queries, none of them in the mix (their searches are WARM_UP_SEARCHES). */
export function warmUpQueries(reportCount = OFFLINE_REPORT_COUNT): NormalizedListQuery[] {
  const random = mulberry32(11);
  return Array.from({ length: 12 }, (_, i) =>
    drawQuery(random, i, reportCount, i % 2 === 0 ? WARM_UP_SEARCHES[i / 2] : ''),
  );
}

/**
 * The mix's searches again, each with another page or order: what a user paging or
 * re-sorting a search pays once the cache remembers its counts.
 */
export function warmQueries(mix: readonly NormalizedListQuery[]): NormalizedListQuery[] {
  return mix
    .filter((q) => q.search !== '')
    .map((q, n) =>
      n % 2 === 0
        ? { ...q, page: q.page + 1 }
        : { ...q, sort: q.sort === 'asc' ? ('desc' as const) : ('asc' as const) },
    );
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

    /** Each query on the cache and on the baseline, alternating which goes first; both answers compared. */
    const run = (queries: readonly NormalizedListQuery[]) => {
      const timed = { sqlite: [] as number[], sqliteCpu: [] as number[], memory: [] as number[] };
      queries.forEach((q, i) => {
        const timeSqlite = () => {
          const { ms, cpuMs, page } = timedQuery(cache, SCOPE, q);
          return { ms, cpuMs, ids: page.reports.map((r) => r.id), total: page.total };
        };
        const timeMemory = () => {
          const start = performance.now();
          const answer = memoryQuery(records, q);
          return { ms: performance.now() - start, ...answer };
        };
        const sqliteFirst = i % 2 === 0;
        const a = sqliteFirst ? timeSqlite() : timeMemory();
        const b = sqliteFirst ? timeMemory() : timeSqlite();
        const [fromSqlite, fromMemory] = (sqliteFirst ? [a, b] : [b, a]) as [
          ReturnType<typeof timeSqlite>,
          ReturnType<typeof timeMemory>,
        ];
        if (fromSqlite.total !== fromMemory.total || fromSqlite.ids.join() !== fromMemory.ids.join()) {
          throw new Error(`The cache and the in-memory baseline disagree on ${JSON.stringify(q)}.`);
        }
        timed.sqlite.push(fromSqlite.ms);
        timed.sqliteCpu.push(fromSqlite.cpuMs);
        timed.memory.push(fromMemory.ms);
      });
      return timed;
    };

    run(warmUpQueries());
    const queries = queryMix();
    const cold = run(queries);
    note(
      BENCH,
      `${queries.length} queries, ${SEARCHES.length} of them searches each seen once, every answer identical between the cache and the baseline`,
    );
    noteSlowest(BENCH, queries, cold.sqlite);

    const sqliteMedian = median(cold.sqlite);
    emitGoal(BENCH, 'sqlite_median', sqliteMedian, 'ms', '<= 1 ms', 3);
    emitGoal(BENCH, 'sqlite_p95', percentile(cold.sqlite, 95), 'ms', '<= 5 ms', 3);
    emitGoal(BENCH, 'sqlite_max', Math.max(...cold.sqlite), 'ms', '<= 20 ms', 3);
    infoCpu(BENCH, '', cold.sqliteCpu);
    const memoryMedian = median(cold.memory);
    info(BENCH, 'in_memory_median', round(memoryMedian, 3), 'ms');
    info(BENCH, 'in_memory_p95', round(percentile(cold.memory, 95), 3), 'ms');
    emitGoal(BENCH, 'speedup_vs_in_memory', memoryMedian / sqliteMedian, 'x', '>= 3x');

    // The same searches paged or re-sorted: their counts remembered (a figure apart, no goal).
    const warm = run(warmQueries(queries));
    info(BENCH, 'sqlite_search_cold_median', round(median(searchTimes(queries, cold.sqlite)), 3), 'ms');
    info(BENCH, 'sqlite_search_warm_median', round(median(warm.sqlite), 3), 'ms');
    info(BENCH, 'sqlite_search_warm_p95', round(percentile(warm.sqlite, 95), 3), 'ms');
  } finally {
    cache.close();
    dir.remove();
  }
}

/** The times of the mix's searches (each search seen for the first time). */
export function searchTimes(queries: readonly NormalizedListQuery[], times: readonly number[]): number[] {
  return times.filter((_, i) => queries[i].search !== '');
}

/** The tail is where a missing index shows: names the slowest queries so they can be fixed. */
export function noteSlowest(
  bench: string,
  queries: readonly NormalizedListQuery[],
  times: readonly number[],
): void {
  const order = times.map((ms, i) => ({ ms, q: queries[i] })).sort((x, y) => y.ms - x.ms);
  for (const { ms, q } of order.slice(0, 3)) {
    const { search, project, result, sort_by, sort, per_page, page } = q;
    note(
      bench,
      `slow: ${round(ms, 1)} ms for ${JSON.stringify({ search, project, result, sort_by, sort, per_page, page })}`,
    );
  }
}

/** One query on the cache: its wall time, this process's CPU time for it, and the page. */
export function timedQuery(cache: ReportCache, scope: string, q: NormalizedListQuery) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const { page } = cache.query(scope, q);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, page };
}

/**
 * The same mix in CPU time (no goal): on a machine busy with other work a query waits for a
 * core, and its wall time with it; its CPU time is what it costs, as a quiet machine shows.
 */
export function infoCpu(bench: string, suffix: string, cpuMs: readonly number[]): void {
  info(bench, `sqlite_cpu_median${suffix}`, round(median(cpuMs), 3), 'ms');
  info(bench, `sqlite_cpu_p95${suffix}`, round(percentile(cpuMs, 95), 3), 'ms');
  info(bench, `sqlite_cpu_max${suffix}`, round(Math.max(...cpuMs), 3), 'ms');
}
