/**
 * The full sync's rules that the everyday tests (sync.test.ts) do not reach: how ids must
 * follow each other for a listing to count as consistent, the lease's renewal timer, what a
 * resumed sync carries over from its earlier passes, and how a 429 is waited out. Every test
 * drives runFullSync on a real SQLite cache; the rate limits also against the real reference
 * service (request counts), and their waits on vitest's fake clock so no test sleeps seconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReportServiceClient } from '../../electron/core/api/client';
import { runFullSync, type FullSyncOptions } from '../../electron/core/cache/fullSync';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { armCrashPoints, CRASH_AT_ENV } from '../../electron/core/crashPoints';
import { startDemoService } from '../../electron/demo-service/server';
import type { SyncProgress } from '../../shared/contract';
import { AppFailure, appError } from '../../shared/errors';
import type { Report, ReportPage } from '../../shared/report';
import { generateReports, pageOf } from '../fixtures/generatedReports';
import { syncOneAtATime as oneAtATime } from '../helpers/syncRuns';

let dir: string;
let cache: ReportCache;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-fullsync-'));
  cache = ReportCache.open(join(dir, 'cache.sqlite'));
});
afterEach(() => {
  vi.useRealTimers();
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const STALE: Report = { id: 'zz-stale', url: 'https://gone.example' };
const TAKEN_OVER =
  'This sync stalled and another ReportDesk window or command took it over; nothing was removed from the offline copy. Wait for that sync to finish.';
const CANCELLED = 'The offline sync was cancelled. Start it again to continue where it stopped.';

const withIds = (ids: string[]): Report[] => ids.map((id) => ({ id, url: `https://site.example/${id}` }));
const serve = (reports: readonly Report[]) => async (page: number) => pageOf(reports, page);
const numbered = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
const staleKept = () => cache.getReport('p', STALE.id) !== null;
/** The unfinished sync's progress as the cache keeps it (syncState.ts). */
const progress = () => JSON.parse(cache.getMeta('p', 'sync_progress') ?? 'null') as Record<string, unknown>;
const failureOf = async (run: Promise<unknown>) => {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppFailure);
  return (error as AppFailure).error;
};
/** Resolves when `signal` aborts (true) or after `ms` (false): a page that never answers on its own. */
const abortedWithin = (signal: AbortSignal, ms: number) =>
  new Promise<boolean>((resolve) => {
    if (signal.aborted) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve(true)), { once: true });
  });
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Lets vitest's fake clock (installed by the test) run every timer until `run` settles. */
async function settleOnFakeClock<T>(run: Promise<T>): Promise<T> {
  let settled = false;
  run.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled) {
    await vi.advanceTimersToNextTimerAsync();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return run;
}

/** Syncs a listing (cached STALE first) and tells whether the sync pruned. */
async function syncListing(reports: Report[], edit?: (page: ReportPage) => ReportPage) {
  cache.putReports('p', [STALE], '2024-01-01T00:00:00Z');
  const phases: string[] = [];
  const summary = await runFullSync({
    cache,
    scope: 'p',
    fetchPage: async (page) => (edit ? edit(pageOf(reports, page)) : pageOf(reports, page)),
    onProgress: (p) => phases.push(p.phase),
  });
  return { summary, phases };
}

describe('ids must rise in the order the cache keeps them (numbers first, then text)', () => {
  it('numeric ids, then text ids in text order, are a consistent listing: the stale row is pruned', async () => {
    const { summary } = await syncListing(withIds([...numbered(1, 150), '0abc', 'abc', 'b']));
    expect(summary).toMatchObject({ fetched: 153, pruned: true, reason: null, removed: 1 });
    expect(staleKept()).toBe(false);
  });

  it('a listing that starts at id 0 is consistent', async () => {
    const { summary } = await syncListing(withIds(numbered(0, 149)));
    expect(summary).toMatchObject({ fetched: 150, pruned: true, removed: 1 });
  });

  it('a listing of text ids only is consistent too', async () => {
    const ids = Array.from({ length: 120 }, (_, i) => `alpha-${String(i).padStart(3, '0')}`);
    const { summary } = await syncListing(withIds(ids));
    expect(summary).toMatchObject({ fetched: 120, pruned: true, removed: 1 });
  });

  it('ids too long to tell apart as numbers rise by their text: consistent', async () => {
    // 19 digits: both are 1e18 as a double, so the cache orders them by their text.
    const { summary } = await syncListing(
      withIds([...numbered(1, 100), '1000000000000000001', '1000000000000000002']),
    );
    expect(summary).toMatchObject({ fetched: 102, pruned: true, removed: 1 });
  });

  const moved: [string, string[]][] = [
    ['a number after text ids', [...numbered(1, 100), 'abc', '200']],
    ['text ids going down', [...numbered(1, 100), 'b', 'a']],
    ['ids going down by number (99 after 100), though not by text', [...numbered(1, 100), '99', '101']],
    [
      'long ids tying as numbers going down by their text',
      [...numbered(1, 100), '1000000000000000002', '1000000000000000001'],
    ],
  ];
  it.each(moved)('%s: the listing moved, so nothing is removed', async (_name, ids) => {
    const { summary, phases } = await syncListing(withIds(ids));
    expect(summary).toMatchObject({
      fetched: ids.length,
      pruned: false,
      removed: 0,
      reason: 'listing_changed',
    });
    expect(staleKept()).toBe(true);
    expect(phases).not.toContain('pruning');
  });
});

describe('what makes a listing whole', () => {
  it('fewer reports than the steady total announced keeps the rows, and says so without a pruning phase', async () => {
    const { summary, phases } = await syncListing(generateReports(250), (page) => ({
      ...page,
      total: 260,
    }));
    expect(summary).toMatchObject({
      fetched: 250,
      pruned: false,
      removed: 0,
      reason: 'listing_changed',
      complete: false,
      passes: 3,
    });
    expect(staleKept()).toBe(true);
    // Three reads of three pages, and never a pruning phase.
    expect(phases).toEqual([...Array<string>(9).fill('fetching'), 'done']);
  });

  it('a listing without totals, read to its short last page, prunes', async () => {
    const { summary, phases } = await syncListing(generateReports(230), (page) => ({
      ...page,
      total: null,
      lastPage: null,
    }));
    expect(summary).toMatchObject({ fetched: 230, pruned: true, removed: 1, reason: null });
    expect(phases).toEqual(['fetching', 'fetching', 'fetching', 'pruning', 'done']);
  });
});

/** A sync asking one page at a time; answers the pages asked and the summary. */
const syncOneAtATime = (reports: Report[]) => oneAtATime(cache, reports);

describe('a resumed sync carries on from its earlier runs', () => {
  /** One run of the sync that is cancelled when it asks for page `stopAt`. */
  async function cancelledPass(options: Omit<FullSyncOptions, 'cache' | 'scope' | 'signal'>, stopAt: number) {
    const controller = new AbortController();
    const error = await failureOf(
      runFullSync({
        ...options,
        cache,
        scope: 'p',
        concurrency: 1,
        signal: controller.signal,
        fetchPage: async (page, signal) => {
          if (page === stopAt) controller.abort();
          return options.fetchPage(page, signal);
        },
      }),
    );
    expect(error).toMatchObject({ kind: 'cancelled', message: CANCELLED });
  }

  it('keeps its start time and the mark that the listing changed in an earlier run', async () => {
    const reports = generateReports(400);
    cache.putReports('p', [STALE], '2024-01-01T00:00:00Z');
    // Run 1 sees the total change on page 2, and is cancelled asking page 3.
    await cancelledPass(
      {
        now: () => new Date('2024-06-01T10:00:00Z'),
        fetchPage: async (page) => ({ ...pageOf(reports, page), total: page === 2 ? 401 : 400 }),
      },
      3,
    );
    expect(progress()).toMatchObject({ startedAt: '2024-06-01T10:00:00.000Z', pass: 1, changed: true });
    // Run 2, an hour later, reads page 3 only.
    await cancelledPass({ now: () => new Date('2024-06-01T11:00:00Z'), fetchPage: serve(reports) }, 4);
    expect(progress()).toMatchObject({ startedAt: '2024-06-01T10:00:00.000Z', nextPage: 4, changed: true });

    // Run 3 reads a steady last page, but that read as a whole saw the listing move: it reads
    // the list again (a second pass), which is steady, and prunes.
    const { asked, summary } = await syncOneAtATime(reports);
    // (Page 3 first: the page before the resume point, read again to see nothing shifted.)
    expect(asked).toEqual([3, 4, 1, 2, 3, 4]);
    expect(summary).toMatchObject({ fetched: 400, pages: 4, pruned: true, reason: null, passes: 2 });
    expect(staleKept()).toBe(false);
  });

  it('progress that cannot be read is no sync to resume: a new one reads from page 1 and prunes', async () => {
    const reports = generateReports(250);
    for (const progressText of ['not json', '{"nextPage": 3}', 'null']) {
      cache.putReports('p', [STALE], '2024-01-01T00:00:00Z');
      await cancelledPass({ fetchPage: serve(reports) }, 2);
      cache.setMeta('p', 'sync_progress', progressText);
      const { asked, summary } = await syncOneAtATime(reports);
      expect(asked).toEqual([1, 2, 3]);
      expect(summary).toMatchObject({ fetched: 250, pages: 3, passes: 1, complete: true, removed: 1 });
    }
  });

  it('an unfinished sync an older ReportDesk left (its progress under other keys) is finished and forgotten', async () => {
    const reports = generateReports(150);
    const legacy = [
      'sync_next_page',
      'sync_started_at',
      'sync_fetched',
      'sync_pages',
      'sync_first_total',
      'sync_last_id',
      'sync_listing_changed',
    ];
    cache.setMeta('p', 'sync_id', 'older-sync');
    for (const key of legacy) cache.setMeta('p', key, '1');
    // A row that older sync saw is kept while this one runs, and pruned when it proves it gone.
    cache.putReports('p', [STALE], '2024-01-01T00:00:00Z');
    const summary = await runFullSync({ cache, scope: 'p', fetchPage: serve(reports) });
    expect(summary).toMatchObject({ fetched: 150, complete: true, removed: 1 });
    for (const key of [...legacy, 'sync_id', 'sync_progress']) expect(cache.getMeta('p', key)).toBeNull();
  });

  it('a listing without totals, resumed, still prunes', async () => {
    const reports = generateReports(250);
    cache.putReports('p', [STALE], '2024-01-01T00:00:00Z');
    const noTotals = async (page: number) => ({ ...pageOf(reports, page), total: null, lastPage: null });
    await cancelledPass({ fetchPage: noTotals }, 2);
    const summary = await runFullSync({ cache, scope: 'p', fetchPage: noTotals });
    expect(summary).toMatchObject({ fetched: 250, pages: 3, pruned: true, removed: 1, reason: null });
    expect(staleKept()).toBe(false);
  });

  it('is bounded by the total its first pass announced, even when later pages send none', async () => {
    const reports = generateReports(250);
    await cancelledPass({ fetchPage: serve(reports) }, 2);
    // Now the service sends full pages of new ids forever, without a total.
    const asked: number[] = [];
    const summary = await runFullSync({
      cache,
      scope: 'p',
      concurrency: 1,
      maxPages: 12,
      fetchPage: async (page) => {
        asked.push(page);
        return { ...pageOf(generateReports(100, page * 100), 1), page, total: null, lastPage: null };
      },
    });
    // 250 reports of 100 a page: page 3 is the last, one more is allowed, then it stops.
    // Page 1 again (the page before the resume point), then on from page 2.
    expect(asked).toEqual([1, 2, 3, 4]);
    expect(summary).toMatchObject({ pruned: false, reason: 'page_limit' });
    // A walk cut short is no full sync: the change log does not start with it.
    expect(cache.changes.since('p')).toBeNull();
  });
});

describe('its crash points', () => {
  it.each(['sync.batch-written', 'sync.batch-committed', 'sync.before-prune'])(
    '%s is reached, once, by a sync that writes its pages and prunes',
    async (point) => {
      let reached = 0;
      armCrashPoints({ [CRASH_AT_ENV]: point }, () => reached++);
      try {
        await runFullSync({ cache, scope: 'p', concurrency: 1, fetchPage: serve(generateReports(250)) });
      } finally {
        armCrashPoints({});
      }
      expect(reached).toBe(1);
    },
  );
});

describe('pages written in batches', () => {
  it('the first page alone, then the pages that arrived together in one transaction each, never past a gap', async () => {
    const reports = generateReports(2_000);
    const saved: number[] = [];
    const setMeta = cache.setMeta.bind(cache);
    cache.setMeta = (scope, key, value) => {
      if (key === 'sync_progress' && value !== null)
        saved.push((JSON.parse(value) as { nextPage: number }).nextPage);
      setMeta(scope, key, value);
    };
    const pagesSeen: number[] = [];
    const summary = await runFullSync({
      cache,
      scope: 'p',
      pagesPerWrite: 3,
      fetchPage: serve(reports),
      onProgress: (p) => p.phase === 'fetching' && pagesSeen.push(p.page),
    });
    expect(summary).toMatchObject({ fetched: 2_000, pages: 20, complete: true });
    expect(saved[0]).toBe(2);
    // Fewer writes than pages, each at most three pages on, always ahead.
    expect(saved.length).toBeLessThan(20);
    expect(saved.at(-1)).toBe(21);
    for (let i = 1; i < saved.length; i++) {
      expect(saved[i] - saved[i - 1]).toBeGreaterThanOrEqual(1);
      expect(saved[i] - saved[i - 1]).toBeLessThanOrEqual(3);
    }
    // Every page still reported, in order.
    expect(pagesSeen).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('a write between pages that fails ends the sync with that failure, asks no further, keeps what was written', async () => {
    const reports = generateReports(2_000);
    const put = cache.putReports.bind(cache);
    const asked: number[] = [];
    cache.putReports = (scope, list, at, options) => {
      if (list[0]?.id === '301') throw new Error('disk full');
      return put(scope, list, at, options);
    };
    const error = await runFullSync({
      cache,
      scope: 'p',
      concurrency: 1,
      // Each answer in a later turn of the event loop, as over a network: the batch is written
      // between pages, not when the failing page is handed over.
      fetchPage: async (page, signal) => {
        asked.push(page);
        // The page after the failing one never answers on its own: the failed write must end
        // the walk (it aborts the request), not wait for another page to be handed over.
        if (page === 5) await abortedWithin(signal, 60_000);
        await new Promise((resolve) => setImmediate(resolve));
        return pageOf(reports, page);
      },
    }).catch((e: unknown) => e);
    expect(error).toEqual(new Error('disk full'));
    // Page 4 failed to be written; the walk stopped asking right after.
    expect(Math.max(...asked)).toBeLessThanOrEqual(6);
    expect(cache.status('p').reportCount).toBe(300);
    expect(cache.leases.held('p')).toBeNull();
  });
});

describe('the lease renewal timer', () => {
  it.each([
    [3_000, 1_000],
    [90, 50],
  ])(
    'a lease of %i ms is renewed every %i ms (a third of it, at least 50 ms apart), each time for a full lease',
    async (leaseMs, every) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
      const reports = generateReports(300);
      const seen: { at: number; expiresAt: number }[] = [];
      const summary = await settleOnFakeClock(
        runFullSync({
          cache,
          scope: 'p',
          leaseMs,
          fetchPage: async (page) => {
            if (page === 2) {
              // A slow page: only the timer renews the claim while it is in flight.
              const start = Date.now();
              const look = () =>
                seen.push({ at: Date.now() - start, expiresAt: cache.leases.held('p')!.expiresAt - start });
              look();
              for (const wait of [every - 1, 1, every - 1, 1]) {
                await tick(wait);
                look();
              }
            }
            return pageOf(reports, page);
          },
        }),
      );
      expect(seen).toEqual([
        { at: 0, expiresAt: leaseMs },
        { at: every - 1, expiresAt: leaseMs },
        { at: every, expiresAt: every + leaseMs },
        { at: 2 * every - 1, expiresAt: every + leaseMs },
        { at: 2 * every, expiresAt: 2 * every + leaseMs },
      ]);
      expect(summary).toMatchObject({ fetched: 300, pruned: true });
    },
  );

  it('renews the claim while a slow page is in flight: a second sync is still refused past the first expiry', async () => {
    const reports = generateReports(300);
    const leaseMs = 600;
    let second: unknown;
    const summary = await runFullSync({
      cache,
      scope: 'p',
      leaseMs,
      fetchPage: async (page) => {
        if (page === 2) {
          const firstExpiry = cache.leases.held('p')!.expiresAt;
          // Wait past the claim's expiry as it stood: only the timer (every leaseMs / 3) can
          // have kept it.
          while (Date.now() <= firstExpiry + 100) await tick(20);
          second = await runFullSync({ cache, scope: 'p', fetchPage: serve(reports) }).catch(
            (e: unknown) => e,
          );
        }
        return pageOf(reports, page);
      },
    });
    expect((second as AppFailure).error).toMatchObject({ kind: 'busy', reason: 'sync_running' });
    expect(summary).toMatchObject({ fetched: 300, pruned: true });
  });

  it('a claim taken over while a page is in flight stops the sync at once, aborting that request and removing nothing', async () => {
    const reports = generateReports(300);
    cache.putReports('p', [STALE], '2024-01-01T00:00:00Z');
    const phases: SyncProgress['phase'][] = [];
    let aborted: boolean | undefined;
    const error = await failureOf(
      runFullSync({
        cache,
        scope: 'p',
        leaseMs: 150,
        onProgress: (p) => phases.push(p.phase),
        fetchPage: async (page, signal) => {
          if (page === 2) {
            // Another process found the claim expired (its clock past it) and took it over.
            expect(cache.leases.acquire('p', 'someone-else', Date.now() + 10_000, 10_000)).toBe(true);
            // The page never answers; only the renewal timer noticing the loss ends it.
            aborted = await abortedWithin(signal, 3_000);
          }
          return pageOf(reports, page);
        },
      }),
    );
    expect(aborted).toBe(true);
    expect(error).toMatchObject({ kind: 'busy', reason: 'sync_taken_over', message: TAKEN_OVER });
    expect(phases.at(-1)).toBe('failed');
    expect(staleKept()).toBe(true);
    expect(cache.leases.held('p')?.owner).toBe('someone-else');
  });

  it('a renewal that finds the file busy is tried again at the next tick, and the sync completes', async () => {
    const reports = generateReports(300);
    cache.putReports('p', [STALE], '2024-01-01T00:00:00Z');
    // A stand-in for a real lock held too long, which would cost the test 5 s: the cache sets
    // PRAGMA busy_timeout = 5000, after which SQLite answers SQLITE_BUSY
    // (https://www.sqlite.org/c3ref/busy_timeout.html) and better-sqlite3 throws it as a
    // SqliteError with that code, so the renewal meets it as a throw, not as a refusal.
    // reportCache.test.ts ("a busy database is never moved aside") proves that throw against a
    // real lock held by another process.
    const renew = cache.leases.renew.bind(cache.leases);
    let busy = false;
    let refusedRenewals = 0;
    cache.leases.renew = (...args) => {
      if (!busy) return renew(...args);
      refusedRenewals += 1;
      throw new Database.SqliteError('database is locked', 'SQLITE_BUSY');
    };
    const summary = await runFullSync({
      cache,
      scope: 'p',
      leaseMs: 150,
      fetchPage: async (page) => {
        if (page === 2) {
          busy = true;
          while (refusedRenewals < 2) await tick(10);
          busy = false;
        }
        return pageOf(reports, page);
      },
    });
    expect(refusedRenewals).toBeGreaterThanOrEqual(2);
    expect(summary).toMatchObject({ fetched: 300, pruned: true, removed: 1 });
  });
});

describe('a 429 during a sync', () => {
  const rateLimited = (retryAfterSeconds?: number) =>
    new AppFailure(appError('http.rate_limited', {}, { retryAfterSeconds }));

  /**
   * Runs the sync on vitest's fake clock (setTimeout and Date), letting every wait pass at
   * once, and records when (fake ms since the start) each page was asked for.
   */
  async function onFakeClock(
    reports: Report[],
    refuse: (page: number, attempt: number) => Error | null,
    options: Partial<FullSyncOptions> = {},
  ) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const start = Date.now();
    const asks: { page: number; at: number; inFlight: number }[] = [];
    let inFlight = 0;
    const phases: string[] = [];
    const run = runFullSync({
      cache,
      scope: 'p',
      concurrency: 1,
      onProgress: (p) => phases.push(p.phase),
      ...options,
      fetchPage: async (page) => {
        const attempt = asks.filter((a) => a.page === page).length + 1;
        inFlight += 1;
        asks.push({ page, at: Date.now() - start, inFlight });
        try {
          // A short round trip, so requests overlap when the sync asks several at once.
          await new Promise((resolve) => setTimeout(resolve, 5));
          const failure = refuse(page, attempt);
          if (failure) throw failure;
          return pageOf(reports, page);
        } finally {
          inFlight -= 1;
        }
      },
    }).then(
      (summary) => ({ summary, error: null }),
      (error: unknown) => ({ summary: null, error }),
    );
    const outcome = await settleOnFakeClock(run);
    vi.useRealTimers();
    const waits = (page: number) => {
      const times = asks.filter((a) => a.page === page).map((a) => a.at);
      // Each answer takes the 5 ms round trip; the wait is what comes after it.
      return times.slice(1).map((at, i) => at - times[i] - 5);
    };
    return { ...outcome, asks, waits, phases };
  }

  it('without Retry-After waits 1 s, 2 s, 4 s, 8 s, 16 s for a page, then fails with the 429, keeping what it wrote', async () => {
    cache.putReports('p', [STALE], '2024-01-01T00:00:00Z');
    const failure = rateLimited();
    const { error, waits, phases } = await onFakeClock(generateReports(300), (page) =>
      page === 2 ? failure : null,
    );
    expect(error).toBe(failure);
    expect(waits(2)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
    expect(phases.at(-1)).toBe('failed');
    expect(cache.status('p').reportCount).toBe(101);
    expect(staleKept()).toBe(true);
  });

  it('waits the Retry-After the service sent, up to five times for a page, and then completes', async () => {
    const { summary, waits } = await onFakeClock(generateReports(300), (page, attempt) =>
      page === 2 && attempt <= 5 ? rateLimited(7) : null,
    );
    expect(waits(2)).toEqual([7_000, 7_000, 7_000, 7_000, 7_000]);
    expect(summary).toMatchObject({ fetched: 300, pages: 3, pruned: true });
  });

  it('a Retry-After of a minute is waited; one beyond a minute ends the sync at once', async () => {
    const minute = await onFakeClock(generateReports(300), (page, attempt) =>
      page === 2 && attempt === 1 ? rateLimited(60) : null,
    );
    expect(minute.waits(2)).toEqual([60_000]);
    expect(minute.summary).toMatchObject({ fetched: 300, pruned: true });

    const tooLong = rateLimited(61);
    const beyond = await onFakeClock(generateReports(300), (page) => (page === 2 ? tooLong : null));
    expect(beyond.error).toBe(tooLong);
    expect(beyond.asks.filter((a) => a.page === 2)).toHaveLength(1);
  });

  it('drops the rest of the run to one request at a time', async () => {
    const { summary, asks } = await onFakeClock(
      generateReports(1_500),
      (page, attempt) => (page === 4 && attempt === 1 ? rateLimited(0) : null),
      { concurrency: 4 },
    );
    expect(summary).toMatchObject({ fetched: 1_500, pruned: true });
    const retried = asks.findIndex((a, i) => a.page === 4 && i > asks.findIndex((b) => b.page === 4));
    expect(Math.max(...asks.slice(0, retried).map((a) => a.inFlight))).toBeGreaterThan(1);
    // From the refused page's second request on (a request granted while the 429 was still on
    // its way is not the sync's choice), every request is the only one in flight.
    const after = asks.slice(retried);
    expect(after.length).toBeGreaterThan(5);
    expect(after.every((a) => a.inFlight === 1)).toBe(true);
  });

  it('any other failure is not asked again', async () => {
    const broken = new Error('socket hang up');
    const { error, asks } = await onFakeClock(generateReports(300), (page) => (page === 2 ? broken : null));
    expect(error).toBe(broken);
    expect(asks.filter((a) => a.page === 2)).toHaveLength(1);
  });

  describe('from the reference service (Retry-After: 0)', () => {
    async function againstService(times: number) {
      const service = await startDemoService({ reportsPerAccount: 60 });
      try {
        service.faults.add({
          method: 'GET',
          path: '/api/v1/reports',
          status: 429,
          headers: { 'Retry-After': '0' },
          times,
        });
        const client = new ReportServiceClient({
          baseUrl: service.baseUrl,
          apiKey: service.apiKey,
          allowInsecureHttp: true,
        });
        cache.putReports('p', [STALE], '2024-01-01T00:00:00Z');
        const outcome = await runFullSync({
          cache,
          scope: 'p',
          fetchPage: (page, signal) =>
            client.listReports(
              { per_page: 100, sort_by: 'id', sort: 'asc', page },
              { signal, retryRateLimited: false },
            ),
        }).then(
          (summary) => ({ summary, error: null }),
          (error: unknown) => ({ summary: null, error }),
        );
        return { ...outcome, requests: service.requests.filter((r) => r.path === '/api/v1/reports').length };
      } finally {
        await service.stop();
      }
    }

    it('five refusals of the page are asked again and the sync completes', async () => {
      const { summary, requests } = await againstService(5);
      expect(requests).toBe(6);
      expect(summary).toMatchObject({ fetched: 60, pruned: true, removed: 1 });
    });

    it('a sixth refusal ends the sync with the rate-limit failure, removing nothing', async () => {
      const { error, requests } = await againstService(100);
      expect(requests).toBe(6);
      expect((error as AppFailure).error).toMatchObject({ kind: 'rate_limited' });
      expect(staleKept()).toBe(true);
    });
  });
});
