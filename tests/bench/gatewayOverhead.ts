/**
 * gateway-overhead: what the core adds to one list request. The same request (per_page 100)
 * to the reference service on 127.0.0.1 goes (a) through the contract dispatcher and the
 * gateway's 'reports:list' handler — validation, client, response parsing, cache write-through
 * into SQLite — and (b) through a bare fetch + JSON.parse. Interleaved round by round,
 * rotating which goes first, after a warm-up.
 *
 * What a user pays, both ways:
 *  - `ratio`: up to the answer (what a person waits for). The gateway answers before its
 *    write-through (ReportCache.putReportsSoon), which runs right after.
 *  - `answer_then_write_changed_ratio`: up to the end of that write, with a page whose rows did
 *    change since the last round, as during a real browse. Before each round the service
 *    changes its newest page (10 new reports, the result of the other 90 changed; the 10 oldest
 *    deleted, so its size stays put), so every write-through writes 100 rows, logs 100 changes
 *    (the profile had its first full sync) and keeps the counts and the search index.
 * Three more variants in the same rounds break the difference down: the API client alone (no
 * cache), a cache write of 100 changed rows alone (`cache_write_100_median`), and the same
 * write again with nothing changed (`cache_write_100_unchanged_median`, the no-op path a
 * refresh of an unchanged page takes). The write-through's CPU time is printed beside its wall time
 * (`write_through_changed_cpu_median`): on a busy machine the wall time waits for a core.
 */
import { performance } from 'node:perf_hooks';
import { ReportServiceClient } from '../../electron/core/api/client';
import { LAST_FULL_SYNC_META } from '../../electron/core/cache/reportCache';
import { dispatch } from '../../electron/core/ipc/dispatch';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { REPORT_RESULTS, type Report } from '../../shared/model';
import { emitGoal, info, median, note, percentile, round } from './common';
import { coreWithProfile } from './core';

const BENCH = 'gateway-overhead';
const WARM_UP = 30;
const ROUNDS = 300;
const NETWORK_DELAY_MS = 20;
const LATENCY_ROUNDS = 40;
const PAGE = 100;
/** New reports per round on the service (and in the direct write); the rest of the page changes. */
const NEW_PER_ROUND = 10;

/** A result other than the one a report had last round (each round moves every id one step). */
const resultFor = (id: number, round: number) => REPORT_RESULTS[(id + round) % REPORT_RESULTS.length];

/**
 * Changes the service's newest page before round `round`: NEW_PER_ROUND reports added, the
 * result of the page's other reports changed, the oldest NEW_PER_ROUND deleted.
 */
function changeNewestPage(service: DemoService, round: number): void {
  service.addReports(NEW_PER_ROUND);
  const ids = service.reportIds();
  for (const id of ids.slice(0, NEW_PER_ROUND)) service.deleteReport(id);
  const newest = ids.slice(-PAGE, -NEW_PER_ROUND);
  for (const id of newest) service.changeReport(id, { result: resultFor(id, round) });
}

/**
 * The direct write's page for `round`, in ids the service never uses: the previous round's
 * page with its NEW_PER_ROUND oldest dropped, NEW_PER_ROUND new ones, every other result changed.
 */
function changedPage(template: readonly Report[], round: number): Report[] {
  const firstId = 10_000_000 + round * NEW_PER_ROUND;
  return template.map((report, i) => {
    const id = firstId + (PAGE - 1 - i);
    return { ...report, id: String(id), result: resultFor(id, round) };
  });
}

export async function runGatewayOverhead(): Promise<void> {
  const service = await startDemoService({ reportsPerAccount: 300 });
  const bench = await coreWithProfile(service, BENCH).catch(async (thrown) => {
    await service.stop();
    throw thrown;
  });
  try {
    const url = `${service.baseUrl}/api/v1/reports?per_page=${PAGE}`;
    const headers = { Authorization: `Bearer ${service.apiKey}`, Accept: 'application/json' };
    const cache = bench.core.cache;

    // "Make available offline" once, as a user keeping the copy does: from then on every
    // write-through that changes a row logs it (the costliest path of the write).
    const synced = await dispatch(bench.handlers, 'cache:sync', undefined);
    if (!synced.ok || cache.getMeta(bench.profileId, LAST_FULL_SYNC_META) === null) {
      throw new Error('The first full sync did not complete.');
    }

    /** The answer's time and, apart, the write-through's that follows it (wall and CPU). */
    let lastWriteMs = 0;
    let lastWriteCpuMs = 0;
    const viaGateway = async () => {
      const start = performance.now();
      const result = await dispatch(bench.handlers, 'reports:list', { per_page: PAGE });
      const answeredAt = performance.now();
      const cpuAtAnswer = process.cpuUsage();
      if (!result.ok) throw new Error(`reports:list failed: ${result.error.message}`);
      const page = result.value as { source: string; reports: unknown[] };
      if (page.source !== 'network' || page.reports.length !== PAGE) {
        throw new Error('reports:list did not answer 100 reports from the network.');
      }
      // The write-through was queued before the answer, to run right after it (setImmediate):
      // this turn of the loop comes after it.
      await new Promise((resolve) => setImmediate(resolve));
      lastWriteMs = performance.now() - answeredAt;
      const cpu = process.cpuUsage(cpuAtAnswer);
      lastWriteCpuMs = (cpu.user + cpu.system) / 1000;
      if (cache.pendingPages !== 0) throw new Error('The write-through had not run.');
      return answeredAt - start;
    };
    const viaFetch = async () => {
      const start = performance.now();
      const response = await fetch(url, { headers });
      const body = JSON.parse(await response.text()) as { data: unknown[] };
      const ms = performance.now() - start;
      if (!response.ok || body.data.length !== PAGE)
        throw new Error(`bare fetch answered ${response.status}`);
      return ms;
    };

    const client = new ReportServiceClient({ baseUrl: service.baseUrl, apiKey: service.apiKey });
    const viaClient = async () => {
      const start = performance.now();
      await client.listReports({ per_page: PAGE });
      return performance.now() - start;
    };
    const template = (await client.listReports({ per_page: PAGE })).reports;
    let directPage = changedPage(template, 0);
    const write = (reports: Report[]) => {
      const start = performance.now();
      const counts = cache.putReports(bench.profileId, reports, new Date().toISOString());
      return { ms: performance.now() - start, counts };
    };
    const cacheWrite = async () => {
      const { ms, counts } = write(directPage);
      if (counts.added + counts.changed !== PAGE)
        throw new Error('The direct write did not change 100 rows.');
      return ms;
    };
    // The same page again: every row as stored, so nothing is written (the refresh of an
    // unchanged page). Run after the changed write of the round, whatever the order.
    const cacheWriteUnchanged = async () => {
      const { ms, counts } = write(directPage);
      if (counts.added + counts.changed !== 0) throw new Error('The unchanged write changed rows.');
      return ms;
    };

    const variants = { gateway: viaGateway, fetch: viaFetch, client: viaClient, cacheWrite };
    const names = Object.keys(variants) as (keyof typeof variants)[];
    const samples: Record<keyof typeof variants | 'unchanged', number[]> = {
      gateway: [],
      fetch: [],
      client: [],
      cacheWrite: [],
      unchanged: [],
    };
    const writeThrough: number[] = [];
    const writeThroughCpu: number[] = [];
    const answerThenWrite: number[] = [];
    for (let round = 0; round < WARM_UP + ROUNDS; round++) {
      // Untimed: the service's newest page changes, and the service sorts its reports again
      // (one request) so no variant pays that sort.
      changeNewestPage(service, round + 1);
      await viaFetch();
      directPage = changedPage(template, round + 1);
      // Rotate the order each round, so no variant always runs on a cold or a warm path.
      for (let i = 0; i < names.length; i++) {
        const name = names[(round + i) % names.length];
        const ms = await variants[name]();
        if (round < WARM_UP) continue;
        samples[name].push(ms);
        if (name === 'gateway') {
          writeThrough.push(lastWriteMs);
          writeThroughCpu.push(lastWriteCpuMs);
          answerThenWrite.push(ms + lastWriteMs);
        }
      }
      const unchangedMs = await cacheWriteUnchanged();
      if (round >= WARM_UP) samples.unchanged.push(unchangedMs);
    }
    note(
      BENCH,
      `${ROUNDS} interleaved rounds after ${WARM_UP} warm-up rounds, the newest page changed in each`,
    );
    const fetchMedian = median(samples.fetch);
    const gatewayMedian = median(samples.gateway);
    const answerThenWriteMedian = median(answerThenWrite);
    info(BENCH, 'client_only_median', round(median(samples.client), 3), 'ms');
    info(BENCH, 'cache_write_100_median', round(median(samples.cacheWrite), 3), 'ms');
    info(BENCH, 'cache_write_100_unchanged_median', round(median(samples.unchanged), 3), 'ms');
    info(BENCH, 'gateway_median', round(gatewayMedian, 3), 'ms');
    info(BENCH, 'gateway_p95', round(percentile(samples.gateway, 95), 3), 'ms');
    info(BENCH, 'write_through_changed_median', round(median(writeThrough), 3), 'ms');
    // Its CPU time (this process, user + system): what the write costs on a busy machine too.
    info(BENCH, 'write_through_changed_cpu_median', round(median(writeThroughCpu), 3), 'ms');
    info(BENCH, 'gateway_answer_then_write_changed_median', round(answerThenWriteMedian, 3), 'ms');
    info(BENCH, 'bare_fetch_median', round(fetchMedian, 3), 'ms');
    info(BENCH, 'bare_fetch_p95', round(percentile(samples.fetch, 95), 3), 'ms');
    info(BENCH, 'added_median', round(gatewayMedian - fetchMedian, 3), 'ms');
    emitGoal(BENCH, 'ratio', gatewayMedian / fetchMedian, 'x', '<= 1.2x');
    emitGoal(BENCH, 'answer_then_write_changed_ratio', answerThenWriteMedian / fetchMedian, 'x', '<= 1.5x');

    // The same comparison where the service takes 20 ms to answer, as over a real network:
    // what the core adds is a fixed cost, so it shrinks to noise next to any real round trip.
    service.faults.add({
      method: 'GET',
      path: '/api/v1/reports',
      delayMs: NETWORK_DELAY_MS,
      passThrough: true,
    });
    const slow: Record<'gateway' | 'fetch', number[]> = { gateway: [], fetch: [] };
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      const order = round % 2 === 0 ? (['gateway', 'fetch'] as const) : (['fetch', 'gateway'] as const);
      for (const name of order) slow[name].push(await (name === 'gateway' ? viaGateway : viaFetch)());
    }
    service.faults.clear();
    info(
      BENCH,
      `ratio_at_${NETWORK_DELAY_MS}ms_service_latency`,
      round(median(slow.gateway) / median(slow.fetch)),
      'x',
    );
  } finally {
    await bench.close();
    await service.stop();
  }
}
