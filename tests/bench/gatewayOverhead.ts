/**
 * gateway-overhead: what the core adds to one list request. The same request (per_page 100)
 * to the reference service on 127.0.0.1 goes (a) through the contract dispatcher and the
 * gateway's 'reports:list' handler — validation, client, response parsing, cache write-through
 * into SQLite — and (b) through a bare fetch + JSON.parse. Interleaved round by round,
 * alternating which goes first, after a warm-up. Two more variants in the same rounds break the
 * difference down: the API client alone (no cache), and the cache write-through alone. The
 * gateway answers before its write-through (ReportCache.putReportsSoon); after every sample the
 * bench lets that write finish untimed, and prints answer + write as a figure of its own.
 */
import { performance } from 'node:perf_hooks';
import { ReportServiceClient } from '../../electron/core/api/client';
import { dispatch } from '../../electron/core/ipc/dispatch';
import { startDemoService } from '../../electron/demo-service/server';
import { emit, info, median, note, percentile, round } from './common';
import { coreWithProfile } from './core';

const BENCH = 'gateway-overhead';
const WARM_UP = 30;
const ROUNDS = 300;
const NETWORK_DELAY_MS = 20;
const LATENCY_ROUNDS = 40;

export async function runGatewayOverhead(): Promise<void> {
  const service = await startDemoService({ reportsPerAccount: 300 });
  const bench = await coreWithProfile(service, BENCH).catch(async (thrown) => {
    await service.stop();
    throw thrown;
  });
  try {
    const url = `${service.baseUrl}/api/v1/reports?per_page=100`;
    const headers = { Authorization: `Bearer ${service.apiKey}`, Accept: 'application/json' };

    const viaGateway = async () => {
      const start = performance.now();
      const result = await dispatch(bench.handlers, 'reports:list', { per_page: 100 });
      const ms = performance.now() - start;
      if (!result.ok) throw new Error(`reports:list failed: ${result.error.message}`);
      const page = result.value as { source: string; reports: unknown[] };
      if (page.source !== 'network' || page.reports.length !== 100) {
        throw new Error('reports:list did not answer 100 reports from the network.');
      }
      return ms;
    };
    const viaFetch = async () => {
      const start = performance.now();
      const response = await fetch(url, { headers });
      const body = JSON.parse(await response.text()) as { data: unknown[] };
      const ms = performance.now() - start;
      if (!response.ok || body.data.length !== 100) throw new Error(`bare fetch answered ${response.status}`);
      return ms;
    };

    const client = new ReportServiceClient({ baseUrl: service.baseUrl, apiKey: service.apiKey });
    const viaClient = async () => {
      const start = performance.now();
      await client.listReports({ per_page: 100 });
      return performance.now() - start;
    };
    const samplePage = await client.listReports({ per_page: 100 });
    const cacheWrite = async () => {
      const start = performance.now();
      bench.core.cache.putReports(bench.profileId, samplePage.reports, new Date().toISOString());
      return performance.now() - start;
    };

    const variants = { gateway: viaGateway, fetch: viaFetch, client: viaClient, cacheWrite };
    const names = Object.keys(variants) as (keyof typeof variants)[];
    const samples: Record<keyof typeof variants, number[]> = {
      gateway: [],
      fetch: [],
      client: [],
      cacheWrite: [],
    };
    const answerThenWrite: number[] = [];
    for (let round = 0; round < WARM_UP + ROUNDS; round++) {
      // Rotate the order each round, so no variant always runs on a cold or a warm path.
      for (let i = 0; i < names.length; i++) {
        const name = names[(round + i) % names.length];
        const ms = await variants[name]();
        // The gateway writes the page through right after answering: let that finish (timed
        // apart) so it never lands in the next variant's figure.
        const settleStart = performance.now();
        await new Promise((resolve) => setImmediate(resolve));
        if (round >= WARM_UP) {
          samples[name].push(ms);
          if (name === 'gateway') answerThenWrite.push(ms + performance.now() - settleStart);
        }
      }
    }
    note(BENCH, `${ROUNDS} interleaved rounds after ${WARM_UP} warm-up rounds`);
    const gatewayMs = samples.gateway;
    const fetchMs = samples.fetch;
    info(BENCH, 'client_only_median', round(median(samples.client), 3), 'ms');
    info(BENCH, 'cache_write_100_median', round(median(samples.cacheWrite), 3), 'ms');

    const gatewayMedian = median(gatewayMs);
    const fetchMedian = median(fetchMs);
    info(BENCH, 'gateway_median', round(gatewayMedian, 3), 'ms');
    info(BENCH, 'gateway_p95', round(percentile(gatewayMs, 95), 3), 'ms');
    info(BENCH, 'gateway_answer_then_write_median', round(median(answerThenWrite), 3), 'ms');
    info(BENCH, 'bare_fetch_median', round(fetchMedian, 3), 'ms');
    info(BENCH, 'bare_fetch_p95', round(percentile(fetchMs, 95), 3), 'ms');
    info(BENCH, 'added_median', round(gatewayMedian - fetchMedian, 3), 'ms');
    const ratio = gatewayMedian / fetchMedian;
    emit({
      bench: BENCH,
      metric: 'ratio',
      value: round(ratio),
      unit: 'x',
      goal: '<= 1.2x',
      met: ratio <= 1.2,
    });

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
