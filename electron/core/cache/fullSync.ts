/**
 * Full sync ("make available offline"): pages through every report of a scope into the cache,
 * then removes the cached reports the service provably no longer has.
 *
 * One sync per scope across processes: the run first claims the scope's lease row in the
 * cache file (an IMMEDIATE transaction), renews it on every page and on a timer, and releases
 * it at the end. A second sync of the scope, in this or any other process, is refused with a
 * `busy` error (reason `sync_running`). A process killed mid-sync stops renewing, so its claim
 * runs out `leaseMs` (default 20 s) after its last renewal at the latest and the next sync
 * takes over.
 *
 * Crash safety: each page is written in ONE transaction together with the sync's progress
 * (its id, the next page, the listing's first total, the last id seen), so a killed process
 * leaves a consistent file and the next run resumes at the next page of the SAME sync. Reports
 * are marked with the sync id that saw them — in every pass of that sync — and only after the
 * last page are unmarked ones pruned.
 *
 * Over a real network pages are asked SYNC_CONCURRENCY at a time (shared/paging's walk), yet
 * written strictly in page order: a page that arrives before the one ahead of it waits in
 * memory, so the progress on disk never passes a gap and a resume never skips a page. The
 * first 429 drops the rest of the run to one request at a time, and no request starts before
 * the Retry-After it sent is over (bounded: a few waits per page, none over a minute).
 *
 * Pruning only what is provably gone: only when this run still owns the lease and read a
 * consistent listing — the total (when sent) the same on every page as on the first, ids
 * strictly increasing across the id-ascending pages, and as many reports read as the total
 * says. Otherwise (a report deleted or added on the service during the sync shifts the offset
 * pages) nothing is removed and the summary says why; the next sync settles it.
 */
import { randomUUID } from 'node:crypto';
import type { SyncKeptReason, SyncProgress, SyncSummary } from '../../../shared/contract';
import { AppFailure, appError } from '../../../shared/errors';
import { followPages, type PageRetry, type PageWalkStop } from '../../../shared/paging';
import type { ReportPage } from '../../../shared/report';
import { idSortKey } from './records';
import { LAST_FULL_SYNC_META, SYNC_ID_META, type ReportCache } from './reportCache';

/** How long a sync's claim lasts without renewal: the longest a killed sync blocks the next. */
export const DEFAULT_SYNC_LEASE_MS = 20_000;

/** Page requests in flight at once: enough to hide a network's round trip, few enough to be polite. */
export const SYNC_CONCURRENCY = 4;
/** A 429 is waited out this many times per page at most… */
const RATE_LIMIT_WAITS_PER_PAGE = 5;
/** …each wait at most this long; a longer Retry-After ends the sync with its sentence. */
const MAX_RATE_LIMIT_WAIT_MS = 60_000;

export interface FullSyncOptions {
  cache: ReportCache;
  scope: string;
  /** The caller fetches per_page 100, sort_by id asc. */
  fetchPage: (page: number, signal: AbortSignal) => Promise<ReportPage>;
  signal?: AbortSignal;
  onProgress?: (p: Omit<SyncProgress, 'profileId'>) => void;
  now?: () => Date;
  /** Lease duration in ms (default DEFAULT_SYNC_LEASE_MS); renewed every third of it. */
  leaseMs?: number;
  /** The hard maximum of list requests of one run (default: shared/paging's). */
  maxPages?: number;
  /** Page requests in flight at once (default SYNC_CONCURRENCY). */
  concurrency?: number;
}

const META = {
  syncId: SYNC_ID_META,
  nextPage: 'sync_next_page',
  startedAt: 'sync_started_at',
  fetched: 'sync_fetched',
  pages: 'sync_pages',
  /** The total the first page announced ('' when it sent none). */
  firstTotal: 'sync_first_total',
  /** The highest id stored so far, to check that the pages join up across a resume. */
  lastId: 'sync_last_id',
  /** '1' once any page showed the listing changed underneath. */
  changed: 'sync_listing_changed',
} as const;

export const SYNC_RUNNING_MESSAGE =
  'A sync of this profile is already running in another ReportDesk window or command; wait for it to finish, then try again.';

const TAKEN_OVER_MESSAGE =
  'This sync stalled and another ReportDesk window or command took it over; nothing was removed from the offline cache. Wait for that sync to finish.';

/** Orders ids as the cache's id_sort column does: numbers first, numerically, then text. */
function compareIds(a: string, b: string): number {
  const x = idSortKey(a);
  const y = idSortKey(b);
  const xText = typeof x === 'string';
  const yText = typeof y === 'string';
  if (xText !== yText) return xText ? 1 : -1;
  if (x < y) return -1;
  if (x > y) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

class LeaseLost extends Error {}

export async function runFullSync(options: FullSyncOptions): Promise<SyncSummary> {
  const { cache, scope, fetchPage, onProgress } = options;
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? DEFAULT_SYNC_LEASE_MS;
  const signal = options.signal ?? new AbortController().signal;
  const owner = randomUUID();

  if (!cache.acquireSyncLease(scope, owner, now().getTime(), leaseMs)) {
    throw new AppFailure(appError('busy', SYNC_RUNNING_MESSAGE, { reason: 'sync_running' }));
  }
  // From here on the lease is ours until released (finally) or lost (renewal refused).
  const stopped = new AbortController();
  const runSignal = AbortSignal.any([signal, stopped.signal]);
  let lost = false;
  const renew = () => {
    if (lost) return;
    let kept: boolean;
    try {
      kept = cache.renewSyncLease(scope, owner, now().getTime(), leaseMs);
    } catch {
      // The file is busy beyond busy_timeout: try again at the next tick or page.
      return;
    }
    if (!kept) {
      lost = true;
      stopped.abort();
    }
  };
  const renewal = setInterval(renew, Math.max(50, Math.floor(leaseMs / 3)));
  renewal.unref();

  // Resume an unfinished sync (another pass of it may have died), or start a fresh one.
  const resumedId = cache.getMeta(scope, META.syncId);
  const syncId = resumedId ?? randomUUID();
  const resumed = (key: string) => (resumedId ? cache.getMeta(scope, key) : null);
  const startedAt = resumed(META.startedAt) || now().toISOString();
  // Stryker disable next-line StringLiteral: Number('') is 0, which `|| 1` turns into 1 all the same.
  const firstPage = Number(resumed(META.nextPage) ?? '1') || 1;
  // Stryker disable next-line StringLiteral: Number('') is 0, the same as Number('0').
  let fetched = Number(resumed(META.fetched) ?? '0') || 0;
  // Stryker disable next-line StringLiteral: Number('') is 0, the same as Number('0').
  let pages = Number(resumed(META.pages) ?? '0') || 0;
  const storedTotal = resumed(META.firstTotal);
  let firstTotal: number | null | undefined =
    storedTotal === null ? undefined : storedTotal === '' ? null : Number(storedTotal);
  let lastId = resumed(META.lastId);
  let changed = resumed(META.changed) === '1';
  let page = firstPage;
  let lastPage: number | null = null;
  let total: number | null = null;

  const report = (phase: SyncProgress['phase']) => {
    try {
      // Stryker disable next-line OptionalChaining: without a listener the call throws a TypeError that the catch below swallows.
      onProgress?.({ page, lastPage, fetched, total, phase });
    } catch {
      // A progress listener must not break the sync.
    }
  };
  const claimOrStop = () => {
    if (lost || !cache.renewSyncLease(scope, owner, now().getTime(), leaseMs)) {
      // Stryker disable next-line BooleanLiteral: the LeaseLost thrown next is taken for a lost lease as well, and a renewal tick before the finally only finds the lease gone again.
      lost = true;
      throw new LeaseLost();
    }
  };

  try {
    const walk = await followPages({
      firstPage,
      knownTotal: firstTotal ?? null,
      maxPages: options.maxPages,
      concurrency: options.concurrency ?? SYNC_CONCURRENCY,
      retry: rateLimitRetry,
      signal: runSignal,
      fetchPage: async (n, walkSignal) => {
        throwIfStopped(runSignal);
        // walkSignal aborts with runSignal too (passed as the walk's signal), and when the walk
        // no longer needs this page.
        const result = await fetchPage(n, walkSignal);
        throwIfStopped(runSignal);
        return result;
      },
      // Called in page order only, so the progress written with each page never passes a gap.
      onPage: (result, _fresh, n) => {
        page = n;
        lastPage = result.lastPage;
        total = result.total;
        if (firstTotal === undefined) firstTotal = result.total;
        // The listing moved underneath: a changed total, or pages that do not join up.
        if (result.total !== firstTotal) changed = true;
        for (const { id } of result.reports) {
          const text = String(id);
          if (lastId !== null && compareIds(text, lastId) <= 0) changed = true;
          else lastId = text;
        }
        fetched += result.reports.length;
        pages += 1;
        const fetchedAt = now().toISOString();
        cache.transaction(() => {
          claimOrStop();
          cache.putReports(scope, result.reports, fetchedAt, syncId);
          cache.setMeta(scope, META.syncId, syncId);
          cache.setMeta(scope, META.startedAt, startedAt);
          cache.setMeta(scope, META.nextPage, String(page + 1));
          cache.setMeta(scope, META.fetched, String(fetched));
          cache.setMeta(scope, META.pages, String(pages));
          cache.setMeta(scope, META.firstTotal, firstTotal === null ? '' : String(firstTotal));
          cache.setMeta(scope, META.lastId, lastId);
          cache.setMeta(scope, META.changed, changed ? '1' : null);
        });
        report('fetching');
      },
    });

    throwIfStopped(runSignal);
    const reason = keptReason(walk.stop, changed, fetched, firstTotal ?? null);
    if (reason === null) report('pruning');
    const completedAt = now().toISOString();
    const removed = cache.transaction(() => {
      claimOrStop();
      const count = reason === null ? cache.pruneUnseen(scope, syncId) : 0;
      // Read to its end, the listing is as fresh as now; a walk cut short is not a full sync.
      if (walk.stop === 'end') cache.setMeta(scope, LAST_FULL_SYNC_META, completedAt);
      for (const key of Object.values(META)) cache.setMeta(scope, key, null);
      return count;
    });
    report('done');
    return { fetched, removed, pages, completedAt, pruned: reason === null, reason };
  } catch (error) {
    if (lost || error instanceof LeaseLost) {
      report('failed');
      throw new AppFailure(appError('busy', TAKEN_OVER_MESSAGE, { reason: 'sync_taken_over' }));
    }
    if (signal.aborted) {
      report('cancelled');
      throw new AppFailure(
        appError('cancelled', 'The offline sync was cancelled. Start it again to continue where it stopped.'),
      );
    }
    report('failed');
    throw error;
  } finally {
    clearInterval(renewal);
    try {
      cache.releaseSyncLease(scope, owner);
    } catch {
      // Unreleased, the claim simply runs out after leaseMs.
    }
  }
}

/** Null when the listing was read whole and consistently, so unseen cached reports are gone. */
function keptReason(
  stop: PageWalkStop,
  changed: boolean,
  fetched: number,
  firstTotal: number | null,
): SyncKeptReason | null {
  if (stop !== 'end') return stop;
  if (changed || (firstTotal !== null && fetched !== firstTotal)) return 'listing_changed';
  return null;
}

/**
 * A 429 is waited out (its Retry-After, else a back-off) and drops the run to one request at
 * a time; every other failure ends the run as before (the client has already retried it).
 */
function rateLimitRetry(error: unknown, failures: number): PageRetry | null {
  if (!(error instanceof AppFailure) || error.error.kind !== 'rate_limited') return null;
  if (failures > RATE_LIMIT_WAITS_PER_PAGE) return null;
  const asked = error.error.retryAfterSeconds;
  const delayMs =
    asked !== undefined ? asked * 1000 : Math.min(MAX_RATE_LIMIT_WAIT_MS, 1000 * 2 ** (failures - 1));
  if (delayMs > MAX_RATE_LIMIT_WAIT_MS) return null;
  return { delayMs, rateLimited: true };
}

function throwIfStopped(signal: AbortSignal): void {
  // Stryker disable next-line StringLiteral: this failure never leaves runFullSync; its catch replaces it with the cancelled or taken-over one.
  if (signal.aborted) throw new AppFailure(appError('cancelled'));
}
