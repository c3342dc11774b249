/**
 * Full sync ("make available offline"): pages through every report of a scope into the cache,
 * then removes the cached reports the service no longer has.
 *
 * Crash safety: each page is written in ONE transaction together with the sync's progress
 * (its id, the next page, when it started, how many were fetched), so a killed process leaves
 * a consistent file and the next run resumes at the next page of the same sync. Reports are
 * marked with the sync id that saw them; only after the last page are the unmarked ones pruned.
 */
import { randomUUID } from 'node:crypto';
import type { SyncProgress, SyncSummary } from '../../../shared/contract';
import { AppFailure, appError } from '../../../shared/errors';
import type { ReportPage } from '../../../shared/report';
import { LAST_FULL_SYNC_META, SYNC_ID_META, type ReportCache } from './reportCache';

export interface FullSyncOptions {
  cache: ReportCache;
  scope: string;
  /** The caller fetches per_page 100, sort_by id asc. */
  fetchPage: (page: number, signal: AbortSignal) => Promise<ReportPage>;
  signal?: AbortSignal;
  onProgress?: (p: Omit<SyncProgress, 'profileId'>) => void;
  now?: () => Date;
}

const META = {
  syncId: SYNC_ID_META,
  nextPage: 'sync_next_page',
  startedAt: 'sync_started_at',
  fetched: 'sync_fetched',
  pages: 'sync_pages',
} as const;

export async function runFullSync(options: FullSyncOptions): Promise<SyncSummary> {
  const { cache, scope, fetchPage, onProgress } = options;
  const now = options.now ?? (() => new Date());
  const signal = options.signal ?? new AbortController().signal;

  // Resume an unfinished sync, or start a fresh one.
  const resumedId = cache.getMeta(scope, META.syncId);
  const syncId = resumedId ?? randomUUID();
  const startedAt = (resumedId && cache.getMeta(scope, META.startedAt)) || now().toISOString();
  let page = resumedId ? Number(cache.getMeta(scope, META.nextPage) ?? '1') || 1 : 1;
  let fetched = resumedId ? Number(cache.getMeta(scope, META.fetched) ?? '0') || 0 : 0;
  let pages = resumedId ? Number(cache.getMeta(scope, META.pages) ?? '0') || 0 : 0;
  let lastPage: number | null = null;
  let total: number | null = null;

  const report = (phase: SyncProgress['phase']) => {
    try {
      onProgress?.({ page, lastPage, fetched, total, phase });
    } catch {
      // A progress listener must not break the sync.
    }
  };

  try {
    for (;;) {
      throwIfCancelled(signal);
      const result = await fetchPage(page, signal);
      throwIfCancelled(signal);
      lastPage = result.lastPage;
      total = result.total;
      const fetchedAt = now().toISOString();
      fetched += result.reports.length;
      pages += 1;
      const finished =
        result.reports.length === 0 ||
        result.reports.length < result.perPage ||
        (result.lastPage !== null && page >= result.lastPage);
      cache.transaction(() => {
        cache.putReports(scope, result.reports, fetchedAt, syncId);
        cache.setMeta(scope, META.syncId, syncId);
        cache.setMeta(scope, META.startedAt, startedAt);
        cache.setMeta(scope, META.nextPage, String(page + 1));
        cache.setMeta(scope, META.fetched, String(fetched));
        cache.setMeta(scope, META.pages, String(pages));
      });
      report('fetching');
      if (finished) break;
      page += 1;
    }

    throwIfCancelled(signal);
    report('pruning');
    const completedAt = now().toISOString();
    const removed = cache.transaction(() => {
      const count = cache.pruneUnseen(scope, syncId);
      cache.setMeta(scope, LAST_FULL_SYNC_META, completedAt);
      for (const key of Object.values(META)) cache.setMeta(scope, key, null);
      return count;
    });
    report('done');
    return { fetched, removed, pages, completedAt };
  } catch (error) {
    if (signal.aborted) {
      report('cancelled');
      throw new AppFailure(
        appError('cancelled', 'The offline sync was cancelled. Start it again to continue where it stopped.'),
      );
    }
    report('failed');
    throw error;
  }
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new AppFailure(appError('cancelled'));
}
