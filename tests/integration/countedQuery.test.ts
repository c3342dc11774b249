/**
 * The counted road of the list query (electron/core/cache/countedQuery.ts and pageSeek.ts, over
 * the counts of migrations/v5ListCounts.ts), taken on small random data (the scopes counted
 * from the start): every page equals the oracle (tests/helpers/listOracle.ts), every total
 * equals a plain count of the rows, and the trigger-kept counts equal a recount after inserts,
 * changes and deletes. The urls are made to trip a count that assumed words: tokens that are
 * prefixes and suffixes of others, repeated tokens, letters whose lowercase is longer, %, _,
 * quotes, backslashes, spaces; the ids, dates and results to cross the position buckets (text
 * ids, 19-digit ids, missing dates). countedScopes.test.ts: when a scope is counted.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseCountedPlan, walkIndexFor, type ListPlan } from '../../electron/core/cache/listPlan';
import { ListQuery } from '../../electron/core/cache/listQuery';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { mulberry32, pick } from '../../electron/demo-service/random';
import {
  normalizeListQuery,
  REPORT_RESULTS,
  SORT_BY_VALUES,
  type NormalizedListQuery,
  type Report,
} from '../../shared/report';
import { FETCHED_AT, randomId, randomQuery, randomReport, recount } from '../helpers/countedData';
import { expectedPage, storedRow, type StoredRow } from '../helpers/listOracle';

/** A ListQuery over its own connection. */
function listOver(db: Database.Database, seekFromSteps?: number): ListQuery {
  const statements = new Map<string, Database.Statement>();
  return new ListQuery(
    db,
    (sql) => {
      let statement = statements.get(sql);
      if (!statement) statements.set(sql, (statement = db.prepare(sql)));
      return statement;
    },
    { seekFromSteps },
  );
}

/** Counts the scope from now on, as it would be from 20,000 reports (the counted road on small data). */
const countScope = (db: Database.Database, scope: string) =>
  db.prepare('INSERT OR IGNORE INTO counted_scopes (scope) VALUES (?)').run(scope);

/** The plan chooseCountedPlan gives for `q` from the oracle's counts. */
function planFor(rows: readonly StoredRow[], q: NormalizedListQuery, seekFromSteps?: number): ListPlan {
  const { leading } = walkIndexFor(q);
  const count = (project: string, result: string | null) =>
    rows.filter((r) => (project === '' || r.project === project) && (result === null || r.result === result))
      .length;
  return chooseCountedPlan(
    {
      q,
      total: expectedPage(rows, { ...q, page: 1 }).total,
      rangeRows: count(leading === 'project' ? q.project : '', leading === 'result' ? q.result : null),
      filteredRows: count(q.project, q.result),
    },
    seekFromSteps,
  );
}

/** A plan's kind, with a walk's search check and direction: 'walk url-set reverse'. */
const planName = (plan: ListPlan) =>
  plan.kind === 'walk' ? `walk ${plan.search}${plan.reverse ? ' reverse' : ''}` : plan.kind;

describe('the counted list query', () => {
  let dir: string;
  let cache: ReportCache;
  let db: Database.Database;
  // Seeking every deep page, and walking to each as a large scope's shallow pages do.
  let seeking: ListQuery;
  let walking: ListQuery;
  const stored = new Map<string, Map<string, StoredRow>>();
  const random = mulberry32(2211);
  const seen = new Set<string>();

  const put = (scope: string, reports: Report[]) => {
    cache.putReports(scope, reports, FETCHED_AT);
    const rows = stored.get(scope) ?? new Map<string, StoredRow>();
    for (const report of reports) rows.set(String(report.id), storedRow(report));
    stored.set(scope, rows);
  };
  const rowsOf = (scope: string) => [...(stored.get(scope)?.values() ?? [])];

  /** Each query's page and total on both lists equal the oracle's; the total equals a plain count. */
  const check = (scope: string, count: number, fixed: Partial<NormalizedListQuery>[] = []) => {
    const rows = rowsOf(scope);
    const plainCount = (q: NormalizedListQuery) => {
      const where = ['scope = ?', 'instr(url_lower, ?) > 0'];
      const args: unknown[] = [scope, q.search.toLowerCase()];
      for (const [column, value] of [
        ['project', q.project === '' ? null : q.project],
        ['result', q.result],
      ] as const)
        if (value !== null) {
          where.push(`${column} = ?`);
          args.push(value);
        }
      return (
        db.prepare(`SELECT count(*) AS n FROM reports WHERE ${where.join(' AND ')}`).get(...args) as {
          n: number;
        }
      ).n;
    };
    for (let i = 0; i < fixed.length + count; i++) {
      const q = i < fixed.length ? { ...normalizeListQuery(), ...fixed[i] } : randomQuery(random, rows);
      const expected = expectedPage(rows, q);
      for (const [list, seekFrom] of [
        [seeking, 0],
        [walking, undefined],
      ] as const) {
        const { page, plan } = list.query(scope, q);
        seen.add(planName(plan));
        // The page is the oracle's, read the way the planner chooses from the exact counts.
        expect({ q, plan, ids: page.reports.map((r) => r.id), total: page.total }).toEqual({
          q,
          plan: planFor(rows, q, seekFrom),
          ...expected,
        });
      }
      expect({ q, total: plainCount(q) }).toEqual({ q, total: expected.total });
    }
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'report-desk-counted-'));
    cache = ReportCache.open(join(dir, 'cache.sqlite'));
    db = new Database(cache.file);
    seeking = listOver(db, 0);
    walking = listOver(db);
    const urls: string[] = [];
    const main = Array.from({ length: 2_500 }, (_, i) => randomReport(random, randomId(random, i + 1), urls));
    for (const report of main.slice(0, 200)) urls.push(String(report.url));
    // A project of a few: its rows are sorted rather than walked to.
    for (const report of main.filter((_, i) => i % 500 === 7)) report.project = 'rare';
    // Another scope sharing urls and ids: never part of the first one's answers.
    const other = main.slice(0, 400).map((report) => ({ ...report, project: 'other' }));
    // Half of the rows are written before the scopes are counted (joining fills their counts
    // from the rows), half after (the triggers count them).
    put('main', main.slice(0, 1_250));
    put('other', other.slice(0, 200));
    for (const scope of ['main', 'other', 'odd']) countScope(db, scope);
    put('main', main.slice(1_250));
    put('other', other.slice(200));
  });
  afterAll(() => {
    db.close();
    cache.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every page and total as the oracle, in each scope', () => {
    // A project of a few, in every order: its rows are read and sorted (URL order: its urls' runs).
    check(
      'main',
      300,
      SORT_BY_VALUES.map((sort_by) => ({ project: 'rare', sort_by })),
    );
    check('other', 100);
    recount(db);
  });

  it('follows changed urls, projects, results and dates, removed reports and a cleared scope', () => {
    const ids = [...(stored.get('main')?.keys() ?? [])];
    const urls = rowsOf('main').map((row) => row.url);
    for (let round = 0; round < 3; round++) {
      const changed = ids.filter(() => random() < 0.1).map((id) => randomReport(random, id, urls));
      put('main', changed);
      for (const id of ids.filter(() => random() < 0.03)) {
        cache.removeReport('main', id);
        stored.get('main')?.delete(id);
      }
      recount(db);
      check('main', 100);
    }
    cache.clearScope('other');
    stored.delete('other');
    recount(db);
    expect(db.prepare(`SELECT count(*) AS n FROM search_urls WHERE scope = 'other'`).get()).toEqual({ n: 0 });
    check('other', 20);
  });

  it('counts the overview of a search as the rows are', () => {
    const rows = rowsOf('main');
    for (const search of ['contoso', 'a', '%_', 'ünï', 'i̇', 'zz-no-such', "'"]) {
      const counts = new Map<string, number>();
      for (const row of rows.filter((r) => r.urlLower.includes(search))) {
        const key = `${row.project ?? ''}|${row.result ?? ''}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const overview = seeking
        .resultCounts('main', { search, project: '', result: null })
        .map((row) => `${row.project}|${row.result}`);
      expect({ search, overview: overview.sort() }).toEqual({ search, overview: [...counts.keys()].sort() });
      for (const row of seeking.resultCounts('main', { search, project: '', result: null }))
        expect({ search, row }).toEqual({
          search,
          row: { ...row, n: counts.get(`${row.project}|${row.result}`) },
        });
    }
  });

  it('checks the rows of a url stored with two lowercased forms instead of trusting its counts', () => {
    // Only a program other than ReportDesk writes such rows (the cache lowercases every url).
    const insert = db.prepare(
      `INSERT INTO reports (scope, id, id_sort, url, url_lower, result, project, generated_at, fetched_at, record)
       VALUES ('odd', ?, ?, ?, ?, ?, NULL, NULL, ?, '{}')`,
    );
    const odd: StoredRow[] = [];
    // Urls of two forms, and (one in three rows) urls of one, as the cache writes them.
    for (let i = 0; i < 450; i++) {
      const url = i % 3 === 2 ? `https://Normal.example/${i % 4}` : `https://Odd.example/${i % 7}`;
      const urlLower = i % 3 === 0 ? `https://elsewhere.example/${i % 5}` : url.toLowerCase();
      const result = pick(random, REPORT_RESULTS);
      insert.run(String(i), i, url, urlLower, result, FETCHED_AT);
      odd.push({ id: String(i), idSort: i, url, urlLower, project: null, result, generatedAt: null });
    }
    for (const search of ['odd', 'elsewhere', '/3', 'example/1'])
      for (const sort_by of SORT_BY_VALUES)
        for (const page of [1, 2, 5]) {
          const q = { ...normalizeListQuery(), search, sort_by, page, per_page: 10 as const };
          const { page: answer, plan } = walking.query('odd', q);
          seen.add(planName(plan));
          expect({ q, ids: answer.reports.map((r) => r.id), total: answer.total }).toEqual({
            q,
            ...expectedPage(odd, q),
          });
        }
    recount(db);
  });

  it('took every plan of the counted road', () => {
    expect([...seen].sort()).toEqual([
      'empty',
      'filter-then-sort',
      'seek',
      'url-matches',
      'url-runs',
      'walk row',
      'walk row reverse',
      'walk url-set',
      'walk url-set reverse',
    ]);
  });
});
