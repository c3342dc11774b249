/**
 * Following a list's pages, bounded: the one loop behind the full sync and the CLI's
 * `reports list --all`. A service that ignores `page` (the spec defines none), or one that
 * keeps sending full pages, must never be asked forever:
 *  - a page that brings no report not already seen in this walk ends it ('paging_ignored');
 *  - no more pages are asked for than the service's total implies, plus one, nor more than a
 *    hard maximum ('page_limit');
 *  - an empty page, a short page, or the announced last page ends it normally ('end').
 *
 * Over a real network the walk may keep a few requests in flight (`concurrency`, 1 by
 * default), but pages are still handed to `onPage` strictly in page order: a page that arrives
 * early waits for the ones before it, so whatever `onPage` records as progress never skips a
 * gap. A few more pages than requests are asked ahead (PAGES_AHEAD_PER_REQUEST), so one slow
 * page does not idle the other requests. The first page is always asked alone (it tells the total and the page size that bound
 * the rest), and pages beyond the announced last page are never asked ahead. A failure that
 * `retry` says is a rate limit drops the walk to one request at a time for the rest of it, and
 * no request starts before the wait it asked for is over.
 */
import { AppFailure } from './errors';
import type { Report, ReportPage } from './report';

/** 5,000 pages of 100: half a million reports, far above any account the app is made for. */
export const MAX_PAGES_PER_WALK = 5_000;

/**
 * Pages asked ahead of the one to hand over next, per request in flight: a page that is slow
 * to come does not idle the other requests, and at most this many × `concurrency` pages wait
 * in memory.
 */
export const PAGES_AHEAD_PER_REQUEST = 2;

/** 'caught_up': `onPage` said it had what it needed (a quick refresh reached what it knew). */
/**
 * Page requests in flight at once for the full sync, the export and `reports list --all`:
 * enough to hide a network's round trip, few enough to be polite.
 */
export const PAGES_IN_FLIGHT = 4;

/** A 429 is waited out this many times per page at most… */
export const RATE_LIMIT_WAITS_PER_PAGE = 5;
/** …each wait at most this long; a longer Retry-After ends the walk with the service's sentence. */
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;

export type PageWalkStop = 'end' | 'caught_up' | 'paging_ignored' | 'page_limit';

/** How to ask a failed page again: after `delayMs`; `rateLimited` drops the walk to one at a time. */
export interface PageRetry {
  delayMs: number;
  rateLimited: boolean;
}

export interface PageWalkOptions<P extends ReportPage> {
  /** The page to start at (1, or where a resumed walk stopped). */
  firstPage: number;
  /** `signal` aborts when the walk no longer needs the page (it ended, or failed). */
  fetchPage: (page: number, signal: AbortSignal) => Promise<P>;
  /**
   * Called for every page that brought something new, in page order, before any later page
   * is handed over; `fresh` are its reports not seen earlier in this walk. A throw ends the walk;
   * so does 'stop' (stop 'caught_up'), without asking for another page.
   */
  onPage: (page: P, fresh: Report[], pageNumber: number) => void | 'stop' | Promise<void | 'stop'>;
  /** Total announced before this walk started (a resumed sync), for the page bound. */
  knownTotal?: number | null;
  /** The hard maximum of pages asked (default MAX_PAGES_PER_WALK). */
  maxPages?: number;
  /** Requests in flight at once (default 1). */
  concurrency?: number;
  /**
   * Whether a failed request is asked again; `failures` counts this page's failures so far.
   * Null (the default for every failure) ends the walk with that failure.
   */
  retry?: (error: unknown, failures: number) => PageRetry | null;
  /** Ends the walk (waits included); the failure thrown is the aborted request's or the reason. */
  signal?: AbortSignal;
}

export interface PageWalkResult {
  stop: PageWalkStop;
  /** Requests made (retries included), the last (ignored or refused) one included. */
  requests: number;
  /** The page number of the last page handed over, or of the one refused by the bound. */
  lastPageAsked: number;
  /** True once a rate limit dropped the walk to one request at a time. */
  rateLimited: boolean;
}

/** The highest page number worth asking for when `total` reports come `perPage` at a time. */
export function pageBound(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, perPage))) + 1;
}

/**
 * Hands out request slots: at most `limit` at once, lowest page first, none before `notBefore`.
 * The limit only ever goes down (a rate limit); requests already sent finish as they are.
 */
class RequestSlots {
  limit: number;
  private active = 0;
  private notBefore = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly waiting: { page: number; grant: () => void; refuse: (reason: unknown) => void }[] = [];

  constructor(
    limit: number,
    private readonly signal: AbortSignal,
  ) {
    this.limit = limit;
    signal.addEventListener('abort', () => this.refuseAll(), { once: true });
  }

  acquire(page: number): Promise<void> {
    if (this.signal.aborted) return Promise.reject(abortReason(this.signal));
    return new Promise((grant, refuse) => {
      this.waiting.push({ page, grant, refuse });
      this.waiting.sort((a, b) => a.page - b.page);
      this.pump();
    });
  }

  release(): void {
    this.active -= 1;
    this.pump();
  }

  /** No request starts before `ms` from now (a Retry-After, a back-off). */
  holdFor(ms: number): void {
    this.notBefore = Math.max(this.notBefore, Date.now() + Math.max(0, ms));
  }

  private pump(): void {
    if (this.timer !== null || this.signal.aborted) return;
    while (this.active < this.limit && this.waiting.length > 0) {
      const wait = this.notBefore - Date.now();
      if (wait > 0) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.pump();
        }, wait);
        return;
      }
      this.active += 1;
      this.waiting.shift()!.grant();
    }
  }

  private refuseAll(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    for (const waiter of this.waiting.splice(0)) waiter.refuse(abortReason(this.signal));
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('The page walk was stopped.');
}

export async function followPages<P extends ReportPage>(
  options: PageWalkOptions<P>,
): Promise<PageWalkResult> {
  const maxPages = options.maxPages ?? MAX_PAGES_PER_WALK;
  const walk = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, walk.signal]) : walk.signal;
  const initialLimit = Math.max(1, Math.floor(options.concurrency ?? 1));
  const slots = new RequestSlots(initialLimit, signal);
  const seen = new Set<string>();
  let total = options.knownTotal ?? null;
  let perPage: number | null = null;
  let lastPage: number | null = null;
  let firstHandled = false;
  let requests = 0;
  let rateLimited = false;
  /** Pages asked (or being asked) and not yet handed over, by page number. */
  const pending = new Map<number, Promise<P>>();
  let nextToHand = options.firstPage;
  let nextToAsk = options.firstPage;
  let pagesAsked = 0;

  const ask = async (pageNumber: number): Promise<P> => {
    for (let failures = 0; ;) {
      await slots.acquire(pageNumber);
      try {
        requests += 1;
        return await options.fetchPage(pageNumber, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        failures += 1;
        const retry = options.retry?.(error, failures) ?? null;
        if (!retry) throw error;
        if (retry.rateLimited) {
          rateLimited = true;
          slots.limit = 1;
        }
        slots.holdFor(retry.delayMs);
      } finally {
        slots.release();
      }
    }
  };

  /** The bounds every page asked obeys; pages asked ahead also stop at the expected last page. */
  const mayAsk = (pageNumber: number): boolean => {
    if (pagesAsked >= maxPages) return false;
    if (total !== null && perPage !== null && pageNumber > pageBound(total, perPage)) return false;
    if (pageNumber === nextToHand) return true;
    const expectedLast =
      lastPage ??
      (total !== null && perPage !== null ? Math.max(1, Math.ceil(total / Math.max(1, perPage))) : null);
    return expectedLast === null || pageNumber <= expectedLast;
  };

  const finish = (stop: PageWalkStop, lastPageAsked: number): PageWalkResult => ({
    stop,
    requests,
    lastPageAsked,
    rateLimited,
  });

  try {
    for (;;) {
      // Pages asked (in flight, waiting for a request slot, or arrived early): `slots` keeps
      // the requests in flight to its limit; this keeps the pages held in memory bounded.
      // One at a time stays strictly one page after another (the export, `list --all`).
      const window = !firstHandled ? 1 : initialLimit === 1 ? 1 : PAGES_AHEAD_PER_REQUEST * initialLimit;
      while (pending.size < window && mayAsk(nextToAsk)) {
        const asked = ask(nextToAsk);
        // A page asked ahead may fail after the walk has ended; that failure is nobody's.
        asked.catch(() => {});
        pending.set(nextToAsk, asked);
        pagesAsked += 1;
        nextToAsk += 1;
      }
      const asked = pending.get(nextToHand);
      if (!asked) return finish('page_limit', nextToHand);
      const page = await asked;
      pending.delete(nextToHand);
      const pageNumber = nextToHand;
      total ??= page.total;
      perPage ??= page.perPage;
      lastPage = page.lastPage;
      firstHandled = true;
      const fresh = page.reports.filter((report) => !seen.has(String(report.id)));
      if (page.reports.length > 0 && fresh.length === 0) return finish('paging_ignored', pageNumber);
      for (const report of fresh) seen.add(String(report.id));
      if ((await options.onPage(page, fresh, pageNumber)) === 'stop') return finish('caught_up', pageNumber);
      const ended =
        page.reports.length === 0 ||
        page.reports.length < page.perPage ||
        (page.lastPage !== null && pageNumber >= page.lastPage);
      if (ended) return finish('end', pageNumber);
      nextToHand += 1;
    }
  } finally {
    // Pages asked ahead of where the walk ended are not needed: cancel them and let them settle,
    // so no request of this walk outlives it.
    walk.abort();
    await Promise.allSettled(pending.values());
  }
}

/**
 * The walks' answer to a failed page: a 429 is waited out (its Retry-After, else 1 s doubling)
 * and drops the rest of the walk to one request at a time; every other failure ends the walk
 * (the client has already retried what it retries).
 */
export function rateLimitRetry(error: unknown, failures: number): PageRetry | null {
  if (!(error instanceof AppFailure) || error.error.kind !== 'rate_limited') return null;
  if (failures > RATE_LIMIT_WAITS_PER_PAGE) return null;
  const asked = error.error.retryAfterSeconds;
  const delayMs =
    asked !== undefined ? asked * 1000 : Math.min(MAX_RATE_LIMIT_WAIT_MS, 1000 * 2 ** (failures - 1));
  if (delayMs > MAX_RATE_LIMIT_WAIT_MS) return null;
  return { delayMs, rateLimited: true };
}
