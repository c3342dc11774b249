/**
 * Faults in the middle of a full sync, with the real parts: the reference service stops after
 * the first page and comes back on the same port (the sync completes with everything, without
 * starting over), and a process doing a sync is killed with SIGKILL (the cache file opens,
 * passes SQLite's integrity check, answers queries, and a new sync resumes where it stopped).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncProgress } from '../../shared/contract';
import { AppFailure } from '../../shared/errors';
import { normalizeListQuery } from '../../shared/model';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { loadScopeSalt, saltedScope } from '../../electron/core/cache/scopeSalt';
import { MemoryKeyStore } from '../../electron/core/keys/keyStore';
import { createCoreServices } from '../../electron/core/services';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { tempCore, type TempCore } from './helpers';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `reportdesk-reliability-${prefix}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A service whose data lives in a file, so a restart on the same port serves the same reports. */
async function restartableService(reports: number) {
  const dataFile = join(tempFolder('service'), 'service.json');
  let service = await startDemoService({ reportsPerAccount: 10, dataFile });
  service.seedReports(reports);
  const port = Number(new URL(service.baseUrl).port);
  const handle = {
    get current(): DemoService {
      return service;
    },
    async restart(): Promise<DemoService> {
      service = await startDemoService({ port, dataFile });
      return service;
    },
  };
  cleanups.push(() => service.stop());
  return handle;
}

/** The page numbers of the list requests a service received. */
function listPagesRequested(service: DemoService): number[] {
  return service.requests
    .filter((r) => r.method === 'GET' && r.path === '/api/v1/reports')
    .map((r) => Number(new URLSearchParams(r.query).get('page') ?? '1'));
}

async function coreWithProfile(
  service: DemoService,
  retry: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number },
): Promise<TempCore> {
  const app = await tempCore('sync', { client: { timeoutMs: 2_000, retry } });
  cleanups.push(() => app.close());
  await app.core.handlers['profiles:add']({
    name: 'Sync',
    baseUrl: service.baseUrl,
    apiKey: service.apiKey,
    allowInsecureHttp: false,
    sessionOnly: false,
  });
  return app;
}

describe('the service stops in the middle of a full sync', () => {
  it('comes back on the same port and the sync completes with everything, not from page 1', async () => {
    const service = await restartableService(1_000);
    const first = service.current;
    // Enough patient retries to outlast a short outage whatever the jitter draws.
    const app = await coreWithProfile(first, { maxAttempts: 30, baseDelayMs: 100, maxDelayMs: 100 });
    let outage: Promise<void> | null = null;
    app.core.events.subscribe((event, payload) => {
      const progress = payload as SyncProgress;
      if (event !== 'sync:progress' || progress.phase !== 'fetching' || progress.page !== 1 || outage) return;
      // stop() refuses new connections synchronously: the request for page 2 meets a closed port.
      outage = first
        .stop()
        .then(() => new Promise((resolve) => setTimeout(resolve, 300)))
        .then(() => service.restart())
        .then(() => undefined);
    });

    const summary = await app.core.handlers['cache:sync'](undefined);
    expect(outage).not.toBeNull();
    await outage;
    expect(summary.fetched).toBe(1_000);
    expect(summary.removed).toBe(0);
    const scope = app.core.profiles.activeId()!;
    expect(app.core.cache.status(scope).reportCount).toBe(1_000);
    expect(app.core.cache.status(scope).lastFullSyncAt).not.toBeNull();
    // The old service served page 1 only; the new one carried on from page 2.
    expect(listPagesRequested(first).filter((p) => p > 1)).toEqual([]);
    const after = listPagesRequested(service.current);
    expect(Math.min(...after)).toBe(2);
    expect(Math.max(...after)).toBe(10);
  });

  it('when the outage outlasts the retries, the sync fails in a sentence and the next one resumes', async () => {
    const service = await restartableService(1_000);
    const first = service.current;
    const app = await coreWithProfile(first, { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 10 });
    let stopping: Promise<void> | null = null;
    app.core.events.subscribe((event, payload) => {
      const progress = payload as SyncProgress;
      if (event === 'sync:progress' && progress.phase === 'fetching' && progress.page === 3 && !stopping) {
        stopping = first.stop();
      }
    });

    const thrown = await app.core.handlers['cache:sync'](undefined).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(thrown).toBeInstanceOf(AppFailure);
    expect((thrown as AppFailure).error.kind).toBe('network');
    await stopping;
    const scope = app.core.profiles.activeId()!;
    // Pages are asked a few at a time but written in order: pages 1–3 at least, whole pages
    // only (a page that had already arrived when the service stopped may be written too).
    const kept = app.core.cache.status(scope).reportCount;
    expect(kept).toBeGreaterThanOrEqual(300);
    expect(kept % 100).toBe(0);

    const back = await service.restart();
    const summary = await app.core.handlers['cache:sync'](undefined);
    expect(summary.fetched).toBe(1_000);
    expect(app.core.cache.status(scope).reportCount).toBe(1_000);
    // The next sync reads the last page written again (nothing shifted), then resumes after it.
    expect(Math.min(...listPagesRequested(back))).toBe(kept / 100);
  });
});

describe('kill -9 in the middle of a sync', () => {
  it('leaves a cache that opens, passes the integrity check, answers queries and resumes', async () => {
    const service = await restartableService(2_000);
    const running = service.current;
    // Slow pages, so the kill lands mid-sync and not after it.
    running.faults.add({ method: 'GET', path: '/api/v1/reports', delayMs: 150, passThrough: true });
    const dataDir = join(tempFolder('killed'), 'data');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, 'fixtures', 'killableCoreSyncChild.ts'),
        dataDir,
        running.baseUrl,
        running.apiKey,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code)),
    );
    const lines: string[] = [];
    for await (const line of createInterface({ input: child.stdout })) {
      lines.push(line);
      if (line === 'page 3') {
        child.kill('SIGKILL');
        break;
      }
    }
    expect(await exited, `child output: ${lines.join(' | ')} ${stderr}`).toBe('SIGKILL');
    expect(lines).toContain('page 3');
    expect(lines.some((line) => line.startsWith('done'))).toBe(false);

    const scope = saltedScope(loadScopeSalt(dataDir), running.baseUrl, running.apiKey);
    const cache = ReportCache.open(join(dataDir, 'cache.sqlite'));
    let kept: number;
    let leaseEnds: number;
    try {
      expect(cache.integrityCheck()).toBe('ok');
      // The killed sync's claim outlives it by at most the lease (see fullSync.ts).
      leaseEnds = cache.leases.held(scope)?.expiresAt ?? 0;
      expect(leaseEnds).toBeGreaterThan(0);
      kept = cache.status(scope).reportCount;
      // Pages are written whole or not at all.
      expect(kept).toBeGreaterThanOrEqual(300);
      expect(kept).toBeLessThan(2_000);
      expect(kept % 100).toBe(0);
      const { page } = cache.query(scope, normalizeListQuery({ per_page: 25, sort_by: 'url', sort: 'asc' }));
      expect(page.reports).toHaveLength(25);
      expect(page.total).toBe(kept);
      const urls = page.reports.map((r) => r.url);
      expect([...urls].sort()).toEqual(urls);
      const searched = cache.query(scope, normalizeListQuery({ search: 'contoso', per_page: 100 }));
      expect(searched.page.reports.every((r) => r.url.toLowerCase().includes('contoso'))).toBe(true);
    } finally {
      cache.close();
    }

    // The same data dir, a new process (this one): the sync resumes after the last stored page.
    running.faults.clear();
    const requestsBefore = running.requests.length;
    const resumed = await createCoreServices({
      dataDir,
      keyStore: new MemoryKeyStore(),
      // A clock past the dead process's lease, instead of waiting it out.
      now: () => new Date(Math.max(Date.now(), leaseEnds + 1)),
      probeIntervalMs: 0,
      fixedConnection: { baseUrl: running.baseUrl, apiKey: running.apiKey, allowInsecureHttp: false },
    });
    cleanups.push(() => resumed.close());
    const summary = await resumed.handlers['cache:sync'](undefined);
    expect(summary.fetched).toBe(2_000);
    expect(resumed.cache.status(scope).reportCount).toBe(2_000);
    expect(resumed.cache.integrityCheck()).toBe('ok');
    const pagesAfterKill = running.requests
      .slice(requestsBefore)
      .filter((r) => r.path === '/api/v1/reports')
      .map((r) => Number(new URLSearchParams(r.query).get('page') ?? '1'));
    // The last page written again (nothing shifted), then on after it.
    expect(Math.min(...pagesAfterKill)).toBe(kept / 100);
  });
});
