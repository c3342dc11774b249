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
    expect(walk).toEqual({ stop: 'end', requests: 3, lastPageAsked: 5 });
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
    expect(walk).toEqual({ stop: 'paging_ignored', requests: 2, lastPageAsked: 2 });
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
    expect(bounded).toEqual({ stop: 'page_limit', requests: 4, lastPageAsked: 5 });
    const capped = await followPages({
      firstPage: 1,
      maxPages: 3,
      fetchPage: async (n) => ({ ...fresh(n), total: null, lastPage: null }),
      onPage: () => {},
    });
    expect(capped).toEqual({ stop: 'page_limit', requests: 3, lastPageAsked: 4 });
  });
});
