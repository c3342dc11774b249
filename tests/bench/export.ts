/**
 * export: every page of a list query as one CSV file through the gateway's 'reports:export'
 * (the export's walk: four requests in flight, pages in order), against the reference service
 * in a child process (remoteService.ts) answering every request 50 ms after it arrives.
 *  - seconds_10k_at_50ms: 10,000 reports (100 pages of 100), until the file's content is ready;
 *    seconds_until_cached_10k_at_50ms: until those pages are in the offline copy as well.
 *  - for comparison in the same run (stderr): the same pages one at a time (collectAllPages with
 *    concurrency 1 over 'reports:list'), as the export and `reports list --all` read before.
 */
import { performance } from 'node:perf_hooks';
import { collectAllPages } from '../../electron/core/export/exporter';
import { emitGoal, info, note, round } from './common';
import { coreWithProfile } from './core';
import { startRemoteService } from './remoteService';

const BENCH = 'export';

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};
const REPORTS = 10_000;
const LATENCY_MS = 50;

export async function runExport(): Promise<void> {
  const remote = await startRemoteService();
  try {
    await remote.seed(REPORTS);
    await remote.latency(LATENCY_MS);
    // Each variant into a fresh data dir: both write the 10,000 reports through to the cache.
    const fourInFlight = await coreWithProfile(remote, BENCH);
    let seconds: number;
    try {
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      const exported = await fourInFlight.handlers['reports:export']({ query: {}, format: 'csv' });
      seconds = (performance.now() - start) / 1000;
      if (exported.count !== REPORTS) throw new Error(`The export has ${exported.count} reports.`);
      note(
        BENCH,
        `four in flight: ${round(seconds, 3)} s (${round(cpuSeconds(cpuStart), 2)} s CPU in this process)`,
      );
      // The export's pages reach the offline copy once the walk pauses (putReportsLater): how
      // long until all of them are in it, from the export's start.
      const cache = fourInFlight.core.cache;
      for (let waited = 0; cache.pendingPages > 0; waited += 5) {
        if (waited > 60_000) throw new Error('The export’s pages were not cached within a minute.');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const cachedSeconds = (performance.now() - start) / 1000;
      if (cache.status(fourInFlight.profileId).reportCount !== REPORTS)
        throw new Error('Not every report was cached.');
      info(BENCH, 'seconds_until_cached_10k_at_50ms', round(cachedSeconds, 3), 's');
    } finally {
      await fourInFlight.close();
    }
    emitGoal(BENCH, 'seconds_10k_at_50ms', seconds, 's', '<= 2 s', 3);

    const oneByOne = await coreWithProfile(remote, BENCH);
    try {
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      const collected = await collectAllPages({
        concurrency: 1,
        fetchPage: (page) => oneByOne.handlers['reports:list']({ per_page: 100, page }),
      });
      if (collected.reports.length !== REPORTS) throw new Error(`Read ${collected.reports.length} reports.`);
      note(
        BENCH,
        `for comparison, one page at a time (as before): ${round((performance.now() - start) / 1000, 3)} s (${round(cpuSeconds(cpuStart), 2)} s CPU)`,
      );
    } finally {
      await oneByOne.close();
    }
  } finally {
    await remote.stop();
  }
}
