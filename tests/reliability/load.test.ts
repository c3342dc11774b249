/**
 * A leak check, not a timing check: 2,000 list calls through the contract dispatcher and the
 * gateway, the reference service stopped and started again on the same port every 200 calls,
 * so the core keeps switching between network answers and cache answers. Every call must
 * succeed, and the heap after a forced collection must not grow beyond a bound far above noise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ReportPageResult } from '../../shared/contract';
import { dispatch } from '../../electron/core/ipc/dispatch';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { tempCore, type TempCore } from './helpers';

const CALLS = 2_000;
const SWITCH_EVERY = 200;
const WARM_UP_CALLS = 200;
const MB = 1024 * 1024;
const ALLOWED_GROWTH_MB = 30;

const gc = (globalThis as { gc?: () => void }).gc;

/** Heap in use after the collector has run (or, without --expose-gc, after a pause). */
async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, gc ? 10 : 200));
  }
  return process.memoryUsage().heapUsed;
}

let service: DemoService;
let running = true;
let port: number;
let serviceDir: string;
let app: TempCore;

beforeAll(async () => {
  serviceDir = mkdtempSync(join(tmpdir(), 'reportdesk-reliability-load-'));
  service = await startDemoService({ reportsPerAccount: 500, dataFile: join(serviceDir, 'service.json') });
  port = Number(new URL(service.baseUrl).port);
  app = await tempCore('load', { client: { timeoutMs: 2_000, retry: { maxAttempts: 1 } } });
  await app.core.handlers['profiles:add']({
    name: 'Load',
    baseUrl: service.baseUrl,
    apiKey: service.apiKey,
    allowInsecureHttp: false,
    sessionOnly: false,
  });
  // Everything cached, so any query can be answered while the service is down.
  await app.core.handlers['cache:sync'](undefined);
});

afterAll(async () => {
  await app?.close();
  if (running) await service?.stop();
  rmSync(serviceDir, { recursive: true, force: true });
});

async function toggleService(): Promise<void> {
  if (running) {
    await service.stop();
    running = false;
  } else {
    service = await startDemoService({ port, dataFile: join(serviceDir, 'service.json') });
    running = true;
  }
}

/**
 * Waits (the UI's "Try again") until the gateway sees the restarted service; answers how long
 * that took. Logged, not asserted: this is a leak check. The wait is bounded by the probe's
 * own time-out plus margin.
 */
async function backOnline(): Promise<number> {
  const start = performance.now();
  while (!(await app.core.handlers['connectivity:check'](undefined)).online) {
    if (performance.now() - start > 15_000)
      throw new Error('The gateway did not notice the service was back.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - start;
}

function query(call: number) {
  const sorts = ['id', 'generated_at', 'url', 'result'] as const;
  return {
    per_page: ([10, 25, 50, 100] as const)[call % 4],
    page: 1 + (call % 5),
    sort_by: sorts[call % sorts.length],
    sort: call % 2 === 0 ? ('asc' as const) : ('desc' as const),
    ...(call % 3 === 0 ? { search: 'contoso' } : {}),
    ...(call % 7 === 0 ? { result: 'good' as const } : {}),
  };
}

it(`serves ${CALLS} list calls across outages without an error or a leak`, async () => {
  console.info(
    gc ? 'load: heap measured after global.gc()' : 'load: no --expose-gc; heap measured after settling',
  );
  const sources = { network: 0, cache: 0 };
  const failures: string[] = [];
  let baseline = 0;
  const samplesMb: number[] = [];
  const phases: string[] = [];
  const recoveryMs: number[] = [];

  for (let call = 0; call < WARM_UP_CALLS + CALLS; call++) {
    if (call === WARM_UP_CALLS) baseline = await settledHeap();
    if (call > 0 && call % SWITCH_EVERY === 0) {
      await toggleService();
      if (running) recoveryMs.push(await backOnline());
      if (call > WARM_UP_CALLS) samplesMb.push(((await settledHeap()) - baseline) / MB);
    }
    // Each IPC request arrives as its own event; yielding lets background probes run between.
    await new Promise((resolve) => setImmediate(resolve));
    const asked = query(call);
    const result = await dispatch(app.core.handlers, 'reports:list', asked);
    if (!result.ok) {
      failures.push(`call ${call}: ${result.error.kind} ${result.error.message}`);
      continue;
    }
    const page = result.value as ReportPageResult;
    sources[page.source] += 1;
    phases[Math.floor(call / SWITCH_EVERY)] =
      (phases[Math.floor(call / SWITCH_EVERY)] ?? '') + page.source[0];
    expect(page.page).toBe(asked.page);
    expect(page.reports.length).toBeLessThanOrEqual(asked.per_page);
  }
  const growthMb = ((await settledHeap()) - baseline) / MB;
  console.info(
    `load: heap growth ${growthMb.toFixed(1)} MB; samples ${samplesMb.map((s) => s.toFixed(1)).join(', ')} MB`,
  );

  console.info(
    `load: network/cache answers per phase: ${phases.map((p) => `${(p.match(/n/g) ?? []).length}/${(p.match(/c/g) ?? []).length}`).join(' ')}; ` +
      `ms until the gateway saw the service back: ${recoveryMs.map((ms) => Math.round(ms)).join(', ')}`,
  );
  expect(failures).toEqual([]);
  // Both halves really happened: the service answered, and the cache stood in for it.
  expect(sources.network).toBeGreaterThan(CALLS / 4);
  expect(sources.cache).toBeGreaterThan(CALLS / 4);
  expect(growthMb).toBeLessThan(ALLOWED_GROWTH_MB);
});
