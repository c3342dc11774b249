/**
 * The list query's planner (electron/core/cache/listPlan.ts) on a real SQLite file: whatever
 * plan a query gets (an index walk from either end, the trigram index, filter then sort, or
 * nothing to read), its page and total equal a plain in-memory filter-sort-slice. The data
 * are the reference service's generated reports in two scopes, plus records made to trip the
 * search index: upper case, non-ASCII, quotes, LIKE wildcards, and project names holding the
 * characters the index's keys escape.
 */
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choosePlan, walkIndexFor, type ListPlan } from '../../electron/core/cache/listPlan';
import { MIGRATIONS, ReportCache } from '../../electron/core/cache/reportCache';
import { mulberry32, pick } from '../../electron/demo-service/random';
import { DEMO_PROJECTS } from '../../electron/demo-service/seed';
import { serviceReports } from '../helpers/countedData';
import {
  normalizeListQuery,
  PER_PAGE_VALUES,
  REPORT_RESULTS,
  SORT_BY_VALUES,
  SORT_VALUES,
  type NormalizedListQuery,
  type Report,
} from '../../shared/report';

const FETCHED_AT = '2025-06-01T12:00:00.000Z';
const BASE_QUERY: NormalizedListQuery = normalizeListQuery();
const SCOPE = 'main';
const OTHER_SCOPE = 'other';

/** Records whose search keys and filter values are easy to get wrong. */
const TRICKY: Report[] = [
  { id: '900001', url: 'https://EXAMPLE.com/Ünïcode/中文?q=%25_x', result: 'good', project: 'R&D' },
  { id: '900002', url: 'https://a.example/say-"hi"-now', result: null, project: 'R&D <core>' },
  { id: '900003', url: 'https://b.example/100%_sure', result: 'bad', project: '<core>' },
  { id: '900004', url: 'https://c.example/café-CONTOSO', result: 'decent', project: null },
  { id: '900005', url: 'https://d.example/&amp;<core>', result: 'good', project: 'R&amp;D' },
  { id: '900006', url: 'HTTPS://E.EXAMPLE/ÜNÏCODE', result: null, project: 'R&D' },
];

const SEARCHES = [
  '',
  'contoso',
  'http://',
  'fabrikam.io/products',
  'zz-no-such',
  '"hi"',
  'ünï',
  '%25_',
  '%_',
  'co',
  'é',
  '<core>',
  '&amp;',
  'checkout',
];
const PROJECTS = ['', ...DEMO_PROJECTS.slice(0, 3), 'R&D', 'R&D <core>', '<core>', 'R&amp;D', 'nope'];

/** The service's semantics written plainly: the oracle. */
function expected(records: readonly Report[], q: NormalizedListQuery): { ids: string[]; total: number } {
  const search = q.search.toLowerCase();
  const matching = records.filter(
    (r) =>
      (q.project === '' || r.project === q.project) &&
      (q.result === null || r.result === q.result) &&
      (search === '' || r.url.toLowerCase().includes(search)),
  );
  const direction = q.sort === 'asc' ? 1 : -1;
  const key = q.sort_by;
  matching.sort((a, b) => {
    if (key !== 'id') {
      // SQLite orders NULL before every text; '\0' does the same among these values.
      const x = a[key] === null || a[key] === undefined ? '\0' : String(a[key]);
      const y = b[key] === null || b[key] === undefined ? '\0' : String(b[key]);
      if (x !== y) return (x < y ? -1 : 1) * direction;
    }
    return (Number(a.id) - Number(b.id)) * direction;
  });
  const start = (q.page - 1) * q.per_page;
  return { ids: matching.slice(start, start + q.per_page).map((r) => r.id), total: matching.length };
}

/** A deterministic mix: every search, filter, order and page size, pages from 1 to past the end. */
function queryMix(count: number, seed: number, rowsPerScope: number): NormalizedListQuery[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, (_, i) => {
    const perPage = pick(random, PER_PAGE_VALUES);
    const lastPage = Math.ceil(rowsPerScope / perPage);
    const roll = random();
    const page =
      roll < 0.5
        ? 1 + Math.floor(random() * 3)
        : roll < 0.9
          ? 1 + Math.floor(random() * lastPage)
          : lastPage + 1 + Math.floor(random() * 3);
    return {
      search: SEARCHES[i % SEARCHES.length],
      search_by: 'url',
      project: random() < 0.4 ? pick(random, PROJECTS) : '',
      result: random() < 0.4 ? pick(random, REPORT_RESULTS) : null,
      sort_by: pick(random, SORT_BY_VALUES),
      sort: pick(random, SORT_VALUES),
      per_page: perPage,
      page,
    };
  });
}

/** The plan the cache picks for `q`, worked out from the oracle's counts. */
function planFor(records: readonly Report[], q: NormalizedListQuery): ListPlan {
  const { leading } = walkIndexFor(q);
  const count = (project: string, result: string | null) =>
    records.filter(
      (r) => (project === '' || r.project === project) && (result === null || r.result === result),
    ).length;
  return choosePlan({
    q,
    total: expected(records, { ...q, page: 1 }).total,
    rangeRows: count(leading === 'project' ? q.project : '', leading === 'result' ? q.result : null),
    filteredRows: count(q.project, q.result),
    trigramSearch: [...q.search].length >= 3,
  });
}

/** A plan's kind, with a walk's search check and direction: 'walk row reverse'. */
function planName(plan: ListPlan): string {
  return plan.kind === 'walk' ? `walk ${plan.search}${plan.reverse ? ' reverse' : ''}` : plan.kind;
}

describe('the cache list query planner', () => {
  let dir: string;
  let cache: ReportCache;
  let main: Report[];
  let other: Report[];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'report-desk-plan-'));
    cache = ReportCache.open(join(dir, 'cache.sqlite'));
    main = [...serviceReports(6_000, 11), ...TRICKY];
    // Another scope with the same kind of data (ids overlap on purpose): never part of an answer.
    other = [...serviceReports(2_000, 12), ...TRICKY.map((r) => ({ ...r, url: `${r.url}/other` }))];
    for (let i = 0; i < main.length; i += 1_000)
      cache.putReports(SCOPE, main.slice(i, i + 1_000), FETCHED_AT);
    cache.putReports(OTHER_SCOPE, other, FETCHED_AT);
  });
  afterAll(() => {
    cache.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Each page equals the oracle's, and was read the way the planner chooses from the exact
  // counts: a cache that fed the planner a wrong count would still answer right, only slower.
  const check = (records: readonly Report[], scope: string, queries: NormalizedListQuery[]) => {
    for (const q of queries) {
      const { page, plan } = cache.query(scope, q);
      expect({ q, ids: page.reports.map((r) => r.id), total: page.total, plan }).toEqual({
        q,
        ...expected(records, q),
        plan: planFor(records, q),
      });
    }
  };

  it('answers a mixed set of queries exactly as the in-memory baseline, with every kind of plan', () => {
    const rare = { search: '', search_by: 'url', per_page: 10, page: 1, sort: 'asc' } as const;
    const queries = [
      ...queryMix(500, 7, main.length),
      // Few rows behind two filters, sorted by neither: collecting and sorting them wins.
      { ...rare, project: 'R&D', result: 'good', sort_by: 'url' },
      { ...rare, project: DEMO_PROJECTS[0], result: 'bad', sort_by: 'generated_at', page: 20 },
    ] satisfies NormalizedListQuery[];
    check(main, SCOPE, queries);
    // The mix is only a proof if it made the planner use each of its plans.
    const names = new Set(queries.map((q) => planName(planFor(main, q))));
    expect([...names].sort()).toEqual([
      'empty',
      'filter-then-sort',
      'trigram',
      'walk row',
      'walk row reverse',
      'walk trigram-set',
      'walk trigram-set reverse',
    ]);
  });

  it('keeps the other scope apart, searched or not', () => {
    check(other, OTHER_SCOPE, queryMix(150, 8, other.length));
    // A scope alone in the file answers the same, without its scope key in the search.
    const solo = ReportCache.open(join(dir, 'solo.sqlite'));
    try {
      solo.putReports(SCOPE, TRICKY, FETCHED_AT);
      for (const q of queryMix(150, 9, TRICKY.length)) {
        const { page } = solo.query(SCOPE, q);
        expect({ ids: page.reports.map((r) => r.id), total: page.total }).toEqual(expected(TRICKY, q));
      }
    } finally {
      solo.close();
    }
  });

  it('follows changed urls, projects and results, and removed reports', () => {
    const random = mulberry32(5);
    const changed = main
      .slice(0, 1_500)
      .map((r, i) =>
        i % 3 === 0
          ? { ...r, url: `${r.url}?moved=CONTOSO` }
          : i % 3 === 1
            ? { ...r, project: pick(random, [...DEMO_PROJECTS, 'R&D']) }
            : { ...r, result: pick(random, REPORT_RESULTS) },
      );
    cache.putReports(SCOPE, changed, '2025-06-01T13:00:00.000Z');
    const removed = new Set(main.slice(1_500, 1_800).map((r) => r.id));
    for (const id of removed) cache.removeReport(SCOPE, id);
    const now = [...changed, ...main.slice(1_800)].filter((r) => !removed.has(r.id));
    check(now, SCOPE, queryMix(250, 10, now.length));
  });
});

describe('remembered search totals', () => {
  let dir: string;
  let cache: ReportCache;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'report-desk-totals-'));
    cache = ReportCache.open(join(dir, 'cache.sqlite'));
    cache.putReports(SCOPE, serviceReports(500, 13), FETCHED_AT);
  });
  afterAll(() => {
    cache.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const total = (search: string, page = 1) =>
    Number(cache.query(SCOPE, { ...BASE_QUERY, search, page }).page.total);

  it('are forgotten when this connection changes a row', () => {
    const before = total('example');
    expect(total('example', 2)).toBe(before);
    cache.putReport(SCOPE, { id: '777001', url: 'https://new.example/x', result: 'good' }, FETCHED_AT);
    expect(total('example')).toBe(before + 1);
    cache.removeReport(SCOPE, '777001');
    expect(total('example')).toBe(before);
    // A short search (no trigram index) is remembered and forgotten alike.
    const short = total('ex');
    cache.putReport(SCOPE, { id: '777002', url: 'https://ex.invalid', result: 'good' }, FETCHED_AT);
    expect(total('ex')).toBe(short + 1);
  });

  it('are forgotten when another process commits to the same file', () => {
    const before = total('other-process');
    expect(before).toBe(0);
    const script = `
      import { ReportCache } from ${JSON.stringify(join(import.meta.dirname, '../../electron/core/cache/reportCache.ts'))};
      const cache = ReportCache.open(${JSON.stringify(cache.file)});
      cache.putReport(${JSON.stringify(SCOPE)}, { id: '888001', url: 'https://other-process.example', result: 'bad' }, ${JSON.stringify(FETCHED_AT)});
      cache.close();`;
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: join(import.meta.dirname, '../..'),
    });
    expect(total('other-process')).toBe(1);
  });
});

describe('migration 2 (the planner’s search index)', () => {
  it('brings a cache written before it up to date, its reports searchable and filterable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-desk-migrate-'));
    try {
      const file = join(dir, 'cache.sqlite');
      // A file as the first schema left it, with reports in two scopes.
      const old = new Database(file);
      old.exec(MIGRATIONS[0]);
      old.pragma('user_version = 1');
      const insert = old.prepare(
        `INSERT INTO reports (scope, id, id_sort, url, url_lower, result, project, generated_at, fetched_at, record)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const main = [...serviceReports(800, 21), ...TRICKY];
      const other = serviceReports(300, 22);
      for (const [scope, reports] of [
        [SCOPE, main],
        [OTHER_SCOPE, other],
      ] as const) {
        for (const r of reports) {
          insert.run(
            scope,
            r.id,
            Number(r.id),
            r.url,
            r.url.toLowerCase(),
            r.result ?? null,
            r.project ?? null,
            r.generated_at ?? null,
            FETCHED_AT,
            JSON.stringify(r),
          );
        }
      }
      old.close();

      const migrated = ReportCache.open(file);
      try {
        expect(migrated.integrityCheck()).toBe('ok');
        for (const q of queryMix(200, 23, main.length)) {
          const { page } = migrated.query(SCOPE, q);
          expect({ q, ids: page.reports.map((r) => r.id), total: page.total }).toEqual({
            q,
            ...expected(main, q),
          });
        }
        const { page } = migrated.query(OTHER_SCOPE, { ...BASE_QUERY, search: 'https' });
        expect(page.total).toBe(expected(other, { ...BASE_QUERY, search: 'https' }).total);
      } finally {
        migrated.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
