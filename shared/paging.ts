/**
 * Following a list's pages, bounded: the one loop behind the full sync and the CLI's
 * `reports list --all`. A service that ignores `page` (the spec defines none), or one that
 * keeps sending full pages, must never be asked forever:
 *  - a page that brings no report not already seen in this walk ends it ('paging_ignored');
 *  - no more pages are asked for than the service's total implies, plus one, nor more than a
 *    hard maximum ('page_limit');
 *  - an empty page, a short page, or the announced last page ends it normally ('end').
 */
import type { Report, ReportPage } from './report';

/** 5,000 pages of 100: half a million reports, far above any account the app is made for. */
export const MAX_PAGES_PER_WALK = 5_000;

export type PageWalkStop = 'end' | 'paging_ignored' | 'page_limit';

export interface PageWalkOptions<P extends ReportPage> {
  /** The page to start at (1, or where a resumed walk stopped). */
  firstPage: number;
  fetchPage: (page: number) => Promise<P>;
  /**
   * Called for every page that brought something new, before the next is asked for; `fresh`
   * are its reports not seen earlier in this walk. A throw ends the walk.
   */
  onPage: (page: P, fresh: Report[]) => void | Promise<void>;
  /** Total announced before this walk started (a resumed sync), for the page bound. */
  knownTotal?: number | null;
  /** The hard maximum of requests (default MAX_PAGES_PER_WALK). */
  maxPages?: number;
}

export interface PageWalkResult {
  stop: PageWalkStop;
  /** Requests made, the last (ignored or refused) one included. */
  requests: number;
  /** The page number of the last request, or of the one refused by the bound. */
  lastPageAsked: number;
}

/** The highest page number worth asking for when `total` reports come `perPage` at a time. */
export function pageBound(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, perPage))) + 1;
}

export async function followPages<P extends ReportPage>(
  options: PageWalkOptions<P>,
): Promise<PageWalkResult> {
  const maxPages = options.maxPages ?? MAX_PAGES_PER_WALK;
  const seen = new Set<string>();
  let total = options.knownTotal ?? null;
  let perPage: number | null = null;
  let pageNumber = options.firstPage;
  let requests = 0;
  for (;;) {
    const beyondTotal = total !== null && perPage !== null && pageNumber > pageBound(total, perPage);
    if (requests >= maxPages || beyondTotal)
      return { stop: 'page_limit', requests, lastPageAsked: pageNumber };
    const page = await options.fetchPage(pageNumber);
    requests += 1;
    total ??= page.total;
    perPage ??= page.perPage;
    const fresh = page.reports.filter((report) => !seen.has(String(report.id)));
    if (page.reports.length > 0 && fresh.length === 0) {
      return { stop: 'paging_ignored', requests, lastPageAsked: pageNumber };
    }
    for (const report of fresh) seen.add(String(report.id));
    await options.onPage(page, fresh);
    const ended =
      page.reports.length === 0 ||
      page.reports.length < page.perPage ||
      (page.lastPage !== null && pageNumber >= page.lastPage);
    if (ended) return { stop: 'end', requests, lastPageAsked: pageNumber };
    pageNumber += 1;
  }
}
