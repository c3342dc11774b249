/**
 * How the counted road reads (countedQuery.test.ts proves its answers): the statements a
 * counted scope's list query runs, and the page reads in SQLite's own plans. A road that
 * answered right by a slower way (a search counted on every page, the urls found by checking
 * each one when the trigram index has them, a page in URL order sorted, a walk reading rows
 * where it asks a set, a deep page walked from the start) would pass the answer tests; these
 * notice it.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListPlan } from '../../electron/core/cache/listPlan';
import { ListQuery } from '../../electron/core/cache/listQuery';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { normalizeListQuery, SORT_BY_VALUES, type NormalizedListQuery } from '../../shared/report';
import { FETCHED_AT, serviceReports } from '../helpers/countedData';

interface Ran {
  sql: string;
  args: unknown[];
}

/** A ListQuery over its own connection, recording every statement it runs (all, get, iterate). */
function recordingList(db: Database.Database, ran: Ran[], seekFromSteps?: number): ListQuery {
  return new ListQuery(
    db,
    (sql) => {
      const statement = db.prepare(sql);
      const recorded: Database.Statement = new Proxy(statement, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property, target);
          if (typeof value !== 'function') return value;
          if (property === 'all' || property === 'get' || property === 'iterate')
            return (...args: unknown[]) => {
              ran.push({ sql, args });
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          if (property === 'pluck')
            return (...args: unknown[]) => {
              (value as (...a: unknown[]) => unknown).apply(target, args);
              return recorded;
            };
          return (value as (...a: unknown[]) => unknown).bind(target);
        },
      });
      return recorded;
    },
    { seekFromSteps },
  );
}

/** SQLite's plan for a statement that ran, as one line of its steps. */
const steps = (db: Database.Database, run: Ran) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${run.sql}`).all(...run.args) as { detail: string }[])
    .map((step) => step.detail)
    .join(' | ');

const isPageRead = (run: Ran) => run.sql.startsWith('SELECT id, record, fetched_at FROM reports');

/** A page read's inner select (the outer one orders the page's few rows, whatever the plan), as one line. */
function innerSteps(db: Database.Database, run: Ran): string {
  const all = db.prepare(`EXPLAIN QUERY PLAN ${run.sql}`).all(...run.args) as {
    id: number;
    parent: number;
    detail: string;
  }[];
  const inner = all.find((step) => step.parent === 0 && step.detail.startsWith('LIST SUBQUERY'));
  if (!inner) throw new Error(`no inner select in ${JSON.stringify(all)}`);
  const within = new Set([inner.id]);
  for (const step of all) if (within.has(step.parent)) within.add(step.id);
  return all
    .filter((step) => step.id !== inner.id && within.has(step.id))
    .map((step) => step.detail)
    .join(' | ');
}

describe('the counted road’s reads', () => {
  let dir: string;
  let cache: ReportCache;
  let db: Database.Database;
  const ran: Ran[] = [];
  let list: ListQuery;
  let seeking: ListQuery;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'report-desk-counted-reads-'));
    cache = ReportCache.open(join(dir, 'cache.sqlite'));
    db = new Database(cache.file);
    for (const scope of ['main', 'odd'])
      db.prepare('INSERT INTO counted_scopes (scope) VALUES (?)').run(scope);
    // Ids 50 apart: the list's 200,000 ids span many buckets of the id order.
    const reports = serviceReports(4_000, 51, 50);
    for (let i = 0; i < 5; i++)
      reports.push({ id: String(90_000 + i), url: `https://x.example/needle/${i}`, result: 'good' });
    cache.putReports('main', reports, FETCHED_AT);
    // A url held with a second lowercased form (never written by the cache itself), and one
    // held with one, of another result (its counts are apart).
    db.prepare(
      `INSERT INTO reports (scope, id, id_sort, url, url_lower, result, project, generated_at, fetched_at, record)
       VALUES ('odd', '1', 1, 'https://Odd.example/a', 'https://odd.example/a', 'good', NULL, NULL, ?, '{}'),
              ('odd', '2', 2, 'https://Odd.example/a', 'https://elsewhere.example/', 'good', NULL, NULL, ?, '{}'),
              ('odd', '3', 3, 'https://odd.example/b', 'https://odd.example/b', 'bad', NULL, NULL, ?, '{}')`,
    ).run(FETCHED_AT, FETCHED_AT, FETCHED_AT);
    list = recordingList(db, ran);
    seeking = recordingList(db, ran, 0);
  });
  afterAll(() => {
    db.close();
    cache.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = (change: Partial<NormalizedListQuery>, scope = 'main', on = list) => {
    ran.length = 0;
    return on.query(scope, { ...normalizeListQuery(), ...change }).plan;
  };
  const urlStatements = () => ran.filter((run) => run.sql.includes('search_urls'));
  // A commit by another connection makes the list forget every search it remembers.
  let nextId = 99_000;
  const forgetSearches = () =>
    cache.putReport(
      'main',
      { id: String(nextId++), url: 'https://fresh.example', result: 'good' },
      FETCHED_AT,
    );

  it('counts a search of 3 characters or more through the trigram index over the urls, a shorter one by checking each url', () => {
    for (const [search, found] of [
      ['contoso', /^SCAN t VIRTUAL TABLE .*SEARCH u USING INTEGER PRIMARY KEY/],
      ['con', /^SCAN t VIRTUAL TABLE .*SEARCH u USING INTEGER PRIMARY KEY/],
      ['co', /^SEARCH u USING INDEX sqlite_autoindex_search_urls_1 \(scope=\?\)/],
    ] as const) {
      forgetSearches();
      query({ search });
      const counting = ran.filter((run) => run.sql.includes('sum(u.n) AS n, max(u.shared)'));
      expect({ search, counting: counting.length, steps: steps(db, counting[0]) }).toEqual({
        search,
        counting: 1,
        steps: expect.stringMatching(found) as string,
      });
      expect(counting[0].sql.includes('instr(u.url_lower')).toBe(search.length < 3);
    }
  });

  it('counts a search once for every page, order and filter of it, and never a list without one', () => {
    forgetSearches();
    const counted: number[] = [];
    for (const change of [
      {},
      { page: 2 },
      { sort_by: 'url' },
      { result: 'bad' },
      { project: 'shop', sort: 'asc' },
    ] as const) {
      query({ search: 'contoso', ...change });
      counted.push(ran.filter((run) => run.sql.includes('max(u.shared)')).length);
    }
    expect(counted).toEqual([1, 0, 0, 0, 0]);
    for (const sort_by of SORT_BY_VALUES)
      for (const page of [1, 300]) {
        query({ sort_by, page });
        expect({ sort_by, page, statements: urlStatements().map((run) => run.sql) }).toEqual({
          sort_by,
          page,
          statements: [],
        });
      }
    // A filter in URL order reads its urls' runs, and counts no search.
    for (const change of [{ project: 'shop' }, { result: 'bad' as const }]) {
      const plan = query({ sort_by: 'url', page: 2, ...change });
      const counting = ran.filter((run) => run.sql.includes('max(u.shared)')).length;
      expect({ change, plan: plan.kind, counting }).toEqual({ change, plan: 'url-runs', counting: 0 });
    }
  });

  it('reads each page the way its plan says, in SQLite’s own plan', () => {
    const seen = new Set<string>();
    for (const search of ['', 'contoso', 'news', 'fabrikam.io/products', 'needle', 'co'])
      for (const result of [null, 'bad'] as const)
        for (const sort_by of SORT_BY_VALUES)
          for (const [page, on] of [
            [1, list],
            [3, list],
            [150, seeking],
          ] as const) {
            const plan: ListPlan = query({ search, result, sort_by, page, per_page: 10 }, 'main', on);
            const kind = plan.kind === 'walk' ? `walk ${plan.search}` : plan.kind;
            seen.add(kind);
            const reads = ran.filter(isPageRead);
            const context = { search, result, sort_by, page, plan };
            if (plan.kind === 'empty') {
              expect({ context, reads: reads.length }).toEqual({ context, reads: 0 });
              continue;
            }
            const shape = reads.map((read) => {
              const inner = innerSteps(db, read);
              return {
                sorts: /USE TEMP B-TREE FOR (LAST \d+ TERMS OF )?ORDER BY/.test(inner),
                walked: /USING (?:COVERING )?INDEX (reports_by_\w+)/.exec(inner)?.[1],
                // The matching urls: a list of them, or their rows found in the URL index.
                asksUrls: read.sql.includes('json_each(@urls)') || read.sql.includes('FROM search_url'),
                rowSet: /LIST SUBQUERY \d+ \| SEARCH reports USING COVERING INDEX reports_by_url/.test(inner),
                start: read.sql.includes('>= @start'),
                checksUrls: read.sql.includes('instr(url_lower'),
                // The matching urls found from the trigram index over them (3 characters or more).
                fromTrigrams: read.sql.includes('search_url_trigrams t CROSS JOIN'),
              };
            });
            const index = 'index' in plan ? plan.index : 'reports_by_url';
            const none = {
              sorts: false,
              asksUrls: false,
              rowSet: false,
              start: false,
              checksUrls: false,
              fromTrigrams: false,
            };
            const trigrams = search.length >= 3;
            const expected = {
              'walk row': { ...none, walked: index, checksUrls: search !== '' },
              'walk url-set': {
                ...none,
                walked: index,
                asksUrls: true,
                rowSet: true,
                fromTrigrams: trigrams,
              },
              'url-runs': { ...none, walked: 'reports_by_url', asksUrls: search !== '' || result !== null },
              'url-matches': {
                ...none,
                sorts: true,
                walked: 'reports_by_url',
                asksUrls: true,
                fromTrigrams: trigrams,
              },
              seek: { ...none, walked: index, start: true },
            }[kind];
            expect({ context, shape }).toEqual({ context, shape: shape.map(() => expected) });
            // A page in URL order asks the matching urls in that order, from their index, no sort.
            if (plan.kind === 'url-runs') {
              const runs = ran.filter((run) => run.sql.includes('GROUP BY u.url ORDER BY u.url'));
              expect({ context, runs: runs.map((run) => steps(db, run)) }).toEqual({
                context,
                runs: [expect.not.stringMatching(/TEMP B-TREE/) as string],
              });
              expect(steps(db, runs[0])).toContain('sqlite_autoindex_search_urls_1');
            }
          }
    expect([...seen].sort()).toEqual([
      'empty',
      'seek',
      'url-matches',
      'url-runs',
      'walk row',
      'walk url-set',
    ]);
  });

  it('counts the overview of a search from its urls’ counts, and without one from the counts per filter', () => {
    forgetSearches();
    for (const search of ['contoso', 'co', '']) {
      ran.length = 0;
      expect(list.resultCounts('main', { search, project: '', result: null }).length).toBeGreaterThan(0);
      // No statement reads the reports themselves (the others read no table).
      const tables = ran.map((run) => /FROM (\w+)/.exec(run.sql)?.[1]).filter((table) => table !== undefined);
      expect({ search, tables }).toEqual({
        search,
        tables:
          search === ''
            ? ['report_counts']
            : ['counted_scopes', search.length < 3 ? 'search_urls' : 'search_url_trigrams'],
      });
    }
  });

  it('checks the rows of a url held with two lowercased forms, and only then', () => {
    const checks = (scope: string, change: Partial<NormalizedListQuery>) => {
      query({ search: 'odd.example', ...change }, scope);
      return ran.filter(isPageRead).map((read) => read.sql.includes('instr(url_lower'));
    };
    expect(checks('odd', { sort_by: 'url' })).toEqual([true]);
    expect(checks('odd', { sort_by: 'id' })).toEqual([true]);
    expect(checks('main', { sort_by: 'url' })).toEqual([]);
  });
});
