import { describe, expect, it } from 'vitest';
import { followPages, pageBound } from '../../shared/paging';
import type { Report, ReportPage } from '../../shared/report';

const reports = (from: number, count: number): Report[] =>
  Array.from({ length: count }, (_, i) => ({ id: String(from + i), url: `https://r${from + i}.example` }));

function page(n: number, items: Report[], total: number | null, perPage = 10): ReportPage {
  return {
    reports: items,
    page: n,
    perPage,
    total,
    lastPage: total === null ? null : Math.ceil(total / perPage),
  };
}

describe('followPages', () => {
  it('walks from a given page to the announced last page, handing over each page once', async () => {
    const asked: number[] = [];
    const seen: string[] = [];
    const walk = await followPages({
      firstPage: 3,
      fetchPage: async (n) => (asked.push(n), page(n, reports((n - 1) * 10 + 1, 10), 50)),
      onPage: (_p, fresh) => void seen.push(...fresh.map((r) => r.id)),
    });
    expect(walk).toEqual({ stop: 'end', requests: 3, lastPageAsked: 5, rateLimited: false });
    expect(asked).toEqual([3, 4, 5]);
    expect(seen[0]).toBe('21');
    expect(seen).toHaveLength(30);
  });

  it('passes on only the reports not seen before when pages overlap', async () => {
    const fresh: string[][] = [];
    await followPages({
      firstPage: 1,
      fetchPage: async (n) => page(n, n === 1 ? reports(1, 10) : reports(8, 5), null),
      onPage: (_p, f) => void fresh.push(f.map((r) => r.id)),
    });
    expect(fresh).toEqual([reports(1, 10).map((r) => r.id), ['11', '12']]);
  });

  it('stops at a page that brings nothing new: the service ignores `page`', async () => {
    const onPage: number[] = [];
    const walk = await followPages({
      firstPage: 1,
      fetchPage: async (n) => ({ ...page(1, reports(1, 10), 1000), page: n }),
      onPage: (p) => void onPage.push(p.page),
    });
    expect(walk).toEqual({ stop: 'paging_ignored', requests: 2, lastPageAsked: 2, rateLimited: false });
    expect(onPage).toEqual([1]);
  });

  it('asks no page past the total plus one, and never more than the maximum', async () => {
    const fresh = (n: number) => page(n, reports(n * 10, 10), 25, 10);
    const bounded = await followPages({
      firstPage: 1,
      fetchPage: async (n) => ({ ...fresh(n), lastPage: null }),
      onPage: () => {},
    });
    expect(pageBound(25, 10)).toBe(4);
    expect(bounded).toEqual({ stop: 'page_limit', requests: 4, lastPageAsked: 5, rateLimited: false });
    const capped = await followPages({
      firstPage: 1,
      maxPages: 3,
      fetchPage: async (n) => ({ ...fresh(n), total: null, lastPage: null }),
      onPage: () => {},
    });
    expect(capped).toEqual({ stop: 'page_limit', requests: 3, lastPageAsked: 4, rateLimited: false });
  });

  describe('with requests in flight', () => {
    /** A fetch whose pages arrive only when the test says so, in any order. */
    function heldPages(total: number, perPage = 10) {
      const waiting = new Map<number, () => void>();
      const asked: number[] = [];
      let inFlight = 0;
      let maxInFlight = 0;
      const fetchPage = (n: number) =>
        new Promise<ReportPage>((resolve) => {
          asked.push(n);
          inFlight += 1;
          maxInFlight = Math.max(maxInFlight, inFlight);
          waiting.set(n, () => {
            inFlight -= 1;
            resolve(page(n, reports((n - 1) * perPage + 1, perPage), total, perPage));
          });
        });
      const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
      return {
        asked,
        fetchPage,
        maxInFlight: () => maxInFlight,
        async release(n: number) {
          const answer = waiting.get(n);
          if (!answer) throw new Error(`Page ${n} was not asked.`);
          waiting.delete(n);
          answer();
          await settle();
        },
        settle,
      };
    }

    it('asks page 1 alone, then keeps the requests in flight to the limit and hands pages over in order', async () => {
      const pages = heldPages(100);
      const handed: number[] = [];
      const walk = followPages({
        firstPage: 1,
        concurrency: 3,
        fetchPage: pages.fetchPage,
        onPage: (_p, _f, n) => void handed.push(n),
      });
      await pages.settle();
      expect(pages.asked).toEqual([1]);
      await pages.release(1);
      expect(pages.asked).toEqual([1, 2, 3, 4]);
      // Pages 3 and 4 arrive before page 2: nothing is handed over past the gap…
      await pages.release(4);
      await pages.release(3);
      expect(handed).toEqual([1]);
      // …and the freed requests went on to the next pages, never more than 3 at once.
      expect(pages.asked).toEqual([1, 2, 3, 4, 5, 6]);
      await pages.release(2);
      expect(handed).toEqual([1, 2, 3, 4]);
      for (let n = 5; n <= 10; n++) await pages.release(n);
      const result = await walk;
      expect(result).toMatchObject({ stop: 'end', lastPageAsked: 10 });
      expect(handed).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      // Never past the announced last page, never more than 3 in flight.
      expect([...pages.asked].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(pages.maxInFlight()).toBe(3);
    });

    it('drops to one at a time at the first rate limit and starts nothing before its wait', async () => {
      const starts: { page: number; inFlight: number; at: number }[] = [];
      let inFlight = 0;
      let refusedAt = 0;
      const walk = await followPages({
        firstPage: 1,
        concurrency: 4,
        retry: (error) => (error === 'slow down' ? { delayMs: 30, rateLimited: true } : null),
        fetchPage: async (n) => {
          inFlight += 1;
          starts.push({ page: n, inFlight, at: Date.now() });
          await new Promise((resolve) => setTimeout(resolve, 1));
          inFlight -= 1;
          if (n === 3 && refusedAt === 0) {
            refusedAt = Date.now();
            throw 'slow down';
          }
          return page(n, reports((n - 1) * 10 + 1, 10), 120);
        },
        onPage: () => {},
      });
      expect(walk).toMatchObject({ stop: 'end', rateLimited: true, lastPageAsked: 12 });
      const after = starts.filter((s) => s.at >= refusedAt + 1);
      expect(after.map((s) => s.page)).toContain(3);
      expect(after.every((s) => s.inFlight === 1)).toBe(true);
      // A lower bound only: nothing started sooner than the wait asked for.
      expect(Math.min(...after.map((s) => s.at - refusedAt))).toBeGreaterThanOrEqual(30 - 2);
      expect(Math.max(...starts.map((s) => s.inFlight))).toBeGreaterThan(1);
    });

    it('ends the walk with a failure it may not retry, and cancels the pages asked ahead', async () => {
      const aborted: number[] = [];
      const asked: number[] = [];
      const failure = new Error('gone');
      await expect(
        followPages({
          firstPage: 1,
          concurrency: 3,
          fetchPage: (n, signal) =>
            new Promise<ReportPage>((resolve, reject) => {
              asked.push(n);
              if (n === 1) return resolve(page(1, reports(1, 10), 100));
              if (n === 2) return setTimeout(() => reject(failure), 1);
              signal.addEventListener('abort', () => {
                aborted.push(n);
                reject(new Error('aborted'));
              });
            }),
          onPage: () => {},
        }),
      ).rejects.toBe(failure);
      // Every page still in flight when page 2 failed was cancelled, and the walk waited for them.
      const ahead = asked.filter((n) => n > 2);
      expect(ahead.length).toBeGreaterThanOrEqual(2);
      expect(aborted.sort((a, b) => a - b)).toEqual(ahead.sort((a, b) => a - b));
    });
  });
});
