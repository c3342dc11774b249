/**
 * The quick refresh of "Keep available offline": the newest reports first (`sort_by=id&sort=desc`,
 * 100 a page), one page after another, stopping at the first page that reaches what the copy
 * already knew. An idle refresh costs one list request.
 *
 * "What the copy knew" is the newest id the last complete read or quick refresh saw
 * (REFRESH_HIGH_ID_META): ids rise with creation (the spec's `sort_by=id` is "date created"),
 * so a page holding that id or an older one has nothing newer after it. Before there is one, a
 * page that brings no report new to the copy ends the refresh instead. (The newest id rather
 * than "no report new to the copy" alone, because reports the list view wrote through may
 * already be in the copy while newer-than-known ones sit on the next page.)
 *
 * It runs under the same lease as the full sync (one at a time per scope, app and CLI alike),
 * writes each page in one transaction (a kill loses nothing), logs what is new through the
 * cache's writes, and never prunes: only a full sync can tell a report is gone.
 */
import type { SyncSummary } from '../../../shared/contract';
import { followPages, rateLimitRetry } from '../../../shared/paging';
import { crashPoint } from '../crashPoints';
import { startListRun, throwIfStopped, type ListRunOptions } from './fullSync';
import { compareIds } from './pageGaps';
import { LAST_QUICK_REFRESH_META } from './reportCache';
import { REFRESH_HIGH_ID_META } from './syncState';
import { runFailure } from './syncLease';

/** 50 pages of 100: past that many new reports, the daily full sync is the better read. */
export const QUICK_REFRESH_MAX_PAGES = 50;

export async function runQuickRefresh(options: ListRunOptions): Promise<SyncSummary> {
  const { cache, scope } = options;
  const { now, signal, lease } = startListRun(options);
  const known = cache.getMeta(scope, REFRESH_HIGH_ID_META);
  const totals = { fetched: 0, pages: 0, added: 0, changed: 0, badNews: 0 };
  let newest: string | null = null;
  try {
    const walk = await followPages({
      firstPage: 1,
      // One page after another: most refreshes end on their first page.
      concurrency: 1,
      maxPages: options.maxPages ?? QUICK_REFRESH_MAX_PAGES,
      retry: rateLimitRetry,
      signal: lease.signal,
      fetchPage: async (n, walkSignal) => {
        throwIfStopped(lease.signal);
        const page = await options.fetchPage(n, walkSignal);
        throwIfStopped(lease.signal);
        return page;
      },
      onPage: (page) => {
        const fetchedAt = now().toISOString();
        const counts = cache.transaction(() => {
          lease.claimOrStop();
          return cache.putReports(scope, page.reports, fetchedAt);
        });
        crashPoint('refresh.page-committed');
        totals.fetched += page.reports.length;
        totals.pages += 1;
        totals.added += counts.added;
        totals.changed += counts.changed;
        totals.badNews += counts.badNews;
        for (const { id } of page.reports) {
          const text = String(id);
          if (newest === null || compareIds(text, newest) > 0) newest = text;
        }
        const caughtUp =
          known === null
            ? counts.added === 0
            : page.reports.some(({ id }) => compareIds(String(id), known) <= 0);
        return caughtUp ? 'stop' : undefined;
      },
    });
    throwIfStopped(lease.signal);
    const completedAt = now().toISOString();
    const read = walk.stop === 'caught_up' || walk.stop === 'end';
    cache.transaction(() => {
      lease.claimOrStop();
      if (!read) return;
      cache.setMeta(scope, LAST_QUICK_REFRESH_META, completedAt);
      // Down to what was known: what is newer is known now. A refresh cut short moves nothing.
      if (newest !== null && (known === null || compareIds(newest, known) > 0))
        cache.setMeta(scope, REFRESH_HIGH_ID_META, newest);
    });
    return {
      mode: 'quick',
      fetched: totals.fetched,
      removed: 0,
      pages: totals.pages,
      completedAt,
      pruned: false,
      reason: walk.stop === 'paging_ignored' || walk.stop === 'page_limit' ? walk.stop : null,
      added: totals.added,
      changed: totals.changed,
      complete: false,
      passes: 1,
      requests: walk.requests,
      badNews: totals.badNews,
    };
  } catch (error) {
    throw runFailure(error, lease, signal.aborted, 'refresh.cancelled');
  } finally {
    lease.release();
  }
}
