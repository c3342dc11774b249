/**
 * The export and `reports list --all` walk pages as the sync does (the one walker,
 * shared/paging.ts): up to four requests in flight at the server, written in page order, one
 * at a time after a 429 and none before its Retry-After. The reference service on 127.0.0.1
 * behind the counting proxy (tests/helpers/countingProxy.ts); the gateway's `reports:export`
 * and the CLI in this process, both on a real SQLite data dir.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExportProgress } from '../../shared/contract';
import { PAGES_IN_FLIGHT } from '../../shared/paging';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { runCliCaptured } from '../helpers/cli';
import {
  coreBehindProxy,
  countingProxy,
  expectPacedAfterRateLimit,
  RATE_LIMIT_ONCE,
  type CountingProxy,
} from '../helpers/countingProxy';
import type { TempCore } from '../reliability/helpers';

let service: DemoService;
let proxy: CountingProxy;
let app: TempCore;

beforeEach(async () => {
  service = await startDemoService({ reportsPerAccount: 10 });
  service.seedReports(1_200);
  proxy = await countingProxy(service.baseUrl);
  app = await coreBehindProxy('export-net', proxy, service.apiKey);
  proxy.log.length = 0;
});
afterEach(async () => {
  await app.close();
  await proxy.stop();
  await service.stop();
});

const exportJson = async () =>
  JSON.parse(
    (await app.core.handlers['reports:export']({ query: { sort: 'asc' }, format: 'json' })).content,
  ) as {
    count: number;
    data: { id: string }[];
  };

describe('export over a real network', () => {
  it('keeps up to four requests in flight, asks each page once and writes them in order', async () => {
    service.faults.setLatency(60);
    const exported = await exportJson();
    expect(exported.count).toBe(1_200);
    expect(exported.data.map((r) => r.id)).toEqual(service.reportIds().map(String));
    expect(proxy.maxInFlight()).toBe(PAGES_IN_FLIGHT);
    expect(proxy.log[0]).toMatchObject({ page: 1, inFlightAtStart: 1 });
    expect(proxy.log.map((r) => r.page).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
  });

  it('writes the pages to the offline copy once the walk pauses, not while it runs: every one of them', async () => {
    service.faults.setLatency(20);
    const cache = app.core.cache;
    const pendingAtProgress: number[] = [];
    app.core.events.subscribe((event) => {
      if (event === 'export:progress') pendingAtProgress.push(cache.pendingPages);
    });
    const exported = await exportJson();
    expect(exported.count).toBe(1_200);
    // Pages queue up during the walk instead of being written between its requests.
    expect(Math.max(...pendingAtProgress)).toBeGreaterThan(PAGES_IN_FLIGHT);
    for (let waited = 0; cache.pendingPages > 0 && waited < 5_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(cache.pendingPages).toBe(0);
    const profileId = (await app.core.handlers['profiles:list'](undefined)).activeId!;
    expect(cache.status(profileId).reportCount).toBe(1_200);
  });

  it('after a 429 asks one page at a time, none before its Retry-After, and still exports everything', async () => {
    service.faults.setLatency(20);
    let armed = false;
    app.core.events.subscribe((event, payload) => {
      if (event !== 'export:progress' || armed || (payload as ExportProgress).page !== 1) return;
      armed = true;
      service.faults.add(RATE_LIMIT_ONCE);
    });
    const exported = await exportJson();
    expect(exported.count).toBe(1_200);
    expectPacedAfterRateLimit(proxy, 1_000);
  });

  it('reports list --all walks the same way (the CLI in this process, on the same data dir)', async () => {
    service.faults.setLatency(60);
    const run = await runCliCaptured(['reports', 'list', '--all', '--sort', 'asc', '--json'], {
      env: {
        REPORT_DESK_DATA_DIR: app.dataDir,
        REPORT_DESK_API_KEY: service.apiKey,
        REPORT_DESK_BASE_URL: proxy.baseUrl,
      },
      fetch,
    });
    expect(run.code, run.stderr).toBe(0);
    const listed = JSON.parse(run.stdout) as { data: { id: string }[]; total: number };
    expect(listed.data.map((r) => Number(r.id))).toEqual(service.reportIds());
    expect(proxy.maxInFlight()).toBe(PAGES_IN_FLIGHT);
  });
});
