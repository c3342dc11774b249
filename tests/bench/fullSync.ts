/**
 * full-sync: reports in the reference service into an empty cache through the gateway's
 * 'cache:sync' (pages of 100 over HTTP on 127.0.0.1, each page one SQLite transaction).
 *  - seconds_10k: 10,000 reports, the service in this process answering at once; median of
 *    three runs, each into a fresh data dir.
 *  - seconds_10k_at_50ms / seconds_100k_at_50ms: the service answering every request 50 ms
 *    after it arrives (its latency), as over a real network, and in a child process, as a
 *    remote service is (remoteService.ts): the client, the cache and the service no longer
 *    share one thread. One run each (the latency, not the machine, dominates them).
 *  - for comparison in the same run (stderr only): 10,000 reports at 50 ms with the service in
 *    this process (how the figure was measured before issue 20); straight into the cache with
 *    one page per transaction (before issue 20) and with the pages that arrived together in one,
 *    with this process's CPU seconds (steadier than wall time on a loaded machine); and one
 *    page at a time (the sync before issue 12).
 */
import { performance } from 'node:perf_hooks';
import { ReportServiceClient } from '../../electron/core/api/client';
import {
  PAGES_PER_WRITE,
  runFullSync as syncIntoCache,
  SYNC_CONCURRENCY,
} from '../../electron/core/cache/fullSync';
import { startDemoService } from '../../electron/demo-service/server';
import { emitGoal, info, median, note, round } from './common';
import { coreWithProfile } from './core';
import { startRemoteService, type RemoteService } from './remoteService';

const BENCH = 'full-sync';
const REPORTS = 10_000;
const RUNS = 3;
const LATENCY_MS = 50;

interface Service {
  baseUrl: string;
  apiKey: string;
}

/** Syncs the service's `reports` reports into a fresh core; answers the seconds the sync took. */
async function timeSyncFrom(service: Service, reports: number): Promise<number> {
  const bench = await coreWithProfile(service, BENCH);
  try {
    const start = performance.now();
    const summary = await bench.handlers['cache:sync'](undefined);
    const seconds = (performance.now() - start) / 1000;
    const cached = bench.core.cache.status(bench.profileId).reportCount;
    if (summary.fetched !== reports || cached !== reports || !summary.complete) {
      throw new Error(`The sync fetched ${summary.fetched} and cached ${cached}, not ${reports}.`);
    }
    return seconds;
  } finally {
    await bench.close();
  }
}

/** The service in this process (as before issue 20). */
async function timeInProcess(reports: number, latencyMs: number): Promise<number> {
  const service = await startDemoService({ reportsPerAccount: 10, latencyMs });
  try {
    service.seedReports(reports);
    return await timeSyncFrom(service, reports);
  } finally {
    await service.stop();
  }
}

/** The service in a child process, as a remote service is. */
async function timeRemote(remote: RemoteService, reports: number, latencyMs: number): Promise<number> {
  await remote.seed(reports);
  await remote.latency(latencyMs);
  return timeSyncFrom(remote, reports);
}

/**
 * 10,000 at 50 ms straight into a fresh cache with the API client (runFullSync, no gateway):
 * `concurrency` pages in flight, `pagesPerWrite` pages per transaction. Answers the seconds and
 * this process's CPU seconds (the client and the cache; the service runs in its own process).
 */
async function timeDirectSync(
  remote: RemoteService,
  reports: number,
  walk: { concurrency: number; pagesPerWrite: number },
): Promise<{ seconds: number; cpu: number }> {
  await remote.seed(reports);
  await remote.latency(LATENCY_MS);
  const bench = await coreWithProfile(remote, BENCH);
  try {
    const client = new ReportServiceClient({ baseUrl: remote.baseUrl, apiKey: remote.apiKey });
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const summary = await syncIntoCache({
      cache: bench.core.cache,
      scope: bench.profileId,
      ...walk,
      fetchPage: (page, signal) =>
        client.listReports(
          { per_page: 100, sort_by: 'id', sort: 'asc', page },
          { signal, retryRateLimited: false },
        ),
    });
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    if (summary.fetched !== reports) throw new Error(`The sync fetched ${summary.fetched}, not ${reports}.`);
    return { seconds, cpu: (cpu.user + cpu.system) / 1e6 };
  } finally {
    await bench.close();
  }
}

export async function runFullSync(): Promise<void> {
  const seconds: number[] = [];
  for (let run = 0; run < RUNS; run++) seconds.push(await timeInProcess(REPORTS, 0));
  note(BENCH, `runs: ${seconds.map((s) => round(s, 3)).join(' s, ')} s`);
  const typical = median(seconds);
  emitGoal(BENCH, 'seconds_10k', typical, 's', '<= 3 s', 3);
  info(BENCH, 'reports_per_second', Math.round(REPORTS / typical), 'reports/s');

  const remote = await startRemoteService();
  try {
    // Side by side in this run: the service in this process as measured before, then remote.
    const inProcess = await timeInProcess(REPORTS, LATENCY_MS);
    const at50ms10k = await timeRemote(remote, REPORTS, LATENCY_MS);
    emitGoal(BENCH, 'seconds_10k_at_50ms', at50ms10k, 's', '<= 2 s', 3);
    note(
      BENCH,
      `10,000 reports at ${LATENCY_MS} ms: ${round(at50ms10k, 3)} s with the service in its own process, ${round(inProcess, 3)} s with it in this one (as measured before)`,
    );
    // Per-page work, old and new side by side: one page per transaction (before issue 20) and
    // the pages that arrived together in one; then one page at a time (before issue 12).
    const perPage = await timeDirectSync(remote, REPORTS, {
      concurrency: SYNC_CONCURRENCY,
      pagesPerWrite: 1,
    });
    const batched = await timeDirectSync(remote, REPORTS, {
      concurrency: SYNC_CONCURRENCY,
      pagesPerWrite: PAGES_PER_WRITE,
    });
    note(
      BENCH,
      `straight into the cache, 10,000 at ${LATENCY_MS} ms: one page per transaction ${round(perPage.seconds, 3)} s (${round(perPage.cpu, 2)} s CPU here), pages that arrived together per transaction ${round(batched.seconds, 3)} s (${round(batched.cpu, 2)} s CPU)`,
    );
    const sequential = await timeDirectSync(remote, REPORTS, { concurrency: 1, pagesPerWrite: 1 });
    note(
      BENCH,
      `for comparison, one page at a time: 10,000 reports at ${LATENCY_MS} ms in ${round(sequential.seconds, 3)} s`,
    );
    note(BENCH, `100,000 reports at ${LATENCY_MS} ms per request (1,000 pages)…`);
    info(BENCH, 'seconds_100k_at_50ms', round(await timeRemote(remote, 100_000, LATENCY_MS), 3), 's');
  } finally {
    await remote.stop();
  }
}
