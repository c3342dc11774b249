/**
 * full-sync: reports in the reference service into an empty cache through the gateway's
 * 'cache:sync' (pages of 100 over HTTP on 127.0.0.1, each page one SQLite transaction).
 *  - seconds_10k: 10,000 reports, the service answering at once; median of three runs, each
 *    into a fresh data dir.
 *  - seconds_10k_at_50ms / seconds_100k_at_50ms: the same with the service answering every
 *    request 50 ms after it arrives (its `latencyMs` option), as over a real network; one run
 *    each (the latency, not the machine, dominates them).
 *  - for comparison in the same run (stderr only): 10,000 reports at 50 ms with the sync
 *    asking one page at a time, as it did before issue 12 (runFullSync with concurrency 1,
 *    straight into the cache with the API client).
 */
import { performance } from 'node:perf_hooks';
import { ReportServiceClient } from '../../electron/core/api/client';
import { runFullSync as syncIntoCache } from '../../electron/core/cache/fullSync';
import { startDemoService } from '../../electron/demo-service/server';
import { emit, info, median, note, round } from './common';
import { coreWithProfile } from './core';

const BENCH = 'full-sync';
const REPORTS = 10_000;
const RUNS = 3;
const LATENCY_MS = 50;

/** Syncs `reports` reports into a fresh core; answers the seconds the sync took. */
async function timeOneSync(reports: number, latencyMs: number): Promise<number> {
  const service = await startDemoService({ reportsPerAccount: 10, latencyMs });
  try {
    service.seedReports(reports);
    const bench = await coreWithProfile(service, BENCH);
    try {
      const start = performance.now();
      const summary = await bench.handlers['cache:sync'](undefined);
      const seconds = (performance.now() - start) / 1000;
      const cached = bench.core.cache.status(bench.profileId).reportCount;
      if (summary.fetched !== reports || cached !== reports) {
        throw new Error(`The sync fetched ${summary.fetched} and cached ${cached}, not ${reports}.`);
      }
      return seconds;
    } finally {
      await bench.close();
    }
  } finally {
    await service.stop();
  }
}

/** The same 10,000 at 50 ms, one page at a time (the sync before issue 12); answers seconds. */
async function timeSequentialSync(reports: number, latencyMs: number): Promise<number> {
  const service = await startDemoService({ reportsPerAccount: 10, latencyMs });
  try {
    service.seedReports(reports);
    const bench = await coreWithProfile(service, BENCH);
    try {
      const client = new ReportServiceClient({
        baseUrl: service.baseUrl,
        apiKey: service.apiKey,
        allowInsecureHttp: true,
      });
      const start = performance.now();
      const summary = await syncIntoCache({
        cache: bench.core.cache,
        scope: bench.profileId,
        concurrency: 1,
        fetchPage: (page, signal) =>
          client.listReports({ per_page: 100, sort_by: 'id', sort: 'asc', page }, { signal }),
      });
      const seconds = (performance.now() - start) / 1000;
      if (summary.fetched !== reports)
        throw new Error(`The sync fetched ${summary.fetched}, not ${reports}.`);
      return seconds;
    } finally {
      await bench.close();
    }
  } finally {
    await service.stop();
  }
}

export async function runFullSync(): Promise<void> {
  const seconds: number[] = [];
  for (let run = 0; run < RUNS; run++) seconds.push(await timeOneSync(REPORTS, 0));
  note(BENCH, `runs: ${seconds.map((s) => round(s, 3)).join(' s, ')} s`);
  const typical = median(seconds);
  emit({
    bench: BENCH,
    metric: 'seconds_10k',
    value: round(typical, 3),
    unit: 's',
    goal: '<= 3 s',
    met: typical <= 3,
  });
  info(BENCH, 'reports_per_second', Math.round(REPORTS / typical), 'reports/s');

  const at50ms10k = await timeOneSync(10_000, LATENCY_MS);
  emit({
    bench: BENCH,
    metric: 'seconds_10k_at_50ms',
    value: round(at50ms10k, 3),
    unit: 's',
    goal: '<= 2 s',
    met: at50ms10k <= 2,
  });
  const sequential = await timeSequentialSync(10_000, LATENCY_MS);
  note(
    BENCH,
    `for comparison, one page at a time: 10,000 reports at ${LATENCY_MS} ms in ${round(sequential, 3)} s`,
  );
  note(BENCH, `100,000 reports at ${LATENCY_MS} ms per request (1,000 pages)…`);
  info(BENCH, 'seconds_100k_at_50ms', round(await timeOneSync(100_000, LATENCY_MS), 3), 's');
}
