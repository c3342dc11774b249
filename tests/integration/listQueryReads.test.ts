/**
 * How the list query reads, not only what it answers (cacheQueryPlan.test.ts proves the
 * answers): every plan in SQLite's own words (EXPLAIN QUERY PLAN of the statement it ran) and
 * the statements a search costs. A cache that answered right by a slower road (a sort where
 * the plan walks an index, every row's url checked where the trigram index has the matches,
 * a search counted again on every page) would pass the answer tests; these notice it.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListPlan } from '../../electron/core/cache/listPlan';
import { ListQuery } from '../../electron/core/cache/listQuery';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { DEMO_PROJECTS } from '../../electron/demo-service/seed';
import { serviceReports } from '../helpers/countedData';
import {
  normalizeListQuery,
  SORT_BY_VALUES,
  type NormalizedListQuery,
  type Report,
} from '../../shared/report';

const SCOPE = 'main';
const FETCHED_AT = '2025-06-01T12:00:00.000Z';
/** A word only a few reports' urls hold: the trigram index finds them, so they are collected. */
const RARE = 'needle';
/** A project of only those few: its rows are collected and sorted rather than walked to. */
const RARE_PROJECT = 'rare-project';

interface Ran {
  sql: string;
  args: unknown[];
}

/** A ListQuery over its own connection to the file, recording every statement it runs. */
function recordingListQuery(db: Database.Database, ran: Ran[]): ListQuery {
  return new ListQuery(db, (sql) => {
    const statement = db.prepare(sql);
    const recorded: Database.Statement = new Proxy(statement, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        if (property === 'all' || property === 'get' || property === 'run')
          return (...args: unknown[]) => {
            ran.push({ sql, args });
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        // pluck() and raw() return the statement itself: keep recording through them.
        if (property === 'pluck' || property === 'raw')
          return (...args: unknown[]) => {
            (value as (...a: unknown[]) => unknown).apply(target, args);
            return recorded;
          };
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
    return recorded;
  });
}

const isPageRead = (run: Ran) => run.sql.startsWith('SELECT id, record, fetched_at FROM reports');

/**
 * SQLite's plan for reading the page's rows, inner select only (the outer one orders the
 * page's few rows and is the same for every plan): its steps as text.
 */
function innerSteps(db: Database.Database, run: Ran): string[] {
  const steps = db.prepare(`EXPLAIN QUERY PLAN ${run.sql}`).all(...run.args) as {
    id: number;
    parent: number;
    detail: string;
  }[];
  const inner = steps.find((step) => step.parent === 0 && step.detail.startsWith('LIST SUBQUERY'));
  if (!inner) throw new Error(`no inner select in ${JSON.stringify(steps)}`);
  const within = new Set([inner.id]);
  for (const step of steps) if (within.has(step.parent)) within.add(step.id);
  return steps.filter((step) => step.id !== inner.id && within.has(step.id)).map((step) => step.detail);
}

describe('the list query’s reads', () => {
  let dir: string;
  let cache: ReportCache;
  let db: Database.Database;
  const ran: Ran[] = [];
  let list: ListQuery;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'report-desk-reads-'));
    cache = ReportCache.open(join(dir, 'cache.sqlite'));
    const reports: Report[] = serviceReports(3_000, 31);
    for (let i = 0; i < 5; i++)
      reports.push({
        id: String(90_000 + i),
        url: `https://x.example/${RARE}/${i}`,
        result: 'good',
        project: RARE_PROJECT,
      });
    cache.putReports(SCOPE, reports, FETCHED_AT);
    db = new Database(cache.file);
    list = recordingListQuery(db, ran);
  });
  afterAll(() => {
    db.close();
    cache.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = (change: Partial<NormalizedListQuery>) => {
    ran.length = 0;
    return list.query(SCOPE, { ...normalizeListQuery(), ...change });
  };
  const count = (prefix: string) => ran.filter((run) => run.sql.startsWith(prefix)).length;
  // A commit by another connection makes the list query forget every search it remembers.
  let nextId = 99_000;
  const forgetSearches = () =>
    cache.putReport(
      SCOPE,
      { id: String(nextId++), url: 'https://fresh.example', result: 'good' },
      FETCHED_AT,
    );

  it('reads each page the way its plan says, in SQLite’s own plan', () => {
    const seen = new Set<ListPlan['kind']>();
    for (const search of ['', 'co', 'contoso', 'checkout', RARE, 'zz-no-such'])
      for (const project of ['', DEMO_PROJECTS[0], RARE_PROJECT])
        for (const result of [null, 'bad'] as const)
          for (const sort_by of SORT_BY_VALUES)
            for (const page of [1, 2, 40, 300]) {
              const { plan } = query({ search, project, result, sort_by, page });
              seen.add(plan.kind);
              const pageReads = ran.filter(isPageRead);
              const context = { search, project, result, sort_by, page, plan };
              const asksMatches =
                plan.kind === 'trigram' || (plan.kind === 'walk' && plan.search === 'trigram-set');
              // Without a search the total is the trigger-kept counts: no row is counted. A plan
              // that does not ask the trigram index's matches never collects their rowids.
              const work = {
                counted: count('SELECT count(*)'),
                rowidsCollected: count('SELECT rowid FROM report_search'),
              };
              if (search === '' || !asksMatches)
                expect({ context, work }).toEqual({
                  context,
                  work: { counted: search === '' ? 0 : work.counted, rowidsCollected: 0 },
                });
              if (plan.kind === 'empty') {
                // Nothing to read: the page is past the last match.
                expect({ ...context, pageReads: pageReads.length }).toEqual({ ...context, pageReads: 0 });
                continue;
              }
              expect({ ...context, pageReads: pageReads.length }).toEqual({ ...context, pageReads: 1 });
              const steps = innerSteps(db, pageReads[0]).join(' | ');
              const sorts = /USE TEMP B-TREE FOR (LAST \d+ TERMS OF )?ORDER BY/.test(steps);
              const usesMatches = steps.includes('json_each');
              const walksIndex = new RegExp(
                `USING (COVERING )?INDEX ${plan.kind === 'walk' ? plan.index : 'reports_by_'}`,
              ).test(steps);
              const shape = { sorts, usesMatches, walksIndex };
              if (plan.kind === 'walk')
                // In the index's order, no sort step; a trigram-set walk asks the matches, a row walk reads the url.
                expect({ context, shape }).toEqual({
                  context,
                  shape: { sorts: false, usesMatches: plan.search === 'trigram-set', walksIndex: true },
                });
              else if (plan.kind === 'trigram')
                // The matches' rows by rowid, then sorted: no sort index walked.
                expect({ context, shape }).toEqual({
                  context,
                  shape: { sorts: true, usesMatches: true, walksIndex: false },
                });
              else
                expect({ context, shape }).toEqual({
                  context,
                  shape: { sorts: true, usesMatches: false, walksIndex: shape.walksIndex },
                });
            }
    expect([...seen].sort()).toEqual(['empty', 'filter-then-sort', 'trigram', 'walk']);
  });

  it('counts a search once while paging through it and sorting it another way', () => {
    forgetSearches();
    for (const search of ['contoso', 'co']) {
      const counts: number[] = [];
      for (const change of [{}, { page: 2 }, { page: 3, sort: 'asc' }, { sort_by: 'url' }] as const) {
        query({ search, ...change });
        counts.push(count('SELECT count(*) AS n FROM report'));
      }
      expect({ search, counts }).toEqual({ search, counts: [1, 0, 0, 0] });
    }
  });

  it('finds a search’s matching rowids once for every page that needs them', () => {
    forgetSearches();
    const rowidReads: number[] = [];
    for (const page of [1, 2, 3]) {
      // In URL order a search always walks with the set of its matches (see listPlan.ts).
      const { plan } = query({ search: 'contoso', sort_by: 'url', page });
      expect(plan).toMatchObject({ kind: 'walk', search: 'trigram-set' });
      rowidReads.push(count('SELECT rowid FROM report_search'));
    }
    expect(rowidReads).toEqual([1, 0, 0]);
  });

  it('remembers sixteen searches, then starts afresh', () => {
    const words = Array.from({ length: 17 }, (_, i) => `word-${i}-`);
    const counted = (search: string) => {
      query({ search });
      return count('SELECT count(*) AS n FROM report_search');
    };
    forgetSearches();
    for (const word of words.slice(0, 16)) expect(counted(word)).toBe(1);
    expect(counted(words[0])).toBe(0);
    // A seventeenth forgets the others (memory stays bounded).
    expect(counted(words[16])).toBe(1);
    expect(counted(words[0])).toBe(1);
    expect(counted(words[16])).toBe(0);
  });

  it('counts the overview without a search from the trigger-kept counts, never reading a report row', () => {
    for (const project of ['', DEMO_PROJECTS[0]])
      for (const result of [null, 'bad'] as const) {
        ran.length = 0;
        const counts = list.resultCounts(SCOPE, { project, result, search: '' });
        expect(counts.length).toBeGreaterThan(0);
        const steps = (
          db.prepare(`EXPLAIN QUERY PLAN ${ran[0].sql}`).all(...ran[0].args) as { detail: string }[]
        )
          .map((step) => step.detail)
          .join(' | ');
        expect({ project, result, steps }).toEqual({
          project,
          result,
          steps: expect.not.stringMatching(/\b(SCAN|SEARCH) reports\b/) as string,
        });
      }
  });

  it('leaves the scope out of a search while the file holds one scope, and puts it in once it holds two', () => {
    const searchedWith = () => {
      forgetSearches();
      query({ search: 'contoso' });
      const counting = ran.find((run) => run.sql.startsWith('SELECT count(*) AS n FROM report_search'));
      return String(counting?.args[0]);
    };
    expect(searchedWith()).not.toContain('scope_key');
    const alone = query({ search: 'contoso' }).page.total;
    cache.putReport('other', { id: '1', url: 'https://contoso.example/other', result: 'good' }, FETCHED_AT);
    expect(searchedWith()).toContain('scope_key');
    // The other scope's report is never part of this scope's answer.
    expect(query({ search: 'contoso' }).page.total).toBe(alone);
  });
});
