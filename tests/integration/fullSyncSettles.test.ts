/**
 * A full sync settles itself: a list that changed while it was read is read again (three reads
 * at most), and the copy is called complete only after one consistent read. Here the one shift
 * the page checks cannot see by themselves — a report deleted and another created during one
 * read, which leaves the total as it was — is caught by asking for the cached reports that lie
 * between two pages. Real SQLite files; a scripted service, and the reference service over HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReportServiceClient } from '../../electron/core/api/client';
import { MAX_GAP_CHECKS, runFullSync } from '../../electron/core/cache/fullSync';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { AppFailure } from '../../shared/errors';
import { normalizeListQuery, type Report } from '../../shared/report';
import { generateReports, pageOf } from '../fixtures/generatedReports';
import { syncStoppedAt } from '../helpers/syncRuns';

let dir: string;
let cache: ReportCache;
let service: DemoService | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-settles-'));
  cache = ReportCache.open(join(dir, 'cache.sqlite'));
});
afterEach(async () => {
  await service?.stop();
  service = undefined;
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

function cachedIds(scope = 'p'): string[] {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const { reports } = cache.query(scope, normalizeListQuery({ sort: 'asc', per_page: 100, page })).page;
    ids.push(...reports.map((r) => r.id));
    if (reports.length < 100) return ids;
  }
}

/** A scripted service: its list may change after a page is served; counts every request. */
function scripted(initial: Report[]) {
  let list = initial;
  const afterPage = new Map<number, () => void>();
  const asked = { pages: [] as number[], reports: [] as string[] };
  return {
    asked,
    change(after: number, edit: (list: Report[]) => Report[]) {
      afterPage.set(after, () => (list = edit(list)));
    },
    fetchPage: async (page: number) => {
      asked.pages.push(page);
      const served = pageOf(list, page);
      const hook = afterPage.get(page);
      afterPage.delete(page);
      hook?.();
      return served;
    },
    fetchReport: async (id: string) => {
      asked.reports.push(id);
      return list.find((r) => r.id === id) ?? null;
    },
    ids: () => list.map((r) => r.id),
  };
}

async function syncedCopy(reports: Report[]): Promise<void> {
  await runFullSync({ cache, scope: 'p', fetchPage: async (page) => pageOf(reports, page) });
}

/** A full sync of scope 'p' against a scripted service (`concurrency` pages in flight, default the sync's). */
function syncFrom(service: ReturnType<typeof scripted>, concurrency?: number) {
  return runFullSync({
    cache,
    scope: 'p',
    concurrency,
    fetchPage: service.fetchPage,
    fetchReport: service.fetchReport,
  });
}

describe('a report skipped by a shift the page checks cannot see', () => {
  it('a deletion and a creation during one read: the skipped report is asked for, kept, and a second read settles the copy', async () => {
    const reports = generateReports(300);
    await syncedCopy(reports);
    const service = scripted(reports);
    // After page 2: report 150 is deleted and report 301 created. Page 3 now starts at 202,
    // so 201 (once the first of page 3) slid onto page 2, already read; the total is still 300.
    service.change(2, (list) => [...list.filter((r) => r.id !== '150'), ...generateReports(1, 301)]);
    const summary = await syncFrom(service, 1);
    // Only 201 lies between two pages (after 200, before 202); 150 does not.
    expect(service.asked.reports).toEqual(['201']);
    expect(service.asked.pages).toEqual([1, 2, 3, 1, 2, 3]);
    expect(summary).toMatchObject({ complete: true, pruned: true, passes: 2, removed: 1, requests: 7 });
    expect(cachedIds()).toEqual(service.ids());
  });

  it('without the direct check the same read would prune the live report: here it asks, so it never does', async () => {
    const reports = generateReports(300);
    await syncedCopy(reports);
    const service = scripted(reports);
    service.change(1, (list) => [...list.filter((r) => r.id !== '20'), ...generateReports(1, 301)]);
    const summary = await syncFrom(service, 1);
    expect(service.asked.reports).toEqual(['101']);
    expect(summary.complete).toBe(true);
    expect(cachedIds()).toContain('101');
    expect(cachedIds()).toEqual(service.ids());
  });

  it('a report deleted before the sync, at a page boundary, is asked for once and pruned: one read, complete', async () => {
    const reports = generateReports(300);
    await syncedCopy(reports);
    const service = scripted(reports.filter((r) => r.id !== '101'));
    const summary = await syncFrom(service);
    expect(service.asked.reports).toEqual(['101']);
    expect(summary).toMatchObject({ complete: true, passes: 1, removed: 1, requests: 4 });
    expect(cache.getReport('p', '101')).toBeNull();
  });

  it(`up to ${MAX_GAP_CHECKS} reports between pages are asked for one by one; more make the read untrusted`, async () => {
    // Pages of 10 from ids 1–132 without every 11th: each missing id sits between two pages.
    const all = generateReports(132);
    const without = (count: number) => {
      const gone = new Set(Array.from({ length: count }, (_, i) => String(11 * (i + 1))));
      return { gone: [...gone], left: all.filter((r) => !gone.has(r.id)) };
    };
    const syncAll = () =>
      runFullSync({ cache, scope: 'p', fetchPage: async (page) => pageOf(all, page, 10) });
    await syncAll();
    const asked: string[] = [];
    const sync = (left: Report[]) =>
      runFullSync({
        cache,
        scope: 'p',
        fetchPage: async (page) => pageOf(left, page, 10),
        fetchReport: async (id) => (asked.push(id), null),
      });

    const ten = without(MAX_GAP_CHECKS);
    expect(await sync(ten.left)).toMatchObject({ complete: true, passes: 1, removed: 10 });
    expect(asked).toEqual(ten.gone);

    await syncAll();
    asked.length = 0;
    const eleven = without(MAX_GAP_CHECKS + 1);
    expect(await sync(eleven.left)).toMatchObject({
      complete: false,
      pruned: false,
      passes: 3,
      reason: 'listing_changed',
    });
    expect(asked).toEqual([]);
    expect(cachedIds()).toHaveLength(132);
  });

  it('a failing direct check ends the sync with its failure, pruning nothing', async () => {
    const reports = generateReports(300);
    await syncedCopy(reports);
    const failure = new AppFailure({
      kind: 'server_error',
      code: 'server_error',
      message: 'The Report Service had an internal problem.',
    });
    const left = reports.filter((r) => r.id !== '101');
    await expect(
      runFullSync({
        cache,
        scope: 'p',
        fetchPage: async (page) => pageOf(left, page),
        fetchReport: async () => {
          throw failure;
        },
      }),
    ).rejects.toBe(failure);
    expect(cache.getReport('p', '101')).not.toBeNull();
  });
});

describe('the second read of the list', () => {
  it('carries the resumed sync’s id in its mark, and its progress is saved before its first page', async () => {
    const reports = generateReports(300);
    // Run 1: the first read, cancelled on page 2 (a pass-1 mark saved with page 1).
    await syncStoppedAt(cache, reports, 2);
    const firstMark = cache.getMeta('p', 'sync_id')!;
    expect(firstMark).toMatch(/^[0-9a-f-]{36}:1$/);
    // Run 2 resumes it; its read sees the total move, so a second read follows, which is
    // cancelled as it asks its first page.
    const again = new AbortController();
    const marks: string[] = [];
    await runFullSync({
      cache,
      scope: 'p',
      concurrency: 1,
      signal: again.signal,
      fetchPage: async (page) => {
        const progress = JSON.parse(cache.getMeta('p', 'sync_progress')!) as { pass: number };
        if (progress.pass === 2) {
          marks.push(cache.getMeta('p', 'sync_id')!);
          again.abort();
        }
        return { ...pageOf(reports, page), total: page === 3 ? 301 : 300 };
      },
    }).catch(() => undefined);
    expect(marks).toEqual([firstMark.replace(/:1$/, ':2')]);
    expect(JSON.parse(cache.getMeta('p', 'sync_progress')!)).toMatchObject({ pass: 2, nextPage: 1 });
  });
});

describe('what the gap check asks for', () => {
  it('never a report before the first page (no gap there), nor any without a way to ask', async () => {
    const reports = generateReports(300, 10);
    cache.putReports('p', generateReports(1, 1), '2024-01-01T00:00:00Z');
    await syncedCopy(reports);
    const asked: string[] = [];
    // Report 1 was in the copy before the list's first id: pruned without a question.
    expect(cache.getReport('p', '1')).toBeNull();
    cache.putReports('p', generateReports(1, 1), '2024-01-01T00:00:00Z');
    const summary = await runFullSync({
      cache,
      scope: 'p',
      fetchPage: async (page) => pageOf(reports, page),
      fetchReport: async (id) => (asked.push(id), null),
    });
    expect(asked).toEqual([]);
    expect(summary).toMatchObject({ complete: true, removed: 1 });

    // Without fetchReport a report in a gap is pruned as the other checks allow.
    const left = reports.filter((r) => r.id !== '110');
    const without = await runFullSync({ cache, scope: 'p', fetchPage: async (page) => pageOf(left, page) });
    expect(without).toMatchObject({ complete: true, removed: 1, requests: 3 });
  });
});

describe('against the reference service', () => {
  async function serviceSync(s: DemoService) {
    const client = new ReportServiceClient({ baseUrl: s.baseUrl, apiKey: s.apiKey });
    return runFullSync({
      cache,
      scope: 'p',
      fetchPage: (page, signal) =>
        client.listReports({ per_page: 100, sort_by: 'id', sort: 'asc', page }, { signal }),
      fetchReport: (id, signal) =>
        client.getReport(id, { signal }).catch((thrown: unknown) => {
          if (thrown instanceof AppFailure && thrown.error.kind === 'not_found') return null;
          throw thrown;
        }),
    });
  }
  const serviceIds = (s: DemoService) => s.reportIds().map(String);

  it('a deletion during the sync: one sync ends with the copy equal to the service, complete', async () => {
    service = await startDemoService({ reportsPerAccount: 450 });
    expect((await serviceSync(service)).complete).toBe(true);
    service.faults.deleteDuringListing({ afterPage: 2 });
    const summary = await serviceSync(service);
    expect(summary).toMatchObject({ complete: true, passes: 2, removed: 1 });
    expect(cachedIds().sort()).toEqual(serviceIds(service).sort());
  });

  it('a deletion and a creation during the same read: complete only once the copy equals the service', async () => {
    service = await startDemoService({ reportsPerAccount: 450 });
    await serviceSync(service);
    const s = service;
    s.faults.afterListPage({
      afterPage: 2,
      run: () => {
        s.deleteReport(s.reportIds()[0]);
        s.addReports(1);
      },
    });
    const summary = await serviceSync(s);
    expect(summary.complete).toBe(true);
    expect(summary.passes).toBe(2);
    expect(cachedIds().sort()).toEqual(serviceIds(s).sort());
  });

  it('a deletion during every read: three reads, then the copy is called incomplete and nothing live is missing', async () => {
    service = await startDemoService({ reportsPerAccount: 450 });
    await serviceSync(service);
    service.faults.deleteDuringListing({ afterPage: 2, times: 3 });
    const summary = await serviceSync(service);
    expect(summary).toMatchObject({ complete: false, pruned: false, passes: 3, reason: 'listing_changed' });
    const cached = new Set(cachedIds());
    expect(serviceIds(service).filter((id) => !cached.has(id))).toEqual([]);
    // The next sync, with the list at rest, settles it in one read.
    expect(await serviceSync(service)).toMatchObject({ complete: true, passes: 1, removed: 3 });
    expect(cachedIds().sort()).toEqual(serviceIds(service).sort());
  });
});
