/**
 * full-sync: reports in the reference service into an empty cache through the gateway's
 * 'cache:sync' (pages of 100 over HTTP on 127.0.0.1, each page one SQLite transaction).
 *  - seconds_10k: 10,000 reports, the service answering at once; median of three runs, each
 *    into a fresh data dir.
 *  - seconds_10k_at_50ms / seconds_100k_at_50ms: the same with the service answering every
 *    request 50 ms after it arrives (its `latencyMs` option), as over a real network; one run
 *    each (the latency, not the machine, dominates them).
 */
import { performance } from 'node:perf_hooks';
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
  note(BENCH, `100,000 reports at ${LATENCY_MS} ms per request (1,000 pages)…`);
  info(BENCH, 'seconds_100k_at_50ms', round(await timeOneSync(100_000, LATENCY_MS), 3), 's');
}
