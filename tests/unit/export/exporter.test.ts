import { describe, expect, it } from 'vitest';
import {
  collectAllPages,
  exportColumns,
  reportsToCsv,
  reportsToJson,
  type SourcedPage,
} from '../../../electron/core/export/exporter';
import { AppFailure } from '../../../shared/errors';
import { PAGES_AHEAD_PER_REQUEST, PAGES_IN_FLIGHT } from '../../../shared/paging';
import type { Report } from '../../../shared/model';
import { csvRecords, parseCsv } from '../../helpers/csv';

const AT = '2026-11-23T12:00:00.000Z';

function pageOf(ids: number[], page: number, extra: Partial<SourcedPage> = {}): SourcedPage {
  return {
    reports: ids.map((id) => ({ id: String(id), url: `https://r${id}.example` })),
    page,
    perPage: 10,
    total: null,
    lastPage: null,
    source: 'network',
    fetchedAt: AT,
    ...extra,
  };
}

const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('collectAllPages', () => {
  it('follows pages to the last page the service names, each report once', async () => {
    const asked: number[] = [];
    const collected = await collectAllPages({
      fetchPage: async (page) => {
        asked.push(page);
        // Page 2 overlaps page 1 by one report (a report was added while paging).
        return pageOf(page === 1 ? ids(1, 10) : page === 2 ? ids(10, 10) : ids(20, 3), page, {
          total: 23,
          lastPage: 3,
        });
      },
    });
    expect(asked).toEqual([1, 2, 3]);
    expect(collected.reports.map((r) => r.id)).toEqual(ids(1, 22).map(String));
    expect(collected.total).toBe(23);
  });

  it('stops on a short page when the service names no last page', async () => {
    const collected = await collectAllPages({
      fetchPage: async (page) => pageOf(page === 1 ? ids(1, 10) : ids(11, 4), page),
    });
    expect(collected.pages).toBe(2);
    expect(collected.reports).toHaveLength(14);
  });

  it('refuses a page that brings no new report (a service ignoring page), within the pages asked ahead', async () => {
    for (const [concurrency, most] of [
      [1, 2],
      [PAGES_IN_FLIGHT, 1 + PAGES_AHEAD_PER_REQUEST * PAGES_IN_FLIGHT],
    ]) {
      let calls = 0;
      const run = collectAllPages({
        concurrency,
        fetchPage: async (page) => {
          calls++;
          return pageOf(ids(1, 10), page);
        },
      });
      await expect(run).rejects.toThrow(/same reports again for page 2/);
      expect(calls).toBeGreaterThanOrEqual(2);
      expect(calls).toBeLessThanOrEqual(most);
    }
  });

  it('keeps up to four requests in flight by default, and hands the pages over in page order', async () => {
    let inFlight = 0;
    let most = 0;
    const collected = await collectAllPages({
      fetchPage: async (page) => {
        inFlight++;
        most = Math.max(most, inFlight);
        // Later pages answer sooner: the order must still be the pages'.
        await new Promise((resolve) => setTimeout(resolve, page === 1 ? 1 : 40 - page * 3));
        inFlight--;
        return pageOf(ids(page * 10 - 9, 10), page, { total: 100, lastPage: 10 });
      },
    });
    expect(most).toBe(PAGES_IN_FLIGHT);
    expect(collected.reports.map((r) => r.id)).toEqual(ids(1, 100).map(String));
    expect(collected).toMatchObject({ pages: 10, requests: 10 });
  });

  it('after a 429 asks one page at a time, not before its Retry-After', async () => {
    const starts: { page: number; at: number }[] = [];
    let refused = false;
    const began = Date.now();
    const collected = await collectAllPages({
      fetchPage: async (page) => {
        starts.push({ page, at: Date.now() - began });
        if (page === 3 && !refused) {
          refused = true;
          throw new AppFailure({
            kind: 'rate_limited',
            code: 'rate_limited',
            message: 'Too many.',
            retryAfterSeconds: 0.2,
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
        return pageOf(ids(page * 10 - 9, 10), page, { total: 60, lastPage: 6 });
      },
    });
    expect(collected.reports).toHaveLength(60);
    const refusedAt = starts.find((s) => s.page === 3)!.at;
    const again = starts.filter((s) => s.page === 3)[1];
    expect(again.at - refusedAt).toBeGreaterThanOrEqual(190);
    expect(collected.requests).toBe(7);
  });

  it('never asks for more pages than the total implies, plus one', async () => {
    let calls = 0;
    const collected = await collectAllPages({
      // A service whose list keeps growing: every page is full, lastPage always one further.
      fetchPage: async (page) => {
        calls++;
        return pageOf(ids(page * 10, 10), page, { total: 30, lastPage: page + 1 });
      },
    });
    expect(calls).toBe(4);
    expect(collected.reports).toHaveLength(40);
  });

  it('stops at the hard page limit with an error, when no total bounds it', async () => {
    let calls = 0;
    const run = collectAllPages({
      maxPages: 5,
      fetchPage: async (page) => {
        calls++;
        return pageOf(ids(page * 10, 10), page);
      },
    });
    await expect(run).rejects.toThrow(/did not end after 5 pages/);
    expect(calls).toBe(5);
  });

  it('stops between pages when cancelled', async () => {
    const controller = new AbortController();
    let calls = 0;
    const run = collectAllPages({
      signal: controller.signal,
      fetchPage: async (page) => {
        calls++;
        if (page === 2) controller.abort();
        return pageOf(ids(page * 10, 10), page);
      },
    });
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppFailure);
    expect((error as AppFailure).error.kind).toBe('cancelled');
    expect(calls).toBe(2);
  });

  it('counts as cached when any page came from the cache, aged by the oldest', async () => {
    const collected = await collectAllPages({
      fetchPage: async (page) =>
        pageOf(page === 1 ? ids(1, 10) : ids(11, 2), page, {
          source: page === 1 ? 'network' : 'cache',
          fetchedAt: page === 1 ? AT : '2026-11-20T08:00:00.000Z',
        }),
    });
    expect(collected.origin).toEqual({ source: 'cache', fetchedAt: '2026-11-20T08:00:00.000Z' });
  });
});

describe('CSV', () => {
  const reports: Report[] = [
    {
      id: '1',
      url: 'https://a.example/?q=1,2',
      result: 'good',
      generated_at: '2026-01-02T03:04:05+02:00',
      privacy: 0,
      project: '=HYPERLINK("http://evil.example")',
      score: -3,
      note: 'line one\nline "two"',
    },
    {
      id: '2',
      url: 'https://b.example',
      result: null,
      project: null,
      tags: ['x', 'y'],
      updated_at: 'not a date',
    },
    { id: '3', url: 'https://c.example', project: '+1', note: '@x', extra: '\tt', other: '\rr', minus: '-1' },
  ];

  it('puts the spec fields first, then every other field in first-seen order', () => {
    expect(exportColumns(reports)).toEqual([
      'id',
      'url',
      'result',
      'generated_at',
      'privacy',
      'project',
      'score',
      'note',
      'tags',
      'updated_at',
      'extra',
      'other',
      'minus',
    ]);
  });

  it('is RFC 4180 with CRLF records, ISO dates, and formulas neutralised', () => {
    const text = reportsToCsv(reports);
    expect(text.endsWith('\r\n')).toBe(true);
    const { records } = csvRecords(text);
    expect(records[0]).toMatchObject({
      url: 'https://a.example/?q=1,2',
      generated_at: '2026-01-02T01:04:05.000Z',
      privacy: '0',
      project: `'=HYPERLINK("http://evil.example")`,
      // A JSON number is data, not a formula.
      score: '-3',
      note: 'line one\nline "two"',
    });
    expect(records[1]).toMatchObject({
      result: '',
      project: '',
      tags: '["x","y"]',
      updated_at: 'not a date',
    });
    expect(records[2]).toMatchObject({
      project: "'+1",
      note: "'@x",
      extra: "'\tt",
      other: "'\rr",
      minus: "'-1",
    });
    // Nothing that a spreadsheet would run is left at the start of a cell.
    for (const row of parseCsv(text).slice(1)) {
      for (const cell of row) if (cell !== '-3') expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('has only a header for no reports', () => {
    expect(reportsToCsv([])).toBe('id,url,result,generated_at,privacy,project\r\n');
  });
});

describe('JSON', () => {
  it('keeps the reports as sent, with where and when they came from', () => {
    const parsed = JSON.parse(
      reportsToJson([{ id: '1', url: 'https://a.example', score: 5 }], {
        exportedAt: AT,
        source: 'cache',
        fetchedAt: '2026-11-20T08:00:00.000Z',
        total: 1,
      }),
    ) as Record<string, unknown>;
    expect(parsed).toEqual({
      exported_at: AT,
      source: 'cache',
      fetched_at: '2026-11-20T08:00:00.000Z',
      total: 1,
      count: 1,
      data: [{ id: '1', url: 'https://a.example', score: 5 }],
    });
  });
});
