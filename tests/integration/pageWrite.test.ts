/**
 * A page's write into a real SQLite file (cache/reportWrites.ts, cache/rowUpserts.ts): the
 * rows land as the page says whatever their order (new and stored ones mixed, an id twice),
 * the search index and the counts follow them, and the page is upserted by one statement in
 * rowid order, not a statement per row (issue 29: FTS5 writes its index at every statement's
 * savepoint, so a page of 100 changed rows cost 6 ms in the gateway bench that way). The change
 * log's age cut walks the log in its order (changeLog.ts).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHANGE_LOG_DAYS } from '../../electron/core/cache/changeLog';
import { LAST_FULL_SYNC_META, ReportCache } from '../../electron/core/cache/reportCache';
import { RowUpserts, writeOrder, type RowValues } from '../../electron/core/cache/rowUpserts';
import { normalizeListQuery, type Report } from '../../shared/model';
import { generateReports } from '../fixtures/generatedReports';

let dir: string;
let file: string;
let cache: ReportCache;
let raw: Database.Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-page-write-'));
  file = join(dir, 'cache.sqlite');
  cache = ReportCache.open(file);
  // A second connection to the same file, to look at what the cache's triggers keep.
  raw = new Database(file);
});
afterEach(() => {
  raw.close();
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const T0 = '2026-11-01T00:00:00.000Z';
const at = (days: number) => new Date(Date.parse(T0) + days * 86_400_000).toISOString();
const RESULTS = ['good', 'decent', 'bad'] as const;
/** The page as the list sends it by default: newest first. */
const newestFirst = (reports: Report[]) => [...reports].sort((a, b) => Number(b.id) - Number(a.id));
const ids = (search: string, result?: (typeof RESULTS)[number]) =>
  cache
    .query('p', normalizeListQuery({ search, result, per_page: 100, sort_by: 'id', sort: 'asc' }))
    .page.reports.map((r) => r.id);

describe('a page of rows, new and stored, in the order the list sends them', () => {
  it('lands as the page says: values, search, counts, and the last of an id given twice', () => {
    const stored = generateReports(60);
    cache.putReports('p', stored, T0);
    const changed = stored.slice(20, 50).map((r, i) => ({ ...r, result: RESULTS[(i + 1) % 3], score: 7 }));
    const added = generateReports(10, 61);
    const twice = { ...stored[0], url: 'https://twice.example/second' };
    const page = newestFirst([...changed, ...added, { ...stored[0], url: 'https://twice.example/first' }]);
    cache.putReports('p', [...page, twice], at(1));

    const all = [...stored.slice(1, 20), ...changed, ...stored.slice(50), ...added, twice];
    for (const report of all) expect(cache.getReport('p', String(report.id))?.report).toEqual(report);
    expect(cache.status('p').reportCount).toBe(70);
    for (const result of RESULTS) {
      expect(ids('', result)).toEqual(
        all
          .filter((r) => r.result === result)
          .map((r) => String(r.id))
          .sort((a, b) => Number(a) - Number(b)),
      );
    }
    expect(ids('twice.example/second')).toEqual(['1']);
    expect(ids('twice.example/first')).toEqual([]);
    // Rows the page did not carry keep their fetch time; every row it carried has the new one.
    expect(cache.getReport('p', '5')?.fetchedAt).toBe(T0);
    expect(cache.getReport('p', '30')?.fetchedAt).toBe(at(1));
  });

  it('is upserted by one statement, whatever the number of rows', () => {
    cache.putReports('p', generateReports(300), T0);
    // RowUpserts over the other connection, each statement it runs recorded.
    const runs: string[] = [];
    const upserts = new RowUpserts((sql) => {
      const statement = raw.prepare(sql);
      return {
        run: (...args: unknown[]) => (
          runs.push(sql.trim().split(/\s+/).slice(0, 3).join(' ')),
          statement.run(...args)
        ),
      } as unknown as Database.Statement;
    });
    runs.length = 0;
    const values = (report: Report, result: string): RowValues => ({
      scope: 'p',
      id: String(report.id),
      idSort: Number(report.id),
      url: String(report.url),
      urlLower: String(report.url).toLowerCase(),
      result,
      project: null,
      generatedAt: null,
      fetchedAt: T0,
      seen: null,
      record: JSON.stringify({ ...report, result }),
    });
    const rowid = (id: string) =>
      (raw.prepare("SELECT rowid FROM reports WHERE scope = 'p' AND id = ?").get(id) as { rowid: number })
        .rowid;
    const changed = generateReports(90, 200).map((r) => ({
      rowid: rowid(String(r.id)),
      values: values(r, 'bad'),
    }));
    const added = generateReports(10, 301).map((r) => ({ rowid: null, values: values(r, 'good') }));
    upserts.write([...added, ...changed].reverse());
    expect(runs.filter((sql) => sql === 'INSERT INTO reports')).toHaveLength(1);
    expect(runs.filter((sql) => sql === 'INSERT INTO temp.report_writes')).toHaveLength(100);
    expect(runs.at(-1)).toBe('DELETE FROM temp.report_writes');
    const count = (sql: string) => (raw.prepare(sql).get() as { n: number }).n;
    expect(
      count("SELECT count(*) AS n FROM reports WHERE result = 'bad' AND id_sort BETWEEN 200 AND 289"),
    ).toBe(90);
    expect(count('SELECT count(*) AS n FROM reports')).toBe(310);
    expect(count('SELECT count(*) AS n FROM temp.report_writes')).toBe(0);
  });

  it('orders the rows for the statement: stored ones by rowid, new ones after, as given', () => {
    const row = (id: string, rowid: number | null) => ({ rowid, values: { id } as RowValues });
    const order = writeOrder([row('a', 9), row('b', null), row('c', 2), row('d', 30), row('e', null)]);
    expect(order.map((r) => r.values.id)).toEqual(['c', 'a', 'd', 'b', 'e']);
    expect(writeOrder([])).toEqual([]);
  });

  it('written again unchanged within the minute, writes nothing to the file (other connections see no change)', () => {
    const reports = generateReports(20);
    cache.putReports('p', reports, T0);
    const version = () => raw.pragma('data_version', { simple: true }) as number;
    const start = version();
    // At the same time, and 30 s later: the rows are fresh, nothing is written.
    cache.putReports('p', reports, T0);
    cache.putReports('p', reports, new Date(Date.parse(T0) + 30_000).toISOString());
    expect(version()).toBe(start);
    // A minute and more later the fetch time moves on (the age shown is minute-grained).
    cache.putReports('p', reports, new Date(Date.parse(T0) + 61_000).toISOString());
    expect(version()).not.toBe(start);
    expect(cache.getReport('p', '3')?.fetchedAt).toBe(new Date(Date.parse(T0) + 61_000).toISOString());
  });

  it('leaves no staged row behind, after a write and after one that failed', () => {
    const [report] = generateReports(1);
    cache.putReports('p', [report], T0);
    // The file refuses one row (a trigger added from the other connection): the page's write fails.
    raw.exec(`CREATE TRIGGER refuse BEFORE INSERT ON reports WHEN new.id = 'x'
              BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    expect(() => cache.putReports('p', [{ ...report, id: 'x' }, ...generateReports(2, 10)], T0)).toThrow(
      'refused',
    );
    raw.exec('DROP TRIGGER refuse');
    cache.putReports('p', generateReports(2, 20), at(1));
    cache.putReports('p', [{ ...report, score: 99 }], at(2));
    expect(cache.status('p').reportCount).toBe(3);
    expect(cache.getReport('p', 'x')).toBeNull();
    expect(cache.getReport('p', '1')?.report.score).toBe(99);
    expect(cache.getReport('p', '20')?.fetchedAt).toBe(at(1));
  });
});

describe('the change log’s age cut, in log order', () => {
  const change = (id: string, when: string) => ({ id, kind: 'added' as const, at: when, fields: {} });
  const logged = () => cache.changes.list('p').map((c) => c.id);

  it('drops from the oldest entry up to the first within the retention, and stops there', () => {
    cache.changes.record('p', [change('a', at(0)), change('b', at(2)), change('late', at(1))]);
    cache.changes.record('p', [change('new', at(CHANGE_LOG_DAYS + 1.5))]);
    // 'a' is past the 30 days; 'b' is not, so 'late' (logged after it) waits for it.
    expect(logged()).toEqual(['new', 'late', 'b']);
    cache.changes.record('p', [change('newer', at(CHANGE_LOG_DAYS + 3))]);
    expect(logged()).toEqual(['newer', 'new']);
  });

  it('writes a batch’s entries exactly 30 days older than its newest, and none older', () => {
    cache.changes.record('p', [
      change('edge', at(0)),
      change('older', at(-0.001)),
      change('new', at(CHANGE_LOG_DAYS)),
    ]);
    expect(logged()).toEqual(['new', 'edge']);
  });

  it('drops everything when no entry is within the retention, and only the scope’s own', () => {
    cache.changes.record('p', [change('a', at(0)), change('b', at(1))]);
    cache.changes.record('q', [change('q', at(0))]);
    cache.changes.record('p', [change('old-in-batch', at(0)), change('new', at(CHANGE_LOG_DAYS + 5))]);
    expect(logged()).toEqual(['new']);
    expect(cache.changes.list('q').map((c) => c.id)).toEqual(['q']);
  });

  it('a write that changes nothing logs nothing, and one after the first full sync logs what it changed', () => {
    const reports = generateReports(3);
    cache.putReports('p', reports, T0);
    cache.setMeta('p', LAST_FULL_SYNC_META, T0);
    expect(cache.putReports('p', reports, at(1))).toEqual({ added: 0, changed: 0, badNews: 0 });
    expect(logged()).toEqual([]);
    cache.putReports('p', [{ ...reports[0], result: 'bad' }], at(2));
    expect(logged()).toEqual(['1']);
  });
});
