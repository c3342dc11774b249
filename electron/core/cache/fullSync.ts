/**
 * Full sync ("make available offline"): reads every report of a scope into the cache, then
 * removes the cached reports the service provably no longer has. It settles itself: when the
 * list changed while it was read, it reads it again, the lease held, MAX_SYNC_PASSES reads in
 * all, and calls the copy complete only after a read of one consistent list.
 *
 * One sync per scope across processes: the run holds the scope's lease (syncLease.ts) — a
 * second sync or quick refresh of the scope, in this or any other process, is refused with a
 * `busy` error (reason `sync_running`). A process killed mid-sync stops renewing, so its claim
 * runs out `leaseMs` (default 20 s) after its last renewal at the latest and the next sync
 * takes over.
 *
 * Crash safety: each page is written in ONE transaction together with the sync's progress
 * (syncState.ts), so a killed process leaves a consistent file and the next run resumes at
 * the next page of the SAME pass, once the page before it, read again, still ends with the last
 * report read (a report deleted meanwhile among the pages read would make the next page skip
 * one: the pass then does not count as consistent). Reports are marked with the pass that saw
 * them, and only after a consistent read are the ones it did not see pruned.
 *
 * Over a real network pages are asked SYNC_CONCURRENCY at a time (shared/paging's walk), yet
 * written strictly in page order: a page that arrives before the one ahead of it waits in
 * memory, so the progress on disk never passes a gap and a resume never skips a page. The
 * first 429 drops the rest of the run to one request at a time, and no request starts before
 * the Retry-After it sent is over (bounded: a few waits per page, none over a minute).
 *
 * A read is consistent when the total (when sent) is the same on every page as on the first,
 * ids rise strictly across the id-ascending pages, as many reports were read as the total
 * says, and no cached report it did not see sits in a gap between two pages unless the service
 * says it is gone (pageGaps.ts). Otherwise (a report deleted or added during the read shifts
 * the offset pages) it reads again; after the last pass nothing is removed and the summary
 * says why.
 */
import { randomUUID } from 'node:crypto';
import type { SyncKeptReason, SyncProgress, SyncSummary } from '../../../shared/contract';
import {
  followPages,
  PAGES_IN_FLIGHT,
  rateLimitRetry,
  type PageWalkResult,
  type PageWalkStop,
} from '../../../shared/paging';
import type { Report, ReportPage } from '../../../shared/report';
import { crashPoint } from '../crashPoints';
import { PageBatch } from './pageBatch';
import { compareIds, idsInGaps, type PageGap } from './pageGaps';
import { LAST_FULL_SYNC_META, type ReportCache } from './reportCache';
import { DEFAULT_SYNC_LEASE_MS, holdSyncLease, runFailure, type HeldLease } from './syncLease';
import {
  clearSyncState,
  freshSyncState,
  loadSyncState,
  nextPassState,
  passMark,
  REFRESH_HIGH_ID_META,
  saveSyncState,
  type SyncState,
} from './syncState';

export { DEFAULT_SYNC_LEASE_MS, syncRunningFailure } from './syncLease';

/** Page requests in flight at once (shared/paging's PAGES_IN_FLIGHT, as the export's). */
export const SYNC_CONCURRENCY = PAGES_IN_FLIGHT;
/** Reads of the whole list one sync makes at most before it gives the list up as moving. */
export const MAX_SYNC_PASSES = 3;
/** Pages written in one transaction at most (those that arrived together). */
export const PAGES_PER_WRITE = 8;
/** Reports in gaps between pages asked for one by one at most; more make the read untrusted. */
export const MAX_GAP_CHECKS = 10;

/** What a run over a scope's list is given: the full sync's and the quick refresh's common part. */
export interface ListRunOptions {
  cache: ReportCache;
  scope: string;
  /** The caller fetches per_page 100, sort_by id (ascending for the full sync, descending for the quick refresh). */
  fetchPage: (page: number, signal: AbortSignal) => Promise<ReportPage>;
  signal?: AbortSignal;
  now?: () => Date;
  /** Lease duration in ms (default DEFAULT_SYNC_LEASE_MS); renewed every third of it. */
  leaseMs?: number;
  /** List requests of one pass at most (default: shared/paging's for a full sync, QUICK_REFRESH_MAX_PAGES for a refresh). */
  maxPages?: number;
}

/** Claims the scope's lease for a run (or throws `busy`), with the run's clock and signal. */
export function startListRun(options: ListRunOptions): {
  now: () => Date;
  signal: AbortSignal;
  lease: HeldLease;
} {
  const now = options.now ?? (() => new Date());
  const signal = options.signal ?? new AbortController().signal;
  const lease = holdSyncLease({
    leases: options.cache.leases,
    scope: options.scope,
    now,
    leaseMs: options.leaseMs ?? DEFAULT_SYNC_LEASE_MS,
    signal,
  });
  return { now, signal, lease };
}

export interface FullSyncOptions extends ListRunOptions {
  /**
   * One report, or null when the service says it does not exist (404): asked for the cached
   * reports a read did not see that lie between two pages. Without it, none is asked for.
   */
  fetchReport?: (id: string, signal: AbortSignal) => Promise<Report | null>;
  onProgress?: (p: Omit<SyncProgress, 'profileId'>) => void;
  /** Page requests in flight at once (default SYNC_CONCURRENCY). */
  concurrency?: number;
  /** Pages written in one transaction at most (default PAGES_PER_WRITE; the bench compares 1). */
  pagesPerWrite?: number;
}

export async function runFullSync(options: FullSyncOptions): Promise<SyncSummary> {
  // Without a listener, progress goes nowhere.
  const { cache, scope, onProgress = () => {} } = options;
  const { now, signal, lease } = startListRun(options);
  // Resume an unfinished sync (an earlier run of it may have died), or start a fresh one.
  const resumed = loadSyncState(cache, scope);
  const syncId = resumed ? resumed.mark.split(':')[0] : randomUUID();
  let state = resumed ? resumed.state : freshSyncState(now().toISOString());
  let mark = resumed?.mark ?? passMark(syncId, 1);
  let lastPage: number | null = null;
  let total: number | null = null;
  // A fresh sync (the daily read) first looks at the whole file: damage in pages that neither
  // its writes nor its reads would touch (unchanged rows are not rewritten) is found now, and
  // the run starts again on a new copy (cache_reset), instead of meeting it in a later read.
  // A resumed one follows a run that died, and the file was checked when opened after it.
  if (!resumed) cache.transaction(() => cache.assertIntact());

  const report = (phase: SyncProgress['phase'], page = state.nextPage - 1, fetched = state.fetched) => {
    try {
      onProgress({ page, lastPage, fetched, total, phase, pass: state.pass });
    } catch {
      // A progress listener must not break the sync.
    }
  };
  // The pass's mark with its progress, every time: a resumed run finds both or neither.
  const save = () => saveSyncState(cache, scope, state, mark);

  const writePages = (pages: { reports: Report[]; page: number; fetched: number }[]) => {
    const fetchedAt = now().toISOString();
    cache.transaction(() => {
      lease.claimOrStop();
      for (const { reports } of pages) {
        const counts = cache.putReports(scope, reports, fetchedAt, { syncId: mark });
        state.added += counts.added;
        state.changedReports += counts.changed;
        state.badNews += counts.badNews;
      }
      save();
      crashPoint('sync.batch-written');
    });
    crashPoint('sync.batch-committed');
    for (const { page, fetched } of pages) report('fetching', page, fetched);
  };
  // A write between pages that fails ends the walk at once (its failure is the run's).
  const writeFailed = new AbortController();
  const batch = new PageBatch(writePages, options.pagesPerWrite ?? PAGES_PER_WRITE, () =>
    writeFailed.abort(),
  );
  const walkSignal = AbortSignal.any([lease.signal, writeFailed.signal]);

  try {
    await checkResumePoint(options, lease, state);
    for (;;) {
      const gaps: PageGap[] = [];
      let walk: PageWalkResult;
      let firstOfRun = true;
      try {
        walk = await readPass(options, walkSignal, state, (page, n) => {
          lastPage = page.lastPage;
          total = page.total;
          notePage(state, page, n, gaps);
          // The first page of a run was asked alone: written at once, before any other arrives.
          batch.add({ reports: page.reports, page: n, fetched: state.fetched }, firstOfRun);
          firstOfRun = false;
        });
      } catch (error) {
        throw batch.failed?.error ?? error;
      } finally {
        // What arrived in order before the walk ended (or failed) is kept, as page by page.
        // After a lost lease the write's own claim refuses it (LeaseLost, the same ending);
        // after a failed write nothing is queued.
        batch.flush();
      }
      state.requests += walk.requests;
      throwIfStopped(lease.signal);
      let reason = keptReason(walk.stop, state);
      if (reason === null) reason = await checkGaps(options, lease, state, mark, gaps);
      if (reason === 'listing_changed' && state.pass < MAX_SYNC_PASSES) {
        // Read the list again, under the same lease: what this pass saw stays, marked by it.
        state = nextPassState(state);
        mark = passMark(syncId, state.pass);
        cache.transaction(() => {
          lease.claimOrStop();
          save();
        });
        continue;
      }
      return finish(options, lease, { state, mark, walk, reason, now, report, lastPage, total });
    }
  } catch (error) {
    report(lease.lost ? 'failed' : signal.aborted ? 'cancelled' : 'failed');
    throw runFailure(error, lease, signal.aborted, 'sync.cancelled');
  } finally {
    lease.release();
  }
}

/** One read of the list from `state.nextPage` on, handing each page over in page order. */
function readPass(
  options: FullSyncOptions,
  runSignal: AbortSignal,
  state: SyncState,
  onPage: (page: ReportPage, pageNumber: number) => void,
): Promise<PageWalkResult> {
  return followPages({
    firstPage: state.nextPage,
    knownTotal: state.firstTotal ?? null,
    maxPages: options.maxPages,
    concurrency: options.concurrency ?? SYNC_CONCURRENCY,
    retry: rateLimitRetry,
    signal: runSignal,
    fetchPage: async (n, walkSignal) => {
      throwIfStopped(runSignal);
      // walkSignal aborts with runSignal too (passed as the walk's signal), and when the walk
      // no longer needs this page.
      const result = await options.fetchPage(n, walkSignal);
      throwIfStopped(runSignal);
      return result;
    },
    // Called in page order only, so the progress written with each page never passes a gap.
    onPage: (page, _fresh, n) => onPage(page, n),
  });
}

/**
 * A resumed run: the run that died left pages read before changes the service made since: a report deleted
 * among them moves every later one back a place, and the first of the next page would never be
 * read (on a first sync nothing cached marks that gap). The page before the resume point, read
 * again, still ends with the last report read, or the pass does not count as consistent.
 */
async function checkResumePoint(options: FullSyncOptions, lease: HeldLease, state: SyncState): Promise<void> {
  // Nothing read yet (a fresh sync, or a run that died before its first report): nothing to check.
  if (state.lastId === null) return;
  const before = await options.fetchPage(state.nextPage - 1, lease.signal);
  throwIfStopped(lease.signal);
  state.requests += 1;
  if (String(before.reports.at(-1)?.id) !== state.lastId) state.changed = true;
}

/** Updates the pass's progress and consistency marks with a page just read. */
function notePage(state: SyncState, page: ReportPage, pageNumber: number, gaps: PageGap[]): void {
  if (state.firstTotal === undefined) state.firstTotal = page.total;
  // The listing moved underneath: a changed total, or pages that do not join up.
  if (page.total !== state.firstTotal) state.changed = true;
  const first = page.reports[0];
  if (first && state.lastId !== null) gaps.push([state.lastId, String(first.id)]);
  for (const { id } of page.reports) {
    const text = String(id);
    if (state.lastId !== null && compareIds(text, state.lastId) <= 0) state.changed = true;
    else state.lastId = text;
  }
  state.fetched += page.reports.length;
  state.pages += 1;
  state.nextPage = pageNumber + 1;
}

/**
 * Asks for the cached reports the pass did not see that lie between two of its pages. One the
 * service still has was skipped by a shift the other checks cannot see: the read does not count
 * as consistent (the next one sees it). Null when every one is gone (or there is none).
 */
async function checkGaps(
  options: FullSyncOptions,
  lease: HeldLease,
  state: SyncState,
  mark: string,
  gaps: readonly PageGap[],
): Promise<SyncKeptReason | null> {
  const { cache, scope, fetchReport } = options;
  if (!fetchReport) return null;
  const suspects = idsInGaps(cache.unseenIds(scope, mark), gaps);
  if (suspects.length > MAX_GAP_CHECKS) return 'listing_changed';
  for (const id of suspects) {
    state.requests += 1;
    const live = await fetchReport(id, lease.signal);
    throwIfStopped(lease.signal);
    // Still on the service: the read skipped it, and the next read will see it.
    if (live) return 'listing_changed';
  }
  return null;
}

interface Ending {
  state: SyncState;
  mark: string;
  walk: PageWalkResult;
  reason: SyncKeptReason | null;
  now: () => Date;
  report: (phase: SyncProgress['phase']) => void;
  lastPage: number | null;
  total: number | null;
}

/** Prunes after a consistent read (or keeps everything), records the end, forgets the progress. */
function finish(options: FullSyncOptions, lease: HeldLease, ending: Ending): SyncSummary {
  const { cache, scope } = options;
  const { state, mark, walk, reason, now, report } = ending;
  if (reason === null) report('pruning');
  crashPoint('sync.before-prune');
  const completedAt = now().toISOString();
  const removed = cache.transaction(() => {
    lease.claimOrStop();
    const count = reason === null ? cache.pruneUnseen(scope, mark, completedAt) : 0;
    // Read to its end, the listing is as fresh as now; a walk cut short is not a full sync.
    if (walk.stop === 'end') {
      cache.setMeta(scope, LAST_FULL_SYNC_META, completedAt);
      cache.setMeta(scope, REFRESH_HIGH_ID_META, state.lastId);
    }
    clearSyncState(cache, scope);
    return count;
  });
  // The change log starts with the scope's first full sync: from then on the copy is the
  // baseline. Kept in local.sqlite, so a copy started afresh (cleared, or damaged) keeps it.
  if (walk.stop === 'end') startChangesOnce(cache, scope, completedAt);
  report('done');
  return {
    mode: 'full',
    fetched: state.fetched,
    removed,
    pages: state.pages,
    completedAt,
    pruned: reason === null,
    reason,
    added: state.added,
    changed: state.changedReports,
    complete: reason === null,
    passes: state.pass,
    requests: state.requests,
    badNews: state.badNews,
  };
}

/** Sets when "Changes since …" starts, unless it has started already. */
function startChangesOnce(cache: ReportCache, scope: string, at: string): void {
  cache.local.transaction(() => {
    if (cache.changes.since(scope) === null) cache.changes.setSince(scope, at);
  });
}

/** Null when the listing was read whole and consistently, so unseen cached reports are gone. */
function keptReason(stop: PageWalkStop, state: SyncState): SyncKeptReason | null {
  if (stop === 'paging_ignored' || stop === 'page_limit') return stop;
  const firstTotal = state.firstTotal ?? null;
  if (state.changed || (firstTotal !== null && state.fetched !== firstTotal)) return 'listing_changed';
  return null;
}

/** Stops a run whose signal aborted; the run's catch words the failure (cancelled or taken over). */
export function throwIfStopped(signal: AbortSignal): void {
  signal.throwIfAborted();
}
