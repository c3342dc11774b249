import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { normalizeListQuery, type ListQuery, type Report } from '../../shared/report';
import { generateReports } from '../fixtures/generatedReports';

let dir: string;
let cache: ReportCache;
const T1 = '2024-05-01T10:00:00.000Z';
const T2 = '2024-05-02T10:00:00.000Z';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-cache-'));
  cache = ReportCache.open(join(dir, 'nested', 'cache.sqlite'));
});
afterEach(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The service's semantics written plainly, as the oracle for the SQL version. */
function expectedIds(reports: Report[], q: ListQuery): { ids: string[]; total: number } {
  const n = normalizeListQuery(q);
  const byId = (a: Report, b: Report) => {
    const an = /^\d+$/.test(a.id),
      bn = /^\d+$/.test(b.id);
    if (an && bn && Number(a.id) !== Number(b.id)) return Number(a.id) - Number(b.id);
    if (an !== bn) return an ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  const column = (r: Report) => (n.sort_by === 'id' ? '' : String(r[n.sort_by] ?? ''));
  const matches = reports
    .filter((r) => n.search === '' || r.url.toLowerCase().includes(n.search.toLowerCase()))
    .filter((r) => n.project === '' || String(r.project) === n.project)
    .filter((r) => n.result === null || r.result === n.result)
    .sort((a, b) => {
      const ca = column(a),
        cb = column(b);
      const order = ca < cb ? -1 : ca > cb ? 1 : byId(a, b);
      return n.sort === 'asc' ? order : -order;
    });
  return {
    ids: matches.slice((n.page - 1) * n.per_page, n.page * n.per_page).map((r) => r.id),
    total: matches.length,
  };
}

describe('ReportCache', () => {
  it('stores whole records, unknown fields too, and answers them with their fetch time', () => {
    const report: Report = { id: '7', url: 'https://a.example', result: 'good', extra: { deep: [1, 2] } };
    cache.putReport('p1', report, T1);
    expect(cache.getReport('p1', '7')).toEqual({ report, fetchedAt: T1 });
    cache.putReport('p1', { ...report, result: 'bad' }, T2);
    expect(cache.getReport('p1', '7')).toEqual({ report: { ...report, result: 'bad' }, fetchedAt: T2 });
    cache.removeReport('p1', '7');
    expect(cache.getReport('p1', '7')).toBeNull();
  });

  it('keeps scopes apart', () => {
    cache.putReports('p1', generateReports(5), T1);
    cache.putAccount('p1', { name: 'One' }, T1);
    cache.setMeta('p1', 'k', 'v');
    expect(cache.getReport('p2', '1')).toBeNull();
    expect(cache.getAccount('p2')).toBeNull();
    expect(cache.getMeta('p2', 'k')).toBeNull();
    expect(cache.query('p2', normalizeListQuery()).page.total).toBe(0);
    expect(cache.projects('p2')).toEqual([]);

    cache.putReports('p2', generateReports(2), T1);
    cache.clearScope('p1');
    expect(cache.status('p1').reportCount).toBe(0);
    expect(cache.getAccount('p1')).toBeNull();
    expect(cache.getMeta('p1', 'k')).toBeNull();
    expect(cache.status('p2').reportCount).toBe(2);
    cache.clearAll();
    expect(cache.status('p2').reportCount).toBe(0);
  });

  it('answers list queries with the service semantics for every sort, filter and page', () => {
    const reports = [
      ...generateReports(60),
      { id: '1000', url: 'https://SITE1.example.com/UPPER', result: 'good' as const, project: 'project-1' },
      { id: 'abc', url: 'https://x.example/100%_off', result: null, project: null },
      { id: '007', url: 'https://x.example/a_b', result: 'bad' as const, generated_at: null },
    ];
    cache.putReports('p', reports, T1);
    const queries: ListQuery[] = [];
    for (const sort_by of ['id', 'generated_at', 'url', 'result'] as const) {
      for (const sort of ['asc', 'desc'] as const) {
        queries.push({ sort_by, sort, per_page: 10, page: 2 });
        queries.push({ sort_by, sort, per_page: 25, result: 'good' });
        queries.push({ sort_by, sort, per_page: 10, project: 'project-1', search: 'site1' });
      }
    }
    queries.push({}, { page: 3 }, { search: 'upper' }, { search: '100%_' }, { search: '%' }, { search: '_' });
    for (const q of queries) {
      const { page } = cache.query('p', normalizeListQuery(q));
      const expected = expectedIds(reports, q);
      expect({ q, ids: page.reports.map((r) => r.id), total: page.total }).toEqual({ q, ...expected });
    }
  });

  it('sorts ids numerically, text ids after numbers, ties by id in the same direction', () => {
    cache.putReports(
      'p',
      ['10', '9', '100', 'b', 'a', '2'].map((id) => ({ id, url: 'u', result: 'good' })),
      T1,
    );
    const ids = (q: ListQuery) => cache.query('p', normalizeListQuery(q)).page.reports.map((r) => r.id);
    expect(ids({ sort_by: 'id', sort: 'asc' })).toEqual(['2', '9', '10', '100', 'a', 'b']);
    expect(ids({ sort_by: 'result', sort: 'desc' })).toEqual(['b', 'a', '100', '10', '9', '2']);
  });

  it('treats LIKE wildcards in a search as plain characters, case-insensitively', () => {
    cache.putReports(
      'p',
      [
        { id: '1', url: 'https://a.example/50%25off' },
        { id: '2', url: 'https://a.example/50_off' },
        { id: '3', url: 'https://a.example/5000ff' },
        { id: '4', url: 'https://A.EXAMPLE/50%OFF' },
      ],
      T1,
    );
    const ids = (search: string) =>
      cache.query('p', normalizeListQuery({ search, sort: 'asc' })).page.reports.map((r) => r.id);
    expect(ids('50%')).toEqual(['1', '4']);
    expect(ids('50_')).toEqual(['2']);
    expect(ids('0%o')).toEqual(['4']);
    expect(ids('a.example/50')).toEqual(['1', '2', '3', '4']);
  });

  it('reports paging, and the age of the oldest row shown', () => {
    cache.putReports('p', generateReports(23), T2);
    cache.putReport('p', generateReports(1, 5)[0], T1);
    const first = cache.query('p', normalizeListQuery({ sort: 'asc' }));
    expect(first.page).toMatchObject({ page: 1, perPage: 10, total: 23, lastPage: 3 });
    expect(first.fetchedAt).toBe(T1);
    const last = cache.query('p', normalizeListQuery({ sort: 'asc', page: 3 }));
    expect(last.page.reports.map((r) => r.id)).toEqual(['21', '22', '23']);
    expect(last.fetchedAt).toBe(T2);
    const empty = cache.query('p', normalizeListQuery({ search: 'nothing-like-this' }));
    expect(empty).toEqual({
      page: { reports: [], page: 1, perPage: 10, total: 0, lastPage: 1 },
      fetchedAt: null,
      plan: { kind: 'empty' },
    });
  });

  it('re-stamps an unchanged report only when its fetch time is over a minute old', () => {
    const [report] = generateReports(1);
    const at = (seconds: number) => new Date(Date.parse(T1) + seconds * 1000).toISOString();
    cache.putReport('p', report, at(0));
    cache.putReport('p', report, at(30));
    // Within the minute nothing is written: the age shown is minute-grained anyway.
    expect(cache.getReport('p', report.id)?.fetchedAt).toBe(at(0));
    cache.putReport('p', report, at(90));
    expect(cache.getReport('p', report.id)?.fetchedAt).toBe(at(90));
    // A changed record is always written, with its new fetch time.
    cache.putReport('p', { ...report, result: 'bad', extra: 1 }, at(100));
    expect(cache.getReport('p', report.id)).toMatchObject({
      fetchedAt: at(100),
      report: { result: 'bad', extra: 1 },
    });
  });

  it('keeps totals right through updates that move a report between filters, and deletes', () => {
    cache.putReports('p', generateReports(12), T1);
    const total = (q: ListQuery) => cache.query('p', normalizeListQuery(q)).page.total;
    // Generated ids 3, 6, 9 and 12 are good; id 1 is decent and moves to good.
    expect(total({ result: 'good' })).toBe(4);
    cache.putReport('p', { ...generateReports(1, 1)[0], result: 'good', project: 'moved' }, T2);
    expect(total({ result: 'good' })).toBe(5);
    expect(total({ result: 'decent' })).toBe(3);
    expect(total({ project: 'moved' })).toBe(1);
    expect(cache.projects('p')).toEqual(['moved', 'project-0', 'project-1', 'project-2', 'project-3']);
    cache.removeReport('p', '1');
    expect(total({ project: 'moved' })).toBe(0);
    expect(total({})).toBe(11);
    expect(cache.status('p').reportCount).toBe(11);
    expect(cache.projects('p')).toEqual(['project-0', 'project-1', 'project-2', 'project-3']);
  });

  it('never writes a password or key to the database file', () => {
    const secret = 'Sup3r-secret-passw0rd';
    cache.putReports('p', [{ id: '1', url: 'https://a.example', privacy: 2, password: secret }], T1);
    cache.putAccount('p', { name: 'Acme', api_key: secret + 'K' }, T1);
    expect(cache.getReport('p', '1')?.report).not.toHaveProperty('password');
    expect(cache.getAccount('p')?.account).toEqual({ name: 'Acme' });
    const file = cache.file;
    cache.close();
    const bytes = ['', '-wal', '-shm']
      .map((suffix) => {
        try {
          return readFileSync(file + suffix).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');
    expect(bytes).toContain('https://a.example');
    expect(bytes).not.toContain(secret);
    cache = ReportCache.open(file);
  });

  it('creates its schema with migrations, WAL and a clean integrity check', () => {
    expect(cache.integrityCheck()).toBe('ok');
    const file = cache.file;
    cache.close();
    const raw = new Database(file);
    expect(raw.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(1);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
    cache = ReportCache.open(file);
    expect(cache.status('p').sizeBytes).toBeGreaterThan(0);
  });

  it('refuses a cache written by a newer ReportDesk with a clear error', () => {
    const file = cache.file;
    cache.close();
    const raw = new Database(file);
    const current = raw.pragma('user_version', { simple: true }) as number;
    raw.pragma('user_version = 999');
    raw.close();
    expect(() => ReportCache.open(file)).toThrow(/newer version of ReportDesk/);
    const raw2 = new Database(file);
    raw2.pragma(`user_version = ${current}`);
    raw2.close();
    cache = ReportCache.open(file);
  });

  it('keeps a damaged cache file aside and starts a new one', () => {
    const file = join(dir, 'broken.sqlite');
    writeFileSync(file, 'this is not a database at all, just some text long enough to look like a file');
    const fresh = ReportCache.open(file);
    try {
      expect(fresh.integrityCheck()).toBe('ok');
      expect(fresh.status('p').reportCount).toBe(0);
      const aside = readdirSync(dir).filter((name) => name.startsWith('broken.sqlite.corrupt-'));
      expect(aside).toHaveLength(1);
      expect(readFileSync(join(dir, aside[0]), 'utf8')).toContain('not a database');
    } finally {
      fresh.close();
    }
  });

  it('keeps meta values per scope and key', () => {
    cache.setMeta('p', 'a', '1');
    cache.setMeta('p', 'a', '2');
    expect(cache.getMeta('p', 'a')).toBe('2');
    cache.setMeta('p', 'a', null);
    expect(cache.getMeta('p', 'a')).toBeNull();
  });
});
