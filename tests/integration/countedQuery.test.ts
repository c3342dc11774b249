/**
 * The counted road of the list query (electron/core/cache/countedQuery.ts and pageSeek.ts, over
 * the counts of migrations/v5ListCounts.ts), forced on small random data: every page equals the
 * oracle (tests/helpers/listOracle.ts), every total equals a plain count of the rows, and the
 * trigger-kept counts equal a recount after inserts, changes and deletes. The urls are made to
 * trip a count that assumed words: tokens that are prefixes and suffixes of others, repeated
 * tokens, letters whose lowercase is longer, %, _, quotes, backslashes, spaces; the ids, dates
 * and results to cross the position buckets (text ids, 19-digit ids, missing dates).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListPlan } from '../../electron/core/cache/listPlan';
import { ListQuery } from '../../electron/core/cache/listQuery';
import { MIGRATIONS, ReportCache } from '../../electron/core/cache/reportCache';
import { mulberry32, pick, type Random } from '../../electron/demo-service/random';
import { generateReports } from '../../electron/demo-service/seed';
import {
  normalizeListQuery,
  PER_PAGE_VALUES,
  REPORT_RESULTS,
  SORT_BY_VALUES,
  SORT_VALUES,
  type NormalizedListQuery,
  type Report,
} from '../../shared/report';
import { expectedPage, storedRow, type StoredRow } from '../helpers/listOracle';

const FETCHED_AT = '2025-06-01T12:00:00.000Z';
const TOKENS = [
  'contoso',
  'contosoltd',
  'ltd',
  'con',
  'toso',
  'news',
  'newsletter',
  'letter',
  'a',
  'aa',
  'aaa',
  'x',
  '%',
  '_',
  '%_',
  '%25',
  '"hi"',
  "it's",
  'back\\slash',
  'two words',
  'Ünïcode',
  'İstanbul',
  'STRASSE',
  'straße',
  '中文',
  '😀',
  'e\u0301',
  '?q=',
  '&',
  '#frag',
];
const PROJECTS: unknown[] = ['alpha', 'beta', 'R&D', '"q"', null, '', 7];

function randomUrl(random: Random): string {
  const words = (n: number, glue: string) => Array.from({ length: n }, () => pick(random, TOKENS)).join(glue);
  const scheme = pick(random, ['https://', 'http://', 'HTTP://', '']);
  const host = words(1 + Math.floor(random() * 3), pick(random, ['.', '-']));
  // Repeated tokens on purpose: "a/a/a" and "contoso/contoso".
  const path =
    random() < 0.2 ? `/${pick(random, TOKENS)}`.repeat(3) : `/${words(Math.floor(random() * 4), '/')}`;
  return `${scheme}${host}${path}${random() < 0.2 ? `?${words(2, '=')}` : ''}`;
}

function randomId(random: Random, index: number): string {
  const roll = random();
  // Numeric ids spread over many 4,096-id buckets, some text ids, some longer than a double holds.
  if (roll < 0.8) return String(index * 97 + Math.floor(random() * 90));
  if (roll < 0.9) return `${pick(random, ['a', 'B', 'z-', '中', '0'])}${index}`;
  if (roll < 0.95) return `${index}`.padStart(19, '9');
  return `00${index}`;
}

function randomReport(random: Random, id: string, urls: readonly string[]): Report {
  const day = 1 + Math.floor(random() * 9);
  return {
    id,
    // Some urls repeat, as reports of the same page do.
    url: urls.length > 0 && random() < 0.4 ? pick(random, urls) : randomUrl(random),
    project: pick(random, PROJECTS) as string | null,
    result: random() < 0.15 ? null : pick(random, REPORT_RESULTS),
    generated_at:
      random() < 0.1
        ? null
        : random() < 0.05
          ? ''
          : `2025-05-0${day}T${String(day).padStart(2, '0')}:00:00.000Z`,
  };
}

function randomQuery(random: Random, rows: readonly StoredRow[]): NormalizedListQuery {
  const per_page = pick(random, PER_PAGE_VALUES);
  const roll = random();
  // By characters: half a surrogate pair is no search a person types.
  const url = rows.length > 0 ? [...pick(random, rows).url] : [];
  const start = Math.floor(random() * url.length);
  const search =
    roll < 0.25
      ? ''
      : roll < 0.6
        ? url.slice(start, start + 1 + Math.floor(random() * 12)).join('')
        : roll < 0.85
          ? pick(random, TOKENS)
          : pick(random, ['co', 'a', 'ß', 'i̇', 'zz-no-such', '//', '%_', "'", 'CONTOSO']);
  const last = Math.max(1, Math.ceil(rows.length / per_page));
  const pageRoll = random();
  return {
    ...normalizeListQuery(),
    search: random() < 0.2 ? search.toUpperCase() : search,
    project: random() < 0.3 ? pick(random, ['alpha', 'beta', 'R&D', '"q"', '7', 'rare', 'nope']) : '',
    result: random() < 0.3 ? pick(random, REPORT_RESULTS) : null,
    sort_by: pick(random, SORT_BY_VALUES),
    sort: pick(random, SORT_VALUES),
    per_page,
    page:
      pageRoll < 0.4
        ? 1 + Math.floor(random() * 3)
        : pageRoll < 0.9
          ? 1 + Math.floor(random() * last)
          : last + 1 + Math.floor(random() * 2),
  };
}

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

/** The trigger-kept counts of the counted scopes equal a recount of their reports. */
function recount(db: Database.Database): void {
  const counted = 'scope IN (SELECT scope FROM counted_scopes)';
  const kept = db
    .prepare(`SELECT scope, url, url_lower, project, result, n FROM search_urls ORDER BY 1, 2, 3, 4, 5`)
    .all();
  const reports = db
    .prepare(
      `SELECT scope, url, url_lower, coalesce(project, '') AS project, coalesce(result, '') AS result, count(*) AS n
       FROM reports WHERE ${counted} GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
    )
    .all();
  expect(kept).toEqual(reports);
  const positions = db
    .prepare(
      `SELECT scope, sort, result, sum(n) AS n FROM report_positions GROUP BY 1, 2, 3 HAVING sum(n) > 0 ORDER BY 1, 2, 3`,
    )
    .all();
  const perResult = db
    .prepare(
      `SELECT scope, sort.value AS sort, coalesce(result, 0) AS result, count(*) AS n
       FROM reports, json_each('["g","i","u"]') AS sort WHERE ${counted} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    )
    .all();
  expect(positions).toEqual(perResult);
}

/** Writes rows straight into the reports table, in one transaction (the triggers count them). */
function insertRows(db: Database.Database, scope: string, rows: readonly StoredRow[]): void {
  const insert = db.prepare(
    `INSERT INTO reports (scope, id, id_sort, url, url_lower, result, project, generated_at, fetched_at, record)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '{}')`,
  );
  db.transaction(() => {
    for (const r of rows)
      insert.run(scope, r.id, r.idSort, r.url, r.urlLower, r.result, r.project, r.generatedAt, FETCHED_AT);
  })();
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
      for (const list of [seeking, walking]) {
        const { page, plan } = list.query(scope, q);
        seen.add(planName(plan));
        expect({ q, plan, ids: page.reports.map((r) => r.id), total: page.total }).toEqual({
          q,
          plan,
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
    for (let i = 0; i < 300; i++) {
      const url = `https://Odd.example/${i % 7}`;
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

describe('a scope that reaches 20,000 reports', () => {
  const generated = (count: number, firstId: number, seed: number): Report[] =>
    generateReports({
      seed,
      count,
      firstId,
      anchor: new Date('2025-06-01T00:00:00.000Z'),
      passwordHash: '',
    }).map(({ password_hash: _hash, id, ...rest }) => ({ ...rest, id: String(id) }));
  const queries = (rows: readonly StoredRow[], seed: number) => {
    const random = mulberry32(seed);
    return Array.from({ length: 60 }, () => randomQuery(random, rows));
  };
  const counted = (db: Database.Database) =>
    (db.prepare('SELECT scope FROM counted_scopes ORDER BY scope').pluck().all() as string[]).join();
  const trigramHits = (db: Database.Database, text: string) =>
    (
      db
        .prepare('SELECT count(*) AS n FROM report_search WHERE report_search MATCH ?')
        .get(`url : "${text}"`) as {
        n: number;
      }
    ).n;

  it('is counted from then on, answering as before, while a smaller scope keeps the trigram index', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-desk-crossing-'));
    const cache = ReportCache.open(join(dir, 'cache.sqlite'));
    const db = new Database(cache.file);
    try {
      const small = generated(600, 1, 41);
      const big = generated(19_999, 1, 42);
      cache.putReports('small', small, FETCHED_AT);
      insertRows(db, 'big', big.map(storedRow));
      expect(counted(db)).toBe('');
      // The 20,000th report and 299 more, each on a url only it has: the scope joins at one
      // of them (it is looked at every 256th row).
      const after = Array.from({ length: 300 }, (_, i) => ({
        id: String(30_000 + i),
        url: `https://After-Crossing-${i}.example/`,
        result: 'good' as const,
      }));
      cache.putReports('big', after, FETCHED_AT);
      expect(counted(db)).toBe('big');
      // The rows before it joined are in the trigram index, the last ones no longer.
      const indexed = after.map((_, i) => trigramHits(db, `after-crossing-${i}.`));
      expect(indexed[0]).toBe(1);
      expect(indexed.slice(-40)).toEqual(after.slice(-40).map(() => 0));
      expect(cache.query('big', { ...normalizeListQuery(), search: 'after-crossing' }).page.total).toBe(300);
      recount(db);
      const bigRows = [...big, ...after].map(storedRow);
      const smallRows = small.map(storedRow);
      for (const q of queries(bigRows, 43)) {
        const { page, plan } = cache.query('big', q);
        expect({ q, plan: plan.kind, ids: page.reports.map((r) => r.id), total: page.total }).toEqual({
          q,
          plan: plan.kind,
          ...expectedPage(bigRows, q),
        });
      }
      // The smaller scope is still read with the trigram index (choosePlan's plans only).
      for (const q of queries(smallRows, 44)) {
        const { page, plan } = cache.query('small', q);
        expect(['empty', 'walk', 'trigram', 'filter-then-sort']).toContain(plan.kind);
        expect({ q, ids: page.reports.map((r) => r.id), total: page.total }).toEqual({
          q,
          ...expectedPage(smallRows, q),
        });
      }
    } finally {
      db.close();
      cache.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is counted when a cache written before the counts is opened', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-desk-counted-migration-'));
    const file = join(dir, 'cache.sqlite');
    try {
      // A file as schema version 3 left it: a scope of 20,000 reports and a smaller one.
      const old = new Database(file);
      MIGRATIONS.slice(0, 3).forEach((sql) => old.exec(sql));
      old.pragma('user_version = 3');
      const rows: Record<string, StoredRow[]> = {
        big: generated(20_000, 1, 45).map(storedRow),
        small: generated(500, 1, 46).map(storedRow),
      };
      for (const [scope, stored] of Object.entries(rows)) insertRows(old, scope, stored);
      old.close();

      const cache = ReportCache.open(file);
      const db = new Database(file);
      try {
        expect(counted(db)).toBe('big');
        recount(db);
        for (const [scope, stored] of Object.entries(rows))
          for (const q of queries(stored, 47)) {
            const { page } = cache.query(scope, q);
            expect({ scope, q, ids: page.reports.map((r) => r.id), total: page.total }).toEqual({
              scope,
              q,
              ...expectedPage(stored, q),
            });
          }
      } finally {
        db.close();
        cache.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
