/**
 * refresh: the quick refresh of "Keep available offline" (cache/quickRefresh.ts) through the
 * gateway's 'cache:sync' {quick: true}, against the reference service in a child process
 * (remoteService.ts) answering every request 50 ms after it arrives.
 *  - quick_seconds_100k_10_new_at_50ms: a copy of 100,000 reports (made by a full sync at no
 *    latency), 10 new reports on the service; also the list requests it sent, counted at the
 *    service (goal: at most 2).
 *  - for comparison (stderr): the same refresh with nothing new, and a full sync of the 100,000
 *    at 50 ms, which is what keeping the copy current cost without the quick refresh.
 */
import { performance } from 'node:perf_hooks';
import { emitGoal, info, note, round } from './common';
import { coreWithProfile } from './core';
import { startRemoteService } from './remoteService';

const BENCH = 'refresh';
const COPY = 100_000;
const NEW = 10;
const LATENCY_MS = 50;

export async function runRefresh(): Promise<void> {
  const remote = await startRemoteService();
  try {
    await remote.seed(COPY);
    const bench = await coreWithProfile(remote, BENCH);
    try {
      note(BENCH, `making the ${COPY.toLocaleString('en')}-report copy (a full sync at no latency)…`);
      const syncStart = performance.now();
      const synced = await bench.handlers['cache:sync'](undefined);
      if (synced.fetched !== COPY || !synced.complete)
        throw new Error(`The copy has ${synced.fetched} reports.`);
      note(BENCH, `copy made in ${round((performance.now() - syncStart) / 1000, 1)} s`);

      await remote.latency(LATENCY_MS);
      const timed = async () => {
        const before = await remote.listRequests();
        const start = performance.now();
        const summary = await bench.handlers['cache:sync']({ quick: true });
        const seconds = (performance.now() - start) / 1000;
        return { summary, seconds, requests: (await remote.listRequests()) - before };
      };

      const idle = await timed();
      note(BENCH, `nothing new: ${round(idle.seconds, 3)} s, ${idle.requests} list request(s)`);

      await remote.add(NEW);
      const { summary, seconds, requests } = await timed();
      if (summary.added !== NEW)
        throw new Error(`The refresh found ${summary.added} new reports, not ${NEW}.`);
      emitGoal(BENCH, 'quick_seconds_100k_10_new_at_50ms', seconds, 's', '<= 0.3 s', 3);
      emitGoal(BENCH, 'quick_requests_100k_10_new_at_50ms', requests, 'requests', '<= 2');

      const fullStart = performance.now();
      await bench.handlers['cache:sync'](undefined);
      info(BENCH, 'full_sync_seconds_100k_at_50ms', round((performance.now() - fullStart) / 1000, 3), 's');
    } finally {
      await bench.close();
    }
  } finally {
    await remote.stop();
  }
}
