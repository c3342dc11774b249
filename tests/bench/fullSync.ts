/**
 * full-sync: 10,000 reports in the reference service into an empty cache through the gateway's
 * 'cache:sync' (100 pages of 100 over HTTP on 127.0.0.1, each page one SQLite transaction).
 * Three runs, each into a fresh data dir; the median is the figure.
 */
import { performance } from 'node:perf_hooks';
import { startDemoService } from '../../electron/demo-service/server';
import { emit, info, median, note, round } from './common';
import { coreWithProfile } from './core';

const BENCH = 'full-sync';
const REPORTS = 10_000;
const RUNS = 3;

export async function runFullSync(): Promise<void> {
  const service = await startDemoService({ reportsPerAccount: 10 });
  try {
    service.seedReports(REPORTS);
    const seconds: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const bench = await coreWithProfile(service, BENCH);
      try {
        const start = performance.now();
        const summary = await bench.handlers['cache:sync'](undefined);
        seconds.push((performance.now() - start) / 1000);
        const cached = bench.core.cache.status(bench.profileId).reportCount;
        if (summary.fetched !== REPORTS || cached !== REPORTS) {
          throw new Error(`The sync fetched ${summary.fetched} and cached ${cached}, not ${REPORTS}.`);
        }
      } finally {
        await bench.close();
      }
    }
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
  } finally {
    await service.stop();
  }
}
