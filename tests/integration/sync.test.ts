import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SYNC_LEASE_MS, runFullSync } from '../../electron/core/cache/fullSync';
import { ReportCache } from '../../electron/core/cache/reportCache';
import type { SyncProgress } from '../../shared/contract';
import { AppFailure } from '../../shared/errors';
import { normalizeListQuery, type Report } from '../../shared/report';
import { generateReports, pageOf } from '../fixtures/storage-reports';

let dir: string;
let cache: ReportCache;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-sync-'));
  cache = ReportCache.open(join(dir, 'cache.sqlite'));
});
afterEach(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const serve = (reports: Report[]) => async (page: number) => pageOf(reports, page);
const cachedTotal = (scope: string) =>
  cache.query(scope, normalizeListQuery({ sort: 'asc', per_page: 100, page: 1 })).page.total;

describe('runFullSync', () => {
  it('fetches every page, reports progress and records the completion time', async () => {
    const reports = generateReports(250);
    const progress: Omit<SyncProgress, 'profileId'>[] = [];
    const summary = await runFullSync({
      cache,
      scope: 'p',
      fetchPage: serve(reports),
      onProgress: (p) => progress.push(p),
      now: () => new Date('2024-06-01T00:00:00Z'),
    });
    expect(summary).toEqual({
      fetched: 250,
      removed: 0,
      pages: 3,
      completedAt: '2024-06-01T00:00:00.000Z',
      pruned: true,
      reason: null,
    });
    expect(progress.map((p) => `${p.phase}:${p.page}`)).toEqual([
      'fetching:1',
      'fetching:2',
      'fetching:3',
      'pruning:3',
      'done:3',
    ]);
    expect(progress[0]).toMatchObject({ lastPage: 3, total: 250, fetched: 100 });
    expect(cache.status('p')).toMatchObject({ reportCount: 250, lastFullSyncAt: '2024-06-01T00:00:00.000Z' });
    expect(cache.getReport('p', '250')?.report).toEqual(reports[249]);
  });

  it('removes cached reports the service no longer has, only in its own scope', async () => {
    cache.putReports('p', generateReports(30), '2024-01-01T00:00:00Z');
    cache.putReports('other', generateReports(30), '2024-01-01T00:00:00Z');
    const remaining = generateReports(30).filter((r) => Number(r.id) % 3 !== 0);
    const summary = await runFullSync({ cache, scope: 'p', fetchPage: serve(remaining) });
    expect(summary).toMatchObject({ fetched: 20, removed: 10, pages: 1 });
    expect(cache.getReport('p', '3')).toBeNull();
    expect(cache.getReport('p', '4')).not.toBeNull();
    expect(cachedTotal('other')).toBe(30);
  });

  it('stops on an empty page when the service gives no page count', async () => {
    const reports = generateReports(200);
    const summary = await runFullSync({
      cache,
      scope: 'p',
      fetchPage: async (page) => ({ ...pageOf(reports, page), total: null, lastPage: null }),
    });
    expect(summary).toMatchObject({ fetched: 200, pages: 3 });
  });

  it('is cancelled through its AbortSignal and resumes at the next page', async () => {
    const reports = generateReports(500);
    const controller = new AbortController();
    const fetchedPages: number[] = [];
    const phases: string[] = [];
    const attempt = runFullSync({
      cache,
      scope: 'p',
      signal: controller.signal,
      fetchPage: async (page) => {
        fetchedPages.push(page);
        if (page === 3) controller.abort();
        return pageOf(reports, page);
      },
      onProgress: (p) => phases.push(p.phase),
    });
    const error = await attempt.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppFailure);
    expect((error as AppFailure).error.kind).toBe('cancelled');
    expect(phases.at(-1)).toBe('cancelled');
    expect(cache.status('p')).toMatchObject({ reportCount: 200, lastFullSyncAt: null });

    const resumedPages: number[] = [];
    const summary = await runFullSync({
      cache,
      scope: 'p',
      fetchPage: async (page) => {
        resumedPages.push(page);
        return pageOf(reports, page);
      },
    });
    expect(resumedPages).toEqual([3, 4, 5]);
    expect(summary).toMatchObject({ fetched: 500, pages: 5, removed: 0 });
    expect(cache.status('p').reportCount).toBe(500);
  });

  it('rethrows a failing page, keeps its progress, and a later run completes', async () => {
    const reports = generateReports(300);
    cache.putReports('p', [{ id: '9999', url: 'https://gone.example' }], '2024-01-01T00:00:00Z');
    const failure = new AppFailure({ kind: 'network', message: 'The Report Service could not be reached.' });
    const phases: string[] = [];
    await expect(
      runFullSync({
        cache,
        scope: 'p',
        fetchPage: async (page) => {
          if (page === 2) throw failure;
          return pageOf(reports, page);
        },
        onProgress: (p) => phases.push(p.phase),
      }),
    ).rejects.toBe(failure);
    expect(phases.at(-1)).toBe('failed');
    // Nothing was pruned by the failed run.
    expect(cache.getReport('p', '9999')).not.toBeNull();

    const summary = await runFullSync({ cache, scope: 'p', fetchPage: serve(reports) });
    expect(summary).toMatchObject({ fetched: 300, pages: 3, removed: 1 });
    expect(cache.getReport('p', '9999')).toBeNull();

    // A completed sync leaves no progress: the next one starts at page 1 again.
    const nextPages: number[] = [];
    await runFullSync({
      cache,
      scope: 'p',
      fetchPage: async (page) => (nextPages.push(page), pageOf(reports, page)),
    });
    expect(nextPages).toEqual([1, 2, 3]);
  });

  it('survives a SIGKILL mid-sync: the file is intact, answers queries, and the sync resumes', async () => {
    const file = cache.file;
    cache.close();
    const count = 1000;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, '../fixtures/sync-child.ts'), file, 'crash', String(count), '40'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    let pagesSeen = 0;
    for await (const line of createInterface({ input: child.stdout })) {
      if (line.startsWith('page ')) pagesSeen += 1;
      // Kill while the next page is in flight (after 4 pages were stored).
      if (pagesSeen === 4) {
        child.kill('SIGKILL');
        break;
      }
    }
    expect(await exited, stderr).toBe('SIGKILL');

    cache = ReportCache.open(file);
    expect(cache.integrityCheck()).toBe('ok');
    const stored = cache.status('crash').reportCount;
    expect(stored).toBeGreaterThanOrEqual(400);
    expect(stored).toBeLessThan(count);
    const page = cache.query('crash', normalizeListQuery({ sort: 'asc' })).page;
    expect(page.reports.map((r) => r.id)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);

    const reports = generateReports(count);
    // The killed process's claim is still there: a sync right away is refused…
    const lease = cache.syncLease('crash');
    expect(lease).not.toBeNull();
    // The bound: a killed sync blocks the next one for at most the lease duration.
    expect(lease!.expiresAt).toBeLessThanOrEqual(Date.now() + DEFAULT_SYNC_LEASE_MS);
    const refused = await runFullSync({ cache, scope: 'crash', fetchPage: serve(reports) }).catch(
      (e: unknown) => e,
    );
    expect((refused as AppFailure).error).toMatchObject({ kind: 'busy', reason: 'sync_running' });
    // …and once its lease has run out (a clock just past its expiry) the next one resumes it.
    const resumedPages: number[] = [];
    const summary = await runFullSync({
      cache,
      scope: 'crash',
      now: () => new Date(lease!.expiresAt + 1),
      fetchPage: async (p) => (resumedPages.push(p), pageOf(reports, p)),
    });
    expect(resumedPages[0]).toBe(stored / 100 + 1);
    expect(summary).toMatchObject({ fetched: count, pages: 10, removed: 0 });
    const all = cache.query('crash', normalizeListQuery({ per_page: 100, page: 10, sort: 'asc' })).page;
    expect(all.total).toBe(count);
    expect(all.reports.at(-1)?.id).toBe(String(count));
  });
});
