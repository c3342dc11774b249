import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SYNC_LEASE_MS, runFullSync, SYNC_CONCURRENCY } from '../../electron/core/cache/fullSync';
import { ReportCache } from '../../electron/core/cache/reportCache';
import type { SyncProgress } from '../../shared/contract';
import { AppFailure } from '../../shared/errors';
import { PAGES_AHEAD_PER_REQUEST } from '../../shared/paging';
import { normalizeListQuery, type Report } from '../../shared/report';
import { generateReports, pageOf } from '../fixtures/generatedReports';

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
      mode: 'full',
      fetched: 250,
      removed: 0,
      pages: 3,
      completedAt: '2024-06-01T00:00:00.000Z',
      pruned: true,
      reason: null,
      added: 250,
      changed: 0,
      complete: true,
      passes: 1,
      requests: 3,
      badNews: 0,
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
    // Under the keys the file keeps them (a later version reads the same): the newest id the
    // complete read saw, and since when changes are news.
    expect(cache.getMeta('p', 'refresh_high_id')).toBe('250');
    expect(cache.changes.since('p')).toBe('2024-06-01T00:00:00.000Z');
  });

  it('counts what it added to the copy and changed in it, and the bad news among the changes logged', async () => {
    const reports = generateReports(250);
    await runFullSync({
      cache,
      scope: 'p',
      fetchPage: serve(reports),
      now: () => new Date('2024-06-01T00:00:00Z'),
    });
    const good = reports.find((r) => r.result === 'good')!;
    const bad = reports.find((r) => r.result === 'bad')!;
    const next = reports.map((r) =>
      r.id === good.id
        ? { ...r, result: 'bad' as const }
        : r.id === bad.id
          ? { ...r, privacy: 2 as const }
          : r,
    );
    next.push(...generateReports(3, 1_000).map((r) => ({ ...r, result: 'bad' as const })));
    const summary = await runFullSync({
      cache,
      scope: 'p',
      fetchPage: serve(next),
      now: () => new Date('2024-06-02T00:00:00Z'),
    });
    expect(summary).toMatchObject({ added: 3, changed: 2, badNews: 4, complete: true });
    // The change log began with the first sync, and stays so.
    expect(cache.changes.since('p')).toBe('2024-06-01T00:00:00.000Z');
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
    // Pages 2 and 3 were asked together after page 1; the cancel (while asking page 3) came
    // before page 2 was written, and no later page was asked.
    expect(fetchedPages).toEqual([1, 2, 3]);
    expect(cache.status('p')).toMatchObject({ reportCount: 100, lastFullSyncAt: null });

    const resumedPages: number[] = [];
    const summary = await runFullSync({
      cache,
      scope: 'p',
      fetchPage: async (page) => {
        resumedPages.push(page);
        return pageOf(reports, page);
      },
    });
    // Page 1 again (does it still end where the cancelled run left off?), then on from page 2.
    expect(resumedPages).toEqual([1, 2, 3, 4, 5]);
    expect(summary).toMatchObject({ fetched: 500, pages: 5, removed: 0 });
    expect(cache.status('p').reportCount).toBe(500);
  });

  it('rethrows a failing page, keeps its progress, and a later run completes', async () => {
    const reports = generateReports(300);
    cache.putReports('p', [{ id: '9999', url: 'https://gone.example' }], '2024-01-01T00:00:00Z');
    const failure = new AppFailure({
      kind: 'network',
      code: 'network',
      message: 'The Report Service could not be reached.',
    });
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
      [
        '--import',
        'tsx',
        join(__dirname, '../fixtures/killableCacheSyncChild.ts'),
        file,
        'crash',
        String(count),
        '40',
      ],
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
    // The killed process's claim is still there and has not run out…
    const lease = cache.leases.held('crash');
    expect(lease).not.toBeNull();
    expect(lease!.expiresAt).toBeGreaterThan(Date.now());
    expect(lease!.expiresAt).toBeLessThanOrEqual(Date.now() + DEFAULT_SYNC_LEASE_MS);
    // …yet it names a process that is gone from this computer: the next sync takes it over at
    // once (issue 30) and resumes where the killed one stopped.
    const resumedPages: number[] = [];
    const summary = await runFullSync({
      cache,
      scope: 'crash',
      fetchPage: async (p) => (resumedPages.push(p), pageOf(reports, p)),
    });
    // The last page it wrote again (nothing shifted), then on from the next.
    expect(resumedPages.slice(0, 2)).toEqual([stored / 100, stored / 100 + 1]);
    expect(summary).toMatchObject({ fetched: count, pages: 10, removed: 0 });
    const all = cache.query('crash', normalizeListQuery({ per_page: 100, page: 10, sort: 'asc' })).page;
    expect(all.total).toBe(count);
    expect(all.reports.at(-1)?.id).toBe(String(count));
  });

  describe('prunes only after a consistent listing', () => {
    const stale = { id: '9999', url: 'https://gone.example' };

    it('a total that changes between pages makes the sync read the list again, and the second read settles it', async () => {
      const reports = generateReports(300);
      cache.putReports('p', [stale], '2024-01-01T00:00:00Z');
      const asked: number[] = [];
      const summary = await runFullSync({
        cache,
        scope: 'p',
        concurrency: 1,
        // The first read sees the total move on its last page; the second sees a steady list.
        fetchPage: async (page) => {
          asked.push(page);
          return { ...pageOf(reports, page), total: page === 3 && asked.length === 3 ? 299 : 300 };
        },
      });
      expect(asked).toEqual([1, 2, 3, 1, 2, 3]);
      expect(summary).toMatchObject({
        fetched: 300,
        pages: 3,
        removed: 1,
        pruned: true,
        reason: null,
        complete: true,
        passes: 2,
        requests: 6,
      });
      expect(cache.getReport('p', '9999')).toBeNull();
      expect(cache.status('p').reportCount).toBe(300);
    });

    it('a list that moves on every read is read three times at most, then kept as it is and called incomplete', async () => {
      const reports = generateReports(300);
      cache.putReports('p', [stale], '2024-01-01T00:00:00Z');
      const phases: string[] = [];
      const passes: (number | undefined)[] = [];
      const summary = await runFullSync({
        cache,
        scope: 'p',
        fetchPage: async (page) => ({ ...pageOf(reports, page), total: page === 3 ? 299 : 300 }),
        onProgress: (p) => (phases.push(p.phase), passes.push(p.pass)),
      });
      expect(summary).toMatchObject({
        fetched: 300,
        removed: 0,
        pruned: false,
        reason: 'listing_changed',
        complete: false,
        passes: 3,
        requests: 9,
        added: 300,
      });
      expect(cache.getReport('p', '9999')).not.toBeNull();
      expect(phases).toEqual([...Array<string>(9).fill('fetching'), 'done']);
      expect(passes).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 3]);
      // The sync ended: the next one starts afresh at page 1 of its first read.
      expect(cache.getMeta('p', 'sync_progress')).toBeNull();
      const settled = await runFullSync({ cache, scope: 'p', fetchPage: serve(reports) });
      expect(settled).toMatchObject({ removed: 1, pruned: true, reason: null, passes: 1, added: 0 });
      expect(cache.getReport('p', '9999')).toBeNull();
    });

    it('keeps unseen rows when the pages do not join up (an id seen again)', async () => {
      const reports = generateReports(250);
      cache.putReports('p', [stale], '2024-01-01T00:00:00Z');
      const summary = await runFullSync({
        cache,
        scope: 'p',
        // Page 2 starts with the last report of page 1: something shifted the offsets.
        fetchPage: async (page) => {
          const served = pageOf(reports, page);
          if (page === 2) served.reports = [reports[99], ...served.reports.slice(0, 99)];
          return served;
        },
      });
      expect(summary).toMatchObject({ pruned: false, reason: 'listing_changed' });
      expect(cache.getReport('p', '9999')).not.toBeNull();
    });

    it('a resumed sync keeps what its earlier pass saw and checks the listing against that pass', async () => {
      const reports = generateReports(300);
      cache.putReports('p', [stale], '2024-01-01T00:00:00Z');
      const controller = new AbortController();
      await runFullSync({
        cache,
        scope: 'p',
        signal: controller.signal,
        fetchPage: async (page) => {
          if (page === 2) controller.abort();
          return pageOf(reports, page);
        },
      }).catch(() => undefined);
      expect(cache.status('p').reportCount).toBe(101);

      // The resumed pass reads page 1 again only to see that nothing shifted, then pages 2 and 3;
      // page 1's rows were seen by the same sync.
      const summary = await runFullSync({ cache, scope: 'p', fetchPage: serve(reports) });
      expect(summary).toMatchObject({ fetched: 300, removed: 1, pruned: true });
      expect(cache.status('p').reportCount).toBe(300);
      expect(cache.getReport('p', '1')).not.toBeNull();

      // A total that differs from the earlier pass's first page is a changed listing.
      cache.putReports('p', [stale], '2024-01-01T00:00:00Z');
      const again = new AbortController();
      await runFullSync({
        cache,
        scope: 'p',
        signal: again.signal,
        fetchPage: async (page) => {
          if (page === 2) again.abort();
          return pageOf(reports, page);
        },
      }).catch(() => undefined);
      // Meanwhile ten reports were deleted: the resumed read does not join up with its first
      // page, so the list is read again whole, and that read settles it.
      const shrunk = reports.slice(0, 290);
      const resumed = await runFullSync({
        cache,
        scope: 'p',
        fetchPage: async (page) => pageOf(shrunk, page),
      });
      expect(resumed).toMatchObject({ pruned: true, reason: null, passes: 2, removed: 11, fetched: 290 });
      expect(cache.getReport('p', '9999')).toBeNull();
      expect(cache.status('p').reportCount).toBe(290);
    });

    it('stops a service that ignores the page within a few requests, pruning nothing', async () => {
      const reports = generateReports(500);
      cache.putReports('p', [stale], '2024-01-01T00:00:00Z');
      const asked: number[] = [];
      const summary = await runFullSync({
        cache,
        scope: 'p',
        fetchPage: async (page) => (asked.push(page), { ...pageOf(reports, 1), page }),
      });
      // Page 1 alone, then the pages asked ahead: page 2, handed over first, ends the walk.
      expect(asked.slice(0, 2)).toEqual([1, 2]);
      expect(new Set(asked).size).toBe(asked.length);
      expect(asked.length).toBeLessThanOrEqual(1 + PAGES_AHEAD_PER_REQUEST * SYNC_CONCURRENCY);
      expect(summary).toMatchObject({
        fetched: 100,
        pages: 1,
        removed: 0,
        pruned: false,
        reason: 'paging_ignored',
      });
      expect(cache.getReport('p', '9999')).not.toBeNull();
      // Not a full sync: its time is not recorded, and the next one starts afresh.
      expect(cache.status('p').lastFullSyncAt).toBeNull();
      const next: number[] = [];
      await runFullSync({
        cache,
        scope: 'p',
        fetchPage: async (page) => (next.push(page), pageOf(reports, page)),
      });
      expect(next[0]).toBe(1);
    });

    it('never asks for more pages than the total implies plus one, nor past the hard maximum', async () => {
      const endless = (page: number) => pageOf(generateReports(100, page * 100), 1);
      const asked: number[] = [];
      const bounded = await runFullSync({
        cache,
        scope: 'p',
        fetchPage: async (page) => (asked.push(page), { ...endless(page), page, total: 250, lastPage: null }),
      });
      expect(asked).toEqual([1, 2, 3, 4]);
      expect(bounded).toMatchObject({ pruned: false, reason: 'page_limit' });

      const blind: number[] = [];
      const capped = await runFullSync({
        cache,
        scope: 'q',
        maxPages: 7,
        fetchPage: async (page) => (
          blind.push(page),
          { ...endless(page), page, total: null, lastPage: null }
        ),
      });
      expect(blind).toHaveLength(7);
      expect(capped).toMatchObject({ pruned: false, reason: 'page_limit' });
    });
  });

  describe('one sync per scope', () => {
    it('refuses a second sync of the scope while the first runs, not one of another scope', async () => {
      const reports = generateReports(300);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const first = runFullSync({
        cache,
        scope: 'p',
        fetchPage: async (page) => {
          await gate;
          return pageOf(reports, page);
        },
      });
      const second = await runFullSync({ cache, scope: 'p', fetchPage: serve(reports) }).catch(
        (e: unknown) => e,
      );
      expect((second as AppFailure).error).toMatchObject({
        kind: 'busy',
        reason: 'sync_running',
        message:
          'A sync of this profile is already running in another ReportDesk window or command; wait for it to finish, then try again.',
      });
      await expect(runFullSync({ cache, scope: 'other', fetchPage: serve(reports) })).resolves.toMatchObject({
        pruned: true,
      });
      release();
      await expect(first).resolves.toMatchObject({ fetched: 300, pruned: true });
      // Released at the end: the next sync of the scope runs.
      expect(cache.leases.held('p')).toBeNull();
      await expect(runFullSync({ cache, scope: 'p', fetchPage: serve(reports) })).resolves.toMatchObject({
        pruned: true,
      });
    });

    it('a run whose lease was taken over stops without pruning or clearing the progress', async () => {
      const reports = generateReports(300);
      cache.putReports('p', [{ id: '9999', url: 'https://gone.example' }], '2024-01-01T00:00:00Z');
      const summary = runFullSync({
        cache,
        scope: 'p',
        leaseMs: 1_000,
        fetchPage: async (page) => {
          // Another process found the lease expired (its clock past it) and took the sync over.
          if (page === 2)
            expect(cache.leases.acquire('p', 'someone-else', Date.now() + 5_000, 1_000)).toBe(true);
          return pageOf(reports, page);
        },
      });
      const thrown = await summary.catch((e: unknown) => e);
      expect((thrown as AppFailure).error).toMatchObject({ kind: 'busy', reason: 'sync_taken_over' });
      expect(cache.getReport('p', '9999')).not.toBeNull();
      // Its progress stays for the new owner to resume; the new owner's claim is untouched.
      expect(JSON.parse(cache.getMeta('p', 'sync_progress')!)).toMatchObject({ pass: 1, nextPage: 2 });
      expect(cache.leases.held('p')?.owner).toBe('someone-else');
    });
  });
});
