/**
 * ReportCache behaviour that mutation testing showed no other test of the cache would notice
 * breaking: the sync lease, accounts, scopes and clearing, pruning after a full sync, the
 * overview counts, file modes, the schema version check and a write-through that fails. Real
 * SQLite files in a temp folder.
 */
import Database from 'better-sqlite3';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LAST_FULL_SYNC_META,
  MIGRATIONS,
  ReportCache,
  SYNC_ID_META,
} from '../../electron/core/cache/reportCache';
import { createLogger, memorySink } from '../../electron/core/log';
import { AppFailure } from '../../shared/errors';
import { normalizeListQuery, type ListQuery, type Report } from '../../shared/report';
import { generateReports } from '../fixtures/generatedReports';
import { skipWhen } from '../helpers/skip';

let dir: string;
let cache: ReportCache;
const T1 = '2024-05-01T10:00:00.000Z';
const T2 = '2024-05-01T12:00:00.000Z';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-cache-b-'));
  cache = ReportCache.open(join(dir, 'data', 'cache.sqlite'));
});
afterEach(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const ids = (scope: string, q: ListQuery = {}) =>
  cache.query(scope, normalizeListQuery({ per_page: 100, sort: 'asc', ...q })).page.reports.map((r) => r.id);

describe('the sync lease', () => {
  it('goes to one owner until it expires, then to whoever asks', () => {
    expect(cache.leases.held('p')).toBeNull();
    expect(cache.leases.acquire('p', 'first', 1_000, 500)).toBe(true);
    expect(cache.leases.held('p')).toEqual({ owner: 'first', expiresAt: 1_500 });
    // Another owner, before and at the expiry: refused, the claim unchanged.
    expect(cache.leases.acquire('p', 'second', 1_200, 500)).toBe(false);
    expect(cache.leases.acquire('p', 'second', 1_499, 500)).toBe(false);
    expect(cache.leases.held('p')).toEqual({ owner: 'first', expiresAt: 1_500 });
    // The same owner again: extended.
    expect(cache.leases.acquire('p', 'first', 1_400, 500)).toBe(true);
    expect(cache.leases.held('p')).toEqual({ owner: 'first', expiresAt: 1_900 });
    // Expired (the first owner died or stalled): taken over.
    expect(cache.leases.acquire('p', 'second', 1_900, 500)).toBe(true);
    expect(cache.leases.held('p')).toEqual({ owner: 'second', expiresAt: 2_400 });
  });

  it('is per scope', () => {
    expect(cache.leases.acquire('p', 'first', 1_000, 500)).toBe(true);
    expect(cache.leases.acquire('q', 'second', 1_000, 500)).toBe(true);
    expect(cache.leases.held('q')).toEqual({ owner: 'second', expiresAt: 1_500 });
    cache.leases.release('q', 'second');
    expect(cache.leases.held('p')).toEqual({ owner: 'first', expiresAt: 1_500 });
    expect(cache.leases.held('q')).toBeNull();
  });

  it('is renewed and released by its owner only', () => {
    cache.leases.acquire('p', 'first', 1_000, 500);
    expect(cache.leases.renew('p', 'other', 1_100, 500)).toBe(false);
    expect(cache.leases.renew('p', 'first', 1_100, 700)).toBe(true);
    expect(cache.leases.held('p')).toEqual({ owner: 'first', expiresAt: 1_800 });
    cache.leases.release('p', 'other');
    expect(cache.leases.held('p')?.owner).toBe('first');
    cache.leases.release('p', 'first');
    expect(cache.leases.held('p')).toBeNull();
    expect(cache.leases.renew('p', 'first', 1_200, 500)).toBe(false);
  });

  it('is seen by another process on the same file', () => {
    cache.leases.acquire('p', 'first', 1_000, 500);
    const other = ReportCache.open(cache.file);
    try {
      expect(other.leases.acquire('p', 'second', 1_100, 500)).toBe(false);
      expect(other.leases.held('p')).toEqual({ owner: 'first', expiresAt: 1_500 });
    } finally {
      other.close();
    }
  });
});

describe('a full sync’s marks', () => {
  it('prunes only the reports the sync did not see, and counts them', () => {
    cache.putReports('p', generateReports(5), T1);
    cache.putReports('q', generateReports(2), T1);
    cache.putReports('p', generateReports(2, 2), T2, { syncId: 'sync-1' });
    expect(cache.pruneUnseen('p', 'sync-1')).toBe(3);
    expect(ids('p')).toEqual(['2', '3']);
    expect(ids('q')).toEqual(['1', '2']);
  });

  it('counts a report written during an unfinished sync as seen by it, even unchanged', () => {
    cache.putReports('p', generateReports(3), T1);
    cache.setMeta('p', SYNC_ID_META, 'sync-2');
    // Unchanged and fresh, but not yet marked: marked now.
    cache.putReport('p', generateReports(1, 2)[0], T1);
    expect(cache.pruneUnseen('p', 'sync-2')).toBe(2);
    expect(ids('p')).toEqual(['2']);
  });

  it('keeps an earlier mark when a report is written again with no sync running', () => {
    cache.putReports('p', generateReports(2), T1, { syncId: 'sync-3' });
    cache.putReports('p', [{ ...generateReports(1)[0], result: 'bad' }], T2);
    expect(cache.pruneUnseen('p', 'sync-3')).toBe(0);
    expect(cache.getReport('p', '1')?.report.result).toBe('bad');
  });

  it('re-stamps an unchanged report whose stored fetch time lies in the future', () => {
    const [report] = generateReports(1);
    cache.putReport('p', report, T2);
    cache.putReport('p', report, T1);
    expect(cache.getReport('p', '1')?.fetchedAt).toBe(T1);
  });
});

describe('the overview counts', () => {
  const counts = (q: Partial<Parameters<ReportCache['resultCounts']>[1]>) =>
    cache
      .resultCounts('p', { project: '', result: null, search: '', ...q })
      .map(({ project, result, n }) => `${project}/${result}=${n}`)
      .sort();

  it('count per project and result, with and without filters and a search, and drop emptied ones', () => {
    cache.putReports(
      'p',
      [
        { id: '1', url: 'https://a.example/x', project: 'one', result: 'good' },
        { id: '2', url: 'https://b.example/x', project: 'one', result: 'good' },
        { id: '3', url: 'https://a.example/y', project: 'two', result: 'bad' },
        { id: '4', url: 'https://a.example/z' },
      ],
      T1,
    );
    cache.putReports('q', [{ id: '9', url: 'https://a.example/q', project: 'one', result: 'good' }], T1);
    expect(counts({})).toEqual(['/=1', 'one/good=2', 'two/bad=1']);
    expect(counts({ project: 'one' })).toEqual(['one/good=2']);
    expect(counts({ result: 'bad' })).toEqual(['two/bad=1']);
    expect(counts({ search: 'A.EXAMPLE' })).toEqual(['/=1', 'one/good=1', 'two/bad=1']);
    expect(counts({ search: 'a.example', project: 'two' })).toEqual(['two/bad=1']);
    cache.removeReport('p', '3');
    expect(counts({})).toEqual(['/=1', 'one/good=2']);
  });

  it('list project names sorted, without the empty one, up to a limit', () => {
    cache.putReports(
      'p',
      ['c', 'a', 'b', ''].map((project, i) => ({ id: String(i), url: 'https://x.example', project })),
      T1,
    );
    cache.putReports('q', [{ id: '1', url: 'https://x.example', project: 'other-scope' }], T1);
    expect(cache.projects('p')).toEqual(['a', 'b', 'c']);
    expect(cache.projects('p', 2)).toEqual(['a', 'b']);
  });
});

describe('scopes and clearing', () => {
  it('lists every scope with anything cached, and clears one without touching another', () => {
    cache.putReports('p', generateReports(3), T1);
    cache.putAccount('a', { name: 'Acme' }, T1);
    cache.setMeta('m', LAST_FULL_SYNC_META, T2);
    cache.putReports('q', generateReports(2), T1);
    expect(cache.scopes().sort()).toEqual(['a', 'm', 'p', 'q']);
    cache.clearScope('p');
    cache.clearScope('a');
    cache.clearScope('m');
    expect(cache.scopes()).toEqual(['q']);
    expect(cache.status('p')).toMatchObject({ reportCount: 0, lastFullSyncAt: null });
    expect(cache.getAccount('a')).toBeNull();
    expect(cache.getMeta('m', LAST_FULL_SYNC_META)).toBeNull();
    expect(ids('p')).toEqual([]);
    expect(ids('p', { search: 'site' })).toEqual([]);
    expect(ids('q')).toEqual(['1', '2']);
    expect(ids('q', { search: 'site' })).toEqual(['1', '2']);
  });

  it('clears everything, searches included, and stays usable', () => {
    cache.putReports('p', generateReports(3), T1);
    cache.putReports('q', generateReports(2), T1);
    cache.putAccount('p', { name: 'Acme' }, T1);
    cache.setMeta('p', 'k', 'v');
    cache.clearAll();
    expect(cache.scopes()).toEqual([]);
    expect(cache.query('p', normalizeListQuery({ search: 'site' })).page.total).toBe(0);
    expect(cache.getMeta('p', 'k')).toBeNull();
    cache.putReports('p', generateReports(1), T1);
    expect(ids('p', { search: 'site' })).toEqual(['1']);
    expect(cache.integrityCheck()).toBe('ok');
  });

  it('lists each finding of a damaged file on its own line', () => {
    cache.putReports('p', generateReports(5), T1);
    cache.close();
    // An index whose stored order no longer matches its definition: SQLite finds every row
    // missing from it, one finding each (writable_schema needs better-sqlite3's unsafe mode).
    const raw = new Database(cache.file);
    raw.unsafeMode(true);
    raw.pragma('writable_schema = ON');
    raw
      .prepare(
        "UPDATE sqlite_schema SET sql = replace(sql, '(scope, url', '(scope, url DESC') WHERE name = 'reports_by_url'",
      )
      .run();
    raw.close();
    cache = ReportCache.open(cache.file);
    const findings = cache.integrityCheck().split('\n');
    expect(findings.length).toBeGreaterThan(1);
    for (const finding of findings) expect(finding).toMatch(/^row \d+ missing from index reports_by_url$/);
  });

  it('answers status from its counts, meta and file size', () => {
    cache.putReports('p', generateReports(4), T1);
    cache.setMeta('p', LAST_FULL_SYNC_META, T2);
    const status = cache.status('p');
    expect(status.reportCount).toBe(4);
    expect(status.lastFullSyncAt).toBe(T2);
    const raw = new Database(cache.file, { readonly: true });
    try {
      const pages = raw.pragma('page_count', { simple: true }) as number;
      const size = raw.pragma('page_size', { simple: true }) as number;
      expect(status.sizeBytes).toBe(pages * size);
    } finally {
      raw.close();
    }
    expect(cache.status('other')).toMatchObject({ reportCount: 0, lastFullSyncAt: null });
  });

  it('keeps an account per scope and replaces it', () => {
    cache.putAccount('p', { name: 'Old' }, T1);
    cache.putAccount('p', { name: 'New', plan: 'pro' }, T2);
    cache.putAccount('q', { name: 'Other' }, T1);
    expect(cache.getAccount('p')).toEqual({ account: { name: 'New', plan: 'pro' }, fetchedAt: T2 });
    expect(cache.getAccount('q')?.account).toEqual({ name: 'Other' });
  });

  it('keeps meta per scope', () => {
    cache.setMeta('p', 'k', 'for p');
    cache.setMeta('q', 'k', 'for q');
    cache.setMeta('p', 'k', null);
    expect(cache.getMeta('p', 'k')).toBeNull();
    expect(cache.getMeta('q', 'k')).toBe('for q');
  });

  it('answers null for a report it does not have, and the id it was stored under', () => {
    cache.putReports('p', [{ id: '7', url: 'https://x.example' }], T1);
    expect(cache.getReport('p', '8')).toBeNull();
    expect(cache.getReport('q', '7')).toBeNull();
    expect(cache.getReport('p', '7')?.report.id).toBe('7');
  });
});

describe('transactions', () => {
  it('roll back every write when the function throws, nested ones included', () => {
    cache.putReports('p', generateReports(1), T1);
    expect(() =>
      cache.transaction(() => {
        cache.putReports('p', generateReports(3, 2), T1);
        cache.setMeta('p', 'k', 'v');
        throw new Error('stop');
      }),
    ).toThrow('stop');
    expect(ids('p')).toEqual(['1']);
    expect(cache.getMeta('p', 'k')).toBeNull();
    expect(cache.transaction(() => 42)).toBe(42);
  });
});

describe('write-through', () => {
  it('logs a page it could not keep and goes on with the next one', async () => {
    const sink = memorySink();
    const file = join(dir, 'logged.sqlite');
    const logged = ReportCache.open(file, { logger: createLogger('test', sink) });
    try {
      // A field JSON cannot hold (a BigInt) breaks that page only.
      const broken = [{ id: '1', url: 'https://x.example', size: 1n }] as unknown as Parameters<
        ReportCache['putReportsSoon']
      >[1];
      logged.putReportsSoon('p', broken, T1);
      logged.putReportsSoon('p', generateReports(2, 5), T1);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(sink.lines.join('\n')).toMatch(
        /WARN \[test:cache\] Could not keep a fetched page in the offline cache\./,
      );
      expect(logged.getReport('p', '1')).toBeNull();
      expect(logged.getReport('p', '6')).not.toBeNull();
    } finally {
      logged.close();
    }
  });
});

describe('the file', () => {
  it.skipIf(skipWhen(process.platform === 'win32', 'no POSIX modes on Windows'))(
    'is private: the folder 0700, the database and its WAL 0600',
    () => {
      cache.putReports('p', generateReports(1), T1);
      expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700);
      expect(statSync(cache.file).mode & 0o777).toBe(0o600);
      expect(statSync(cache.file + '-wal').mode & 0o777).toBe(0o600);
    },
  );

  it('opens a file at the current schema version without migrating it again', () => {
    cache.putReports('p', generateReports(2), T1);
    const file = cache.file;
    cache.close();
    const raw = new Database(file);
    expect(raw.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    raw.close();
    cache = ReportCache.open(file);
    expect(ids('p')).toEqual(['1', '2']);
  });

  it('names the file when it refuses a newer schema', () => {
    const file = cache.file;
    cache.close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    let thrown: unknown;
    try {
      ReportCache.open(file).close();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppFailure);
    expect((thrown as AppFailure).error).toMatchObject({
      kind: 'internal',
      message: `The offline copy (${file}) was written by a newer version of ReportDesk. Update ReportDesk, or clear the offline copy to start a new one.`,
    });
    const fix = new Database(file);
    fix.pragma(`user_version = ${MIGRATIONS.length}`);
    fix.close();
    cache = ReportCache.open(file);
  });
});

describe('more edges', () => {
  it('keeps a damaged file aside under a dated name, says so in a warning', () => {
    const sink = memorySink();
    const file = join(dir, 'data', 'damaged.sqlite');
    writeFileSync(file, 'not a database, only text that is long enough to look like a file of some size');
    const fresh = ReportCache.open(file, { logger: createLogger('test', sink) });
    try {
      const aside = readdirSync(join(dir, 'data')).filter((name) =>
        name.startsWith('damaged.sqlite.corrupt-'),
      );
      expect(aside).toHaveLength(1);
      expect(aside[0]).toMatch(/^damaged\.sqlite\.corrupt-\d{4}-\d{2}-\d{2}T\d{9}Z$/);
      expect(sink.lines.join('\n')).toMatch(
        /WARN \[test:cache\] The cache file is damaged; keeping it aside and starting a new one\..*corrupt-.*SQLITE_NOTADB/,
      );
      fresh.putReports('p', generateReports(2), T1);
      expect(fresh.integrityCheck()).toBe('ok');
    } finally {
      fresh.close();
    }
  });

  it('stores a report without a url as one with an empty url', () => {
    cache.putReports('p', [{ id: '1' } as unknown as Report, { id: '2', url: 'https://x.example' }], T1);
    expect(cache.getReport('p', '1')?.report).toEqual({ id: '1' });
    expect(ids('p', { sort_by: 'url' })).toEqual(['1', '2']);
    expect(ids('p', { search: 'x.example' })).toEqual(['2']);
    // Nothing but the empty text stands in for the missing url.
    expect(ids('p', { search: 'e' })).toEqual(['2']);
  });

  it('answers the ids it stored under, whatever the record says', () => {
    cache.putReports('p', [{ id: 7, url: 'https://x.example' } as unknown as Report], T1);
    expect(cache.getReport('p', '7')?.report.id).toBe('7');
    expect(cache.query('p', normalizeListQuery({})).page.reports[0].id).toBe('7');
  });
});

describe('write-through, again', () => {
  const inFile = (scope: string) => {
    const other = ReportCache.open(cache.file);
    try {
      return other.status(scope).reportCount;
    } finally {
      other.close();
    }
  };
  const nextTask = () => new Promise((resolve) => setImmediate(resolve));

  it('writes every later page on its own too, not only the first', async () => {
    cache.putReportsSoon('p', generateReports(2), T1);
    await nextTask();
    expect(inFile('p')).toBe(2);
    cache.putReportsSoon('p', generateReports(3, 3), T1);
    await nextTask();
    expect(inFile('p')).toBe(5);
  });

  it('is written before a transaction starts, so a rollback never takes a fetched page with it', () => {
    cache.putReportsSoon('p', generateReports(2), T1);
    expect(() =>
      cache.transaction(() => {
        cache.setMeta('p', 'k', 'v');
        throw new Error('stop');
      }),
    ).toThrow('stop');
    expect(cache.getMeta('p', 'k')).toBeNull();
    expect(inFile('p')).toBe(2);
  });
});

describe('the minute of an unchanged report', () => {
  const at = (seconds: number) => new Date(Date.parse(T1) + seconds * 1000).toISOString();

  it('keeps the fetch time of a report fetched again exactly a minute later, and moves it after', () => {
    const [report] = generateReports(1);
    cache.putReport('p', report, at(0));
    cache.putReport('p', report, at(60));
    expect(cache.getReport('p', '1')?.fetchedAt).toBe(at(0));
    cache.putReport('p', report, at(61));
    expect(cache.getReport('p', '1')?.fetchedAt).toBe(at(61));
  });
});

describe('files of an earlier version', () => {
  it.skipIf(skipWhen(process.platform === 'win32', 'no POSIX modes on Windows'))(
    'narrows an existing write-ahead log to 0600 when opening',
    () => {
      cache.putReports('p', generateReports(1), T1);
      // The WAL exists while this connection is open; an earlier version may have left it 0644.
      chmodSync(cache.file + '-wal', 0o644);
      chmodSync(cache.file + '-shm', 0o644);
      const other = ReportCache.open(cache.file);
      try {
        expect(statSync(cache.file + '-wal').mode & 0o777).toBe(0o600);
        expect(statSync(cache.file + '-shm').mode & 0o777).toBe(0o600);
        expect(other.getReport('p', '1')).not.toBeNull();
      } finally {
        other.close();
      }
    },
  );
});

describe('and more', () => {
  const at = (seconds: number) => new Date(Date.parse(T1) + seconds * 1000).toISOString();

  it('leaves an unchanged report already marked by the running sync alone within the minute', () => {
    cache.setMeta('p', SYNC_ID_META, 'sync-4');
    const [report] = generateReports(1);
    cache.putReport('p', report, at(0));
    cache.putReport('p', report, at(30));
    expect(cache.getReport('p', '1')?.fetchedAt).toBe(at(0));
    expect(cache.pruneUnseen('p', 'sync-4')).toBe(0);
  });

  it('leaves an unchanged report marked by an earlier sync alone within the minute when no sync runs', () => {
    const [report] = generateReports(1);
    cache.putReports('p', [report], at(0), { syncId: 'sync-5' });
    cache.putReport('p', report, at(30));
    expect(cache.getReport('p', '1')?.fetchedAt).toBe(at(0));
  });

  it('logs nothing while it is opened and used normally', async () => {
    const sink = memorySink();
    const quiet = ReportCache.open(join(dir, 'quiet.sqlite'), { logger: createLogger('test', sink) });
    try {
      quiet.putReportsSoon('p', generateReports(2), T1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(quiet.query('p', normalizeListQuery({ search: 'site' })).page.total).toBe(2);
    } finally {
      quiet.close();
    }
    expect(sink.lines).toEqual([]);
  });

  it('names the database error of a page it could not keep', async () => {
    const sink = memorySink();
    const logged = ReportCache.open(join(dir, 'logged.sqlite'), { logger: createLogger('test', sink) });
    try {
      // No scope: the NOT NULL constraint refuses the row.
      logged.putReportsSoon(null as unknown as string, generateReports(1), T1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(sink.lines.join('\n')).toMatch(/Could not keep a fetched page.*SQLITE_CONSTRAINT/);
    } finally {
      logged.close();
    }
  });

  it('refuses to be used once closed', () => {
    cache.putReports('p', generateReports(1), T1);
    cache.close();
    expect(() => cache.getReport('p', '1')).toThrow(/not open/);
    cache = ReportCache.open(cache.file);
  });
});

describe('a damaged database (SQLITE_CORRUPT, not only a file that is no database)', () => {
  it('is kept aside and a fresh cache is started', () => {
    const file = join(dir, 'data', 'malformed.sqlite');
    const raw = new Database(file);
    raw.exec('CREATE TABLE t (a TEXT); CREATE TABLE u (b TEXT); CREATE INDEX ti ON t (a);');
    raw.close();
    // Overwrite the schema table's page header (page 1, after the 100-byte file header).
    const bytes = readFileSync(file);
    bytes.fill(0xff, 100, 120);
    writeFileSync(file, bytes);
    const sink = memorySink();
    const fresh = ReportCache.open(file, { logger: createLogger('test', sink) });
    try {
      expect(sink.lines.join('\n')).toMatch(/The cache file is damaged.*SQLITE_CORRUPT/);
      expect(
        readdirSync(join(dir, 'data')).some((name) => name.startsWith('malformed.sqlite.corrupt-')),
      ).toBe(true);
      fresh.putReports('p', generateReports(1), T1);
      expect(fresh.integrityCheck()).toBe('ok');
    } finally {
      fresh.close();
    }
  });
});

describe('meta keys on disk', () => {
  it('reads the last full sync time and an unfinished sync by the names stored in the file', () => {
    cache.putReports('p', generateReports(2), T1);
    const file = cache.file;
    cache.close();
    // What an earlier ReportDesk (or another process) wrote: the keys are part of the file format.
    const raw = new Database(file);
    raw
      .prepare('INSERT INTO meta (scope, key, value) VALUES (?, ?, ?), (?, ?, ?)')
      .run('p', 'last_full_sync_at', T2, 'p', 'sync_id', 'sync-on-disk');
    raw.close();
    cache = ReportCache.open(file);
    expect(cache.status('p').lastFullSyncAt).toBe(T2);
    expect(cache.getMeta('p', SYNC_ID_META)).toBe('sync-on-disk');
    expect(cache.getMeta('p', LAST_FULL_SYNC_META)).toBe(T2);
  });
});

describe('the parts "Keep available offline" reads', () => {
  it('the status says when the newest reports were last checked, from the key the file keeps it under', () => {
    expect(cache.status('p').lastQuickRefreshAt).toBeNull();
    cache.setMeta('p', 'last_quick_refresh_at', T2);
    expect(cache.status('p').lastQuickRefreshAt).toBe(T2);
  });

  it('unseen ids come in id order (numbers, then text); pruning logs each removal at the time given', () => {
    cache.putReports(
      'p',
      [
        ...generateReports(3, 9),
        { id: 'b', url: 'https://b.example' },
        { id: 'a', url: 'https://a.example' },
      ],
      T1,
      {
        syncId: 'old',
      },
    );
    cache.putReports('p', generateReports(1, 10), T1, { syncId: 'new' });
    expect(cache.unseenIds('p', 'new')).toEqual(['9', '11', 'a', 'b']);
    cache.setMeta('p', LAST_FULL_SYNC_META, T1);
    expect(cache.pruneUnseen('p', 'new', T2)).toBe(4);
    expect(
      cache.changes
        .list('p')
        .map((c) => `${c.kind}:${c.id}@${c.at}`)
        .sort(),
    ).toEqual(['11', '9', 'a', 'b'].map((id) => `removed:${id}@${T2}`));
  });
});
