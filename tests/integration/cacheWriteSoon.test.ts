/**
 * The gateway's write-through, moved just after the answer (ReportCache.putReportsSoon): the
 * page is in the file once the current task is over, and any earlier use of the cache by this
 * process writes it first, so nothing read from the cache after an answer can be older than it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { createLogger } from '../../electron/core/log';
import { normalizeListQuery } from '../../shared/report';
import { generateReports } from '../fixtures/generatedReports';
import { cacheDatabase } from '../helpers/cacheDatabase';

const T1 = '2024-05-01T10:00:00.000Z';
let dir: string;
let cache: ReportCache;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-soon-'));
  file = join(dir, 'cache.sqlite');
  cache = ReportCache.open(file);
});
afterEach(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What another connection (as another process would) finds in the file. */
function countInFile(): number {
  const other = ReportCache.open(file);
  try {
    return Number(other.query('p', normalizeListQuery({ per_page: 10 })).page.total);
  } finally {
    other.close();
  }
}

describe('ReportCache.putReportsSoon', () => {
  it('pages that arrived together are written in one transaction; a page that fails is dropped alone', async () => {
    const reports = generateReports(30);
    const put = cache.putReports.bind(cache);
    const calls: string[] = [];
    cache.putReports = (scope, list, at, options) => {
      calls.push(list[0].id);
      if (list[0].id === '11') throw Object.assign(new Error('bad page'), { code: 'SQLITE_CONSTRAINT' });
      return put(scope, list, at, options);
    };
    cache.putReportsSoon('p', reports.slice(0, 10), T1);
    cache.putReportsSoon('p', reports.slice(10, 20), T1);
    cache.putReportsSoon('p', reports.slice(20), T1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['1', '11', '21']);
    expect(countInFile()).toBe(20);
    expect(cache.getReport('p', '11')).toBeNull();
    expect(cache.getReport('p', '21')).not.toBeNull();
  });

  it('a file another process keeps locked drops the pending pages, logged, and the cache carries on', async () => {
    const lines: string[] = [];
    cache.close();
    cache = ReportCache.open(file, { logger: createLogger('test', (line) => lines.push(line)) });
    const other = ReportCache.open(file);
    try {
      const reports = generateReports(4);
      cache.putReportsSoon('p', reports.slice(0, 2), T1);
      cache.putReportsSoon('p', reports.slice(2), T1);
      // The other connection's write transaction stays open while the pending pages are written.
      other.transaction(() => {
        cacheDatabase(cache).pragma('busy_timeout = 0');
        (cache as unknown as { flushPendingWrites(): void }).flushPendingWrites();
      });
    } finally {
      other.close();
    }
    expect(countInFile()).toBe(0);
    expect(lines.filter((line) => line.includes('Could not keep a fetched page'))).toHaveLength(1);
    cache.putReportsSoon('p', generateReports(1), T1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(countInFile()).toBe(1);
  });

  it('writes the page once the current task is over, in order with later writes', async () => {
    const reports = generateReports(30);
    cache.putReportsSoon('p', reports, T1);
    cache.putReportsSoon('p', [{ ...reports[0], result: 'bad' }], T1);
    expect(countInFile()).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(countInFile()).toBe(30);
    expect(cache.getReport('p', reports[0].id)?.report.result).toBe('bad');
  });

  it('is written before any read of this cache, in the same task', () => {
    const reports = generateReports(12);
    cache.putReportsSoon('p', reports, T1);
    const { page } = cache.query('p', normalizeListQuery({ search: 'site1', per_page: 100 }));
    expect(page.total).toBe(reports.filter((r) => r.url.includes('site1')).length);
    expect(cache.getReport('p', reports[5].id)?.report).toEqual(reports[5]);
  });

  it('is written before a later removal, so the removal wins', () => {
    const reports = generateReports(3);
    cache.putReportsSoon('p', reports, T1);
    cache.removeReport('p', reports[1].id);
    expect(cache.getReport('p', reports[1].id)).toBeNull();
    expect(cache.status('p').reportCount).toBe(2);
  });

  it('is written by close()', () => {
    cache.putReportsSoon('p', generateReports(7), T1);
    cache.close();
    expect(countInFile()).toBe(7);
    cache = ReportCache.open(file);
  });
});

describe('ReportCache.putReportsLater (a walk over many pages: an export, `reports list --all`)', () => {
  /** Waits (bounded) until every deferred page is written. */
  async function written(): Promise<void> {
    for (let waited = 0; cache.pendingPages > 0; waited += 10) {
      if (waited > 5_000) throw new Error(`${cache.pendingPages} pages still pending after 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('writes nothing while the walk goes on; once it pauses, every page in order, eight per step', async () => {
    const reports = generateReports(100);
    const put = cache.putReports.bind(cache);
    const pendingAtEachWrite: number[] = [];
    cache.putReports = (scope, list, at, options) => {
      pendingAtEachWrite.push(cache.pendingPages);
      return put(scope, list, at, options);
    };
    for (let page = 0; page < 20; page++)
      cache.putReportsLater('p', reports.slice(page * 5, page * 5 + 5), T1);
    cache.putReportsLater('p', [{ ...reports[0], result: 'bad' }], T1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(countInFile()).toBe(0);
    expect(cache.pendingPages).toBe(21);
    await written();
    expect(countInFile()).toBe(100);
    // Each step takes its pages off the queue first: 21 → 13 → 5 → 0.
    expect(pendingAtEachWrite).toEqual([...Array(8).fill(13), ...Array(8).fill(5), ...Array(5).fill(0)]);
    expect(cache.getReport('p', reports[0].id)?.report.result).toBe('bad');
  });

  it('waits for the walk to pause: a page every 60 ms keeps putting the writing off', async () => {
    const reports = generateReports(50);
    for (let page = 0; page < 5; page++) {
      cache.putReportsLater('p', reports.slice(page * 10, page * 10 + 10), T1);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    // 300 ms since the first page, 60 ms since the last: nothing written yet.
    expect(countInFile()).toBe(0);
    await written();
    expect(countInFile()).toBe(50);
  });

  it('a read meanwhile writes every pending page first', () => {
    const reports = generateReports(12);
    cache.putReportsLater('p', reports.slice(0, 6), T1);
    cache.putReportsLater('p', reports.slice(6), T1);
    expect(cache.query('p', normalizeListQuery({ per_page: 100 })).page.total).toBe(12);
    expect(cache.pendingPages).toBe(0);
  });

  it('a page written soon after deferred ones is written after them: the newer answer wins', async () => {
    const reports = generateReports(3);
    cache.putReportsLater('p', reports, T1);
    cache.putReportsSoon('p', [{ ...reports[1], result: 'bad' }], T1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(countInFile()).toBe(3);
    expect(cache.getReport('p', reports[1].id)?.report.result).toBe('bad');
  });

  it('is written by close(), without waiting for the pause', () => {
    cache.putReportsLater('p', generateReports(9), T1);
    cache.close();
    expect(countInFile()).toBe(9);
    cache = ReportCache.open(file);
  });
});
