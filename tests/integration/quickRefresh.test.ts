/**
 * The quick refresh on a real SQLite file (cache/quickRefresh.ts) with a scripted newest-first
 * service: where it stops (the newest id a complete read saw; before that, the first page with
 * nothing new), what it never does (prune, run beside a full sync), and how it ends when
 * cancelled, taken over or bounded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runFullSync } from '../../electron/core/cache/fullSync';
import { QUICK_REFRESH_MAX_PAGES, runQuickRefresh } from '../../electron/core/cache/quickRefresh';
import { LAST_QUICK_REFRESH_META, ReportCache } from '../../electron/core/cache/reportCache';
import { AppFailure } from '../../shared/errors';
import type { Report } from '../../shared/report';
import { generateReports, pageOf } from '../fixtures/generatedReports';

let dir: string;
let cache: ReportCache;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-quick-'));
  cache = ReportCache.open(join(dir, 'cache.sqlite'));
});
afterEach(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOW = new Date('2026-11-20T08:00:00.000Z');

/** A service holding `reports`, answering newest first, counting the pages asked. */
function newestFirst(reports: Report[]) {
  const asked: number[] = [];
  return {
    asked,
    fetchPage: async (page: number) => {
      asked.push(page);
      return pageOf([...reports].reverse(), page);
    },
  };
}

const quick = (fetchPage: (page: number, signal: AbortSignal) => Promise<ReturnType<typeof pageOf>>) =>
  runQuickRefresh({ cache, scope: 'p', fetchPage, now: () => NOW });

async function fullSync(reports: Report[]) {
  return runFullSync({ cache, scope: 'p', fetchPage: async (page) => pageOf(reports, page) });
}

describe('where a quick refresh stops', () => {
  it('after a full sync, at the page holding the newest id it saw: one request when idle', async () => {
    const reports = generateReports(1_000);
    await fullSync(reports);
    expect(cache.getMeta('p', 'refresh_high_id')).toBe('1000');
    const idle = newestFirst(reports);
    expect(await quick(idle.fetchPage)).toMatchObject({ mode: 'quick', added: 0, requests: 1, fetched: 100 });
    expect(idle.asked).toEqual([1]);
    expect(cache.getMeta('p', LAST_QUICK_REFRESH_META)).toBe(NOW.toISOString());

    const grown = [...reports, ...generateReports(120, 1_001)];
    const service = newestFirst(grown);
    expect(await quick(service.fetchPage)).toMatchObject({ added: 120, requests: 2, pages: 2 });
    expect(service.asked).toEqual([1, 2]);
    expect(cache.getMeta('p', 'refresh_high_id')).toBe('1120');
    expect(cache.status('p').reportCount).toBe(1_120);
  });

  it('before any full sync, at the first page that brings nothing new to the copy', async () => {
    const reports = generateReports(500);
    cache.putReports('p', reports.slice(0, 300), NOW.toISOString());
    const service = newestFirst(reports);
    // Pages 1 and 2 (500–301) are new; page 3 (300–201) brings nothing new.
    expect(await quick(service.fetchPage)).toMatchObject({ added: 200, pages: 3 });
    expect(service.asked).toEqual([1, 2, 3]);
    expect(cache.getMeta('p', 'refresh_high_id')).toBe('500');
  });

  it('an empty copy is read to the end of a short list', async () => {
    const service = newestFirst(generateReports(150));
    expect(await quick(service.fetchPage)).toMatchObject({ added: 150, pages: 2, reason: null });
    // Read to its end: a complete check of the newest, and the newest id known from now on.
    expect(cache.getMeta('p', LAST_QUICK_REFRESH_META)).toBe(NOW.toISOString());
    expect(cache.getMeta('p', 'refresh_high_id')).toBe('150');
  });

  it(`stops after ${QUICK_REFRESH_MAX_PAGES} pages without moving the newest known id`, async () => {
    const reports = generateReports(100);
    await fullSync(reports);
    const service = newestFirst([...reports, ...generateReports(QUICK_REFRESH_MAX_PAGES * 100 + 50, 101)]);
    const summary = await quick(service.fetchPage);
    expect(summary).toMatchObject({ reason: 'page_limit', requests: QUICK_REFRESH_MAX_PAGES });
    expect(cache.getMeta('p', 'refresh_high_id')).toBe('100');
    expect(cache.getMeta('p', LAST_QUICK_REFRESH_META)).toBeNull();
  });
});

describe('what a quick refresh never does', () => {
  it('prunes: a report gone from the service stays until a full sync', async () => {
    const reports = generateReports(200);
    await fullSync(reports);
    const service = newestFirst(reports.filter((r) => r.id !== '150'));
    expect(await quick(service.fetchPage)).toMatchObject({ removed: 0, pruned: false, complete: false });
    expect(cache.getReport('p', '150')).not.toBeNull();
  });

  it('runs beside a full sync of the scope (the same lease): the second one is refused', async () => {
    const reports = generateReports(300);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sync = runFullSync({
      cache,
      scope: 'p',
      fetchPage: async (page) => {
        if (page === 2) await held;
        return pageOf(reports, page);
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const refused = await runQuickRefresh({
      cache,
      scope: 'p',
      fetchPage: newestFirst(reports).fetchPage,
    }).catch((e: unknown) => e);
    expect((refused as AppFailure).error).toMatchObject({ kind: 'busy', reason: 'sync_running' });
    release();
    await sync;
    // And the other way round: a sync refused while a quick refresh holds the lease.
    let releaseQuick!: () => void;
    const heldQuick = new Promise<void>((resolve) => (releaseQuick = resolve));
    // The real clock for both: a lease is compared with the time of the one asking.
    const running = runQuickRefresh({
      cache,
      scope: 'p',
      fetchPage: async (page) => (await heldQuick, pageOf([...reports].reverse(), page)),
    });
    const syncRefused = await fullSync(reports).catch((e: unknown) => e);
    expect((syncRefused as AppFailure).error).toMatchObject({ reason: 'sync_running' });
    releaseQuick();
    await running;
    expect(cache.leases.held('p')).toBeNull();
  });
});

describe('how a quick refresh ends early', () => {
  it('cancelled: its own sentence, what it wrote is kept, nothing recorded as run', async () => {
    const reports = generateReports(300);
    const controller = new AbortController();
    const error = await runQuickRefresh({
      cache,
      scope: 'p',
      signal: controller.signal,
      fetchPage: async (page) => {
        if (page === 2) controller.abort();
        return pageOf([...reports].reverse(), page);
      },
    }).catch((e: unknown) => e);
    expect((error as AppFailure).error).toMatchObject({
      kind: 'cancelled',
      message: 'The check for new reports was cancelled. Nothing already saved was lost.',
    });
    expect(cache.status('p').reportCount).toBe(100);
    expect(cache.getMeta('p', LAST_QUICK_REFRESH_META)).toBeNull();
    expect(cache.leases.held('p')).toBeNull();
  });

  it('taken over by another process: stops with that reason', async () => {
    const reports = generateReports(300);
    const error = await runQuickRefresh({
      cache,
      scope: 'p',
      fetchPage: async (page) => {
        if (page === 2) cache.leases.acquire('p', 'someone-else', Date.now() + 60_000, 1_000);
        return pageOf([...reports].reverse(), page);
      },
    }).catch((e: unknown) => e);
    expect((error as AppFailure).error).toMatchObject({ kind: 'busy', reason: 'sync_taken_over' });
    expect(cache.leases.held('p')?.owner).toBe('someone-else');
  });

  it('a failing page ends it with that failure', async () => {
    const failure = new AppFailure({
      kind: 'network',
      code: 'network',
      message: 'The Report Service could not be reached.',
    });
    await expect(
      quick(async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
  });
});
