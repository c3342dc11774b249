/**
 * The full sync over a real network: the real reference service on 127.0.0.1, the real API
 * client, a real SQLite cache. A small counting proxy (tests/helpers/countingProxy.ts) in front
 * of the service records every request's page, status and the requests in flight at the
 * server when it arrived — so the bounds are counted where the load lands, not in the client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReportServiceClient } from '../../electron/core/api/client';
import { runFullSync, SYNC_CONCURRENCY } from '../../electron/core/cache/fullSync';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import type { SyncProgress } from '../../shared/contract';
import { AppFailure } from '../../shared/errors';
import { PAGES_AHEAD_PER_REQUEST } from '../../shared/paging';
import { normalizeListQuery } from '../../shared/report';
import {
  coreBehindProxy,
  countingProxy,
  expectPacedAfterRateLimit,
  RATE_LIMIT_ONCE,
  type CountingProxy,
} from '../helpers/countingProxy';

let dir: string;
let cache: ReportCache;
let service: DemoService;
let proxy: CountingProxy;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-sync-net-'));
  cache = ReportCache.open(join(dir, 'cache.sqlite'));
  service = await startDemoService({ reportsPerAccount: 10 });
  proxy = await countingProxy(service.baseUrl);
});
afterEach(async () => {
  await proxy.stop();
  await service.stop();
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The gateway's per-page request: 100 per page, id ascending, a 429 handed to the sync. */
function pageFetcher() {
  const client = new ReportServiceClient({
    baseUrl: proxy.baseUrl,
    apiKey: service.apiKey,
    allowInsecureHttp: true,
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 10_000 },
  });
  return (page: number, signal: AbortSignal) =>
    client.listReports(
      { per_page: 100, sort_by: 'id', sort: 'asc', page },
      { signal, retryRateLimited: false },
    );
}

function cachedIds(scope: string): string[] {
  const ids: string[] = [];
  for (let page = 1; page <= 1_000; page++) {
    const { reports } = cache.query(
      scope,
      normalizeListQuery({ sort_by: 'id', sort: 'asc', per_page: 100, page }),
    ).page;
    ids.push(...reports.map((r) => String(r.id)));
    if (reports.length < 100) break;
  }
  return ids;
}

async function serviceIds(): Promise<string[]> {
  const client = new ReportServiceClient({
    baseUrl: service.baseUrl,
    apiKey: service.apiKey,
    allowInsecureHttp: true,
  });
  const ids: string[] = [];
  for (let page = 1; page <= 1_000; page++) {
    const answer = await client.listReports({ per_page: 100, sort_by: 'id', sort: 'asc', page });
    ids.push(...answer.reports.map((r) => String(r.id)));
    if (answer.reports.length < 100) break;
  }
  return ids;
}

describe('full sync over a real network', () => {
  it('keeps a few requests in flight at the server, never more than SYNC_CONCURRENCY, each page asked once', async () => {
    service.seedReports(2_000);
    // Answers that take a while, as over a real network: requests overlap at the server.
    service.faults.setLatency(100);
    const summary = await runFullSync({ cache, scope: 'p', fetchPage: pageFetcher() });
    expect(summary).toMatchObject({ fetched: 2_000, pages: 20, pruned: true, reason: null });
    expect(proxy.maxInFlight()).toBeLessThanOrEqual(SYNC_CONCURRENCY);
    expect(proxy.maxInFlight()).toBeGreaterThan(1);
    // The first page alone (it bounds the rest), then every page once.
    expect(proxy.log[0]).toMatchObject({ page: 1, inFlightAtStart: 1 });
    expect(proxy.log.map((r) => r.page).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(cachedIds('p')).toEqual(await serviceIds());
  });

  it('drops to one request at a time at the first 429 and starts none before its Retry-After is over', async () => {
    service.seedReports(1_500);
    service.faults.setLatency(20);
    let armed = false;
    const summary = await runFullSync({
      cache,
      scope: 'p',
      fetchPage: pageFetcher(),
      onProgress: (p) => {
        // Once page 1 is written, the next request to reach the service is refused once.
        if (p.phase !== 'fetching' || armed) return;
        armed = true;
        service.faults.add(RATE_LIMIT_ONCE);
      },
    });
    expect(summary).toMatchObject({ fetched: 1_500, pages: 15, pruned: true, reason: null });
    expectPacedAfterRateLimit(proxy, 1_000);
    expect(cachedIds('p')).toEqual(await serviceIds());
  });

  it("through the gateway's cache:sync too: its client hands the 429 to the sync instead of retrying it", async () => {
    service.seedReports(1_500);
    service.faults.setLatency(20);
    const app = await coreBehindProxy('sync-net', proxy, service.apiKey);
    try {
      const start = proxy.log.length;
      let armed = false;
      app.core.events.subscribe((event, payload) => {
        if (event !== 'sync:progress' || armed || (payload as SyncProgress).phase !== 'fetching') return;
        armed = true;
        service.faults.add(RATE_LIMIT_ONCE);
      });
      const summary = await app.core.handlers['cache:sync'](undefined);
      expect(summary).toMatchObject({ fetched: 1_500, pruned: true });
      proxy.log.splice(0, start);
      expectPacedAfterRateLimit(proxy, 1_000);
    } finally {
      await app.close();
    }
  });

  it("a Retry-After beyond a minute ends the sync with the service's sentence, keeping the pages written", async () => {
    service.seedReports(500);
    service.faults.add({
      method: 'GET',
      path: '/api/v1/reports',
      status: 429,
      headers: { 'Retry-After': '3600' },
    });
    const error = await runFullSync({ cache, scope: 'p', fetchPage: pageFetcher() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppFailure);
    expect((error as AppFailure).error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 3600 });
    expect(proxy.log).toHaveLength(1);
  });

  it('writes pages in page order: pages that arrive early wait, and a cancel then a resume gives the right set', async () => {
    service.seedReports(1_000);
    cache.putReports('p', [{ id: '999999', url: 'https://gone.example' }], '2024-01-01T00:00:00Z');
    const fetch = pageFetcher();
    const controller = new AbortController();
    const arrivedAhead: number[] = [];
    let releasePage2: () => void = () => {};
    const page2Held = new Promise<void>((resolve) => (releasePage2 = resolve));
    const written: number[] = [];
    const attempt = runFullSync({
      cache,
      scope: 'p',
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'fetching') written.push(p.page);
      },
      fetchPage: async (page, signal) => {
        const answer = await fetch(page, signal);
        if (page === 2) await page2Held; // page 2 is the slow one…
        if (page > 2) {
          arrivedAhead.push(page);
          // …and once as many later pages as were asked with it have arrived, the sync is cancelled.
          if (arrivedAhead.length === SYNC_CONCURRENCY - 1) {
            controller.abort();
            releasePage2();
          }
        }
        return answer;
      },
    });
    const error = await attempt.catch((e: unknown) => e);
    expect((error as AppFailure).error.kind).toBe('cancelled');
    expect(arrivedAhead.length).toBeGreaterThanOrEqual(SYNC_CONCURRENCY - 1);
    // Only page 1 was written: later pages had arrived, but page 2 had not.
    expect(written).toEqual([1]);
    const firstPageIds = (await serviceIds()).slice(0, 100);
    expect(cachedIds('p')).toEqual([...firstPageIds, '999999']);

    const before = proxy.log.length;
    const resumedWritten: number[] = [];
    const summary = await runFullSync({
      cache,
      scope: 'p',
      fetchPage: pageFetcher(),
      onProgress: (p) => {
        if (p.phase === 'fetching') resumedWritten.push(p.page);
      },
    });
    // The resume reads page 1 again (nothing shifted), goes on at page 2 and writes every page in
    // order; the stale report is pruned.
    expect(Math.min(...proxy.log.slice(before).map((r) => r.page))).toBe(1);
    expect(resumedWritten).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(summary).toMatchObject({ fetched: 1_000, pages: 10, removed: 1, pruned: true });
    expect(cachedIds('p')).toEqual(await serviceIds());
  });

  it('stops a service that ignores the page within a few requests, pruning nothing', async () => {
    service.seedReports(5_000);
    cache.putReports('p', [{ id: '999999', url: 'https://gone.example' }], '2024-01-01T00:00:00Z');
    service.faults.ignorePage();
    const summary = await runFullSync({ cache, scope: 'p', fetchPage: pageFetcher() });
    expect(summary).toMatchObject({ fetched: 100, pruned: false, reason: 'paging_ignored' });
    // Page 1 alone, then the few pages asked ahead before page 2 ends the walk (the ones still
    // in flight are cancelled; some may never reach the server).
    expect(proxy.log.length).toBeGreaterThanOrEqual(2);
    expect(proxy.log.length).toBeLessThanOrEqual(1 + PAGES_AHEAD_PER_REQUEST * SYNC_CONCURRENCY);
    expect(cachedIds('p')).toContain('999999');
  });

  it('a report deleted on the service during the sync: the shifted read is read again, and the copy ends equal to the service', async () => {
    service.seedReports(1_000);
    await runFullSync({ cache, scope: 'p', fetchPage: pageFetcher() });
    const seededIds = await serviceIds();
    expect(cachedIds('p')).toEqual(seededIds);

    // Once page 2 is served, the first report is deleted: every page asked later is shifted by
    // one, so a live report can fall between two pages and be seen by neither.
    service.faults.deleteDuringListing({ afterPage: 2 });
    const progress: SyncProgress['phase'][] = [];
    const summary = await runFullSync({
      cache,
      scope: 'p',
      fetchPage: pageFetcher(),
      onProgress: (p) => progress.push(p.phase),
    });
    const live = await serviceIds();
    expect(live).toHaveLength(999);
    // The first read saw the total move and pruned nothing; the second read is consistent.
    expect(summary).toMatchObject({ pruned: true, complete: true, passes: 2, reason: null, removed: 1 });
    expect(progress.filter((phase) => phase === 'pruning')).toHaveLength(1);
    expect(cachedIds('p')).toEqual(live);
    expect(proxy.log.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(20);
  });
});
