/**
 * The gateway end to end: real reference service over HTTP on 127.0.0.1, a real SQLite file in
 * a temporary data dir, and the real keychain (gnome-keyring via keytar) when run under
 * scripts/with-keyring.sh. Each test builds on the state the previous one left, as a user would.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractHandlers, EventName, SyncProgress } from '../../shared/contract';
import { AppFailure, type AppError } from '../../shared/errors';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { createCoreServices, type CoreServices } from '../../electron/core/services';
import { inProcessDemoLauncher } from '../../electron/demo-service/launcher';
import { KeytarKeyStore } from '../../electron/core/keys/keyStore';
import { createLogger, memorySink } from '../../electron/core/log';
import { findSecrets } from '../helpers/secrets';
import { REAL_KEYCHAIN, testKeyStore } from '../helpers/keychain';

const KEY_A = 'key-alice-0123456789abcdef';
const KEY_B = 'key-bob-fedcba9876543210';
const REPORT_PASSWORD = 'correct-horse-battery-staple';

const accounts = [
  { apiKey: KEY_A, account: { id: 1, name: 'Alice', email: 'alice@example.test' } },
  { apiKey: KEY_B, account: { id: 2, name: 'Bob', email: 'bob@example.test' } },
];

async function expectError(promise: Promise<unknown>, kind: AppError['kind']): Promise<AppError> {
  try {
    await promise;
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(AppFailure);
    const error = (thrown as AppFailure).error;
    expect(error.kind).toBe(kind);
    expect(error.message.length).toBeGreaterThan(20);
    return error;
  }
  throw new Error(`expected a ${kind} error, but the call succeeded`);
}

describe('gateway over real HTTP, SQLite and keychain', () => {
  let service: DemoService;
  let port: number;
  let dataDir: string;
  let core: CoreServices;
  let h: ContractHandlers;
  const logs = memorySink();
  const keychain = testKeyStore();
  const events: { name: EventName; payload: unknown }[] = [];

  beforeAll(async () => {
    service = await startDemoService({ accounts, reportsPerAccount: 120 });
    port = Number(new URL(service.baseUrl).port);
    dataDir = mkdtempSync(join(tmpdir(), 'report-desk-gateway-'));
    core = await createCoreServices({
      dataDir,
      keyStore: keychain.store,
      logger: createLogger('test', logs, 'debug'),
      probeIntervalMs: 0,
      client: { timeoutMs: 2_000, retry: { baseDelayMs: 5, maxDelayMs: 50 } },
      demoLauncher: inProcessDemoLauncher,
    });
    h = core.handlers;
    core.events.subscribe((name, payload) => events.push({ name, payload }));
  });

  afterAll(async () => {
    await core?.close();
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts with no profile and says so', async () => {
    expect(await h['profiles:list'](undefined)).toEqual({ profiles: [], activeId: null });
    await expectError(h['reports:list']({}), 'no_profile');
  });

  it('refuses a rejected key and saves nothing', async () => {
    await expectError(
      h['profiles:add']({
        name: 'Work',
        baseUrl: service.baseUrl,
        apiKey: 'not-a-valid-key',
        allowInsecureHttp: false,
        sessionOnly: false,
      }),
      'unauthorized',
    );
    expect((await h['profiles:list'](undefined)).profiles).toEqual([]);
  });

  it('adds a profile whose key lands in the keychain, never in the profiles file', async () => {
    const view = await h['profiles:add']({
      name: 'Work',
      baseUrl: service.baseUrl + '/api/v1/',
      apiKey: KEY_A,
      allowInsecureHttp: false,
      sessionOnly: false,
    });
    expect(view).toMatchObject({ name: 'Work', baseUrl: service.baseUrl, hasKey: true, keyHint: 'cdef' });
    expect(view.keyStorage).toBe('keychain');
    expect(JSON.stringify(view)).not.toContain(KEY_A);
    expect((await h['profiles:list'](undefined)).activeId).toBe(view.id);
    expect(await keychain.store.get(view.id)).toBe(KEY_A);
    if (REAL_KEYCHAIN) {
      // Read it back through keytar itself: it really is in the Secret Service.
      const keytar = createRequire(import.meta.url)('keytar');
      expect(await keytar.getPassword(keychain.service, view.id)).toBe(KEY_A);
    }
    expect(readFileSync(join(dataDir, 'profiles.json'), 'utf8')).not.toContain(KEY_A);
  });

  it('lists from the network and writes through to the cache', async () => {
    const page = await h['reports:list']({ per_page: 25, sort_by: 'url', sort: 'asc' });
    expect(page.source).toBe('network');
    expect(page.reports).toHaveLength(25);
    expect(page.total).toBe(120);
    const urls = page.reports.map((r) => r.url);
    expect([...urls].sort((a, b) => a.localeCompare(b))).toEqual(urls);
    const status = await h['cache:status'](undefined);
    expect(status.reportCount).toBe(25);
    expect(status.sizeBytes).toBeGreaterThan(0);
  });

  it('creates, reads, re-protects and deletes a report, keeping the cache in step', async () => {
    const created = await h['reports:create']({ url: 'https://example.org/pricing', privacy: 0 });
    expect(created.url).toBe('https://example.org/pricing');
    const got = await h['reports:get']({ id: created.id });
    expect(got.source).toBe('network');
    expect(got.report.id).toBe(created.id);

    const updated = await h['reports:update']({
      id: created.id,
      changes: { privacy: 2, password: REPORT_PASSWORD },
    });
    expect(updated.privacy).toBe(2);
    expect(JSON.stringify(updated)).not.toContain(REPORT_PASSWORD);
    expect(core.cache.getReport(core.profiles.activeId()!, created.id)?.report.privacy).toBe(2);

    await expect(h['reports:delete']({ id: created.id })).resolves.toEqual({ deleted: created.id });
    expect(core.cache.getReport(core.profiles.activeId()!, created.id)).toBeNull();
    await expectError(h['reports:get']({ id: created.id }), 'not_found');
  });

  it('removes a cached report that the service answers 404 for', async () => {
    const scope = core.profiles.activeId()!;
    const { reports } = await h['reports:list']({});
    const victim = reports[0]!;
    // Delete it behind the gateway's back, straight at the service.
    const response = await fetch(`${service.baseUrl}/api/v1/reports/${victim.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${KEY_A}` },
    });
    expect(response.status).toBe(204);
    expect(core.cache.getReport(scope, victim.id)).not.toBeNull();
    await expectError(h['reports:get']({ id: victim.id }), 'not_found');
    expect(core.cache.getReport(scope, victim.id)).toBeNull();
  });

  it('makes everything available offline, with progress, resuming after a failure mid-way', async () => {
    const progress: SyncProgress[] = [];
    const stop = core.events.subscribe((name, payload) => {
      if (name === 'sync:progress') progress.push(payload as SyncProgress);
    });
    // Once page 1 is stored, page 2 fails on every attempt the client makes (an HTML 503).
    let faultArmed = false;
    const arm = core.events.subscribe((name, payload) => {
      const p = payload as SyncProgress;
      if (name === 'sync:progress' && p.phase === 'fetching' && p.fetched >= 100 && !faultArmed) {
        faultArmed = true;
        service.faults.add({
          method: 'GET',
          path: '/api/v1/reports',
          status: 503,
          body: '<html><body><h1>503 Service Unavailable</h1></body></html>',
          contentType: 'text/html',
          times: 2,
        });
      }
    });
    await expectError(h['cache:sync'](undefined), 'server_error');
    arm();
    expect(faultArmed).toBe(true);
    expect(progress.at(-1)?.phase).toBe('failed');
    // Page 1 was kept: the next run resumes rather than starting over.
    expect((await h['cache:status'](undefined)).reportCount).toBeGreaterThanOrEqual(100);
    const requestsBefore = service.requests.length;

    const summary = await h['cache:sync'](undefined);
    stop();
    expect(summary.fetched).toBeGreaterThan(0);
    const resumedPages = service.requests
      .slice(requestsBefore)
      .filter((r) => r.method === 'GET' && r.path === '/api/v1/reports');
    // Page 1 once more (does it still end where the failed run left off?), then on from page 2:
    // the pages kept are not read again.
    const asked = resumedPages.map((r) => new URLSearchParams(r.query).get('page') ?? '1');
    expect(asked[0]).toBe('1');
    expect(asked.filter((page) => page === '1')).toHaveLength(1);
    const status = await h['cache:status'](undefined);
    expect(status.reportCount).toBe(service.reportCount(KEY_A));
    expect(status.lastFullSyncAt).not.toBeNull();
    expect(progress.at(-1)?.phase).toBe('done');
    expect(progress.some((p) => p.phase === 'fetching' && p.fetched > 0)).toBe(true);
  });

  it('prunes reports the service no longer has on the next full sync', async () => {
    const scope = core.profiles.activeId()!;
    const { reports } = await h['reports:list']({ sort: 'asc' });
    const gone = reports[0]!;
    await fetch(`${service.baseUrl}/api/v1/reports/${gone.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${KEY_A}` },
    });
    expect(core.cache.getReport(scope, gone.id)).not.toBeNull();
    const summary = await h['cache:sync'](undefined);
    expect(summary.removed).toBe(1);
    expect(core.cache.getReport(scope, gone.id)).toBeNull();
  });

  it('keeps browsing and searching from the cache when the service is down, and refuses writes', async () => {
    const before = events.length;
    await service.stop();

    const page = await h['reports:list']({ search: 'https', per_page: 10, result: 'good' });
    expect(page.source).toBe('cache');
    expect(page.reports.length).toBeGreaterThan(0);
    expect(page.reports.every((r) => r.result === 'good' && r.url.includes('https'))).toBe(true);
    expect(Date.parse(page.fetchedAt)).not.toBeNaN();

    const connectivity = await h['connectivity:status'](undefined);
    expect(connectivity.online).toBe(false);
    expect(connectivity.lastError?.kind).toBe('network');
    expect(events.slice(before).some((e) => e.name === 'connectivity:changed')).toBe(true);

    const account = await h['account:get'](undefined);
    expect(account.source).toBe('cache');
    expect(account.account).toMatchObject({ name: 'Alice' });

    const cachedOne = page.reports[0]!;
    expect((await h['reports:get']({ id: cachedOne.id })).source).toBe('cache');

    await expectError(h['reports:create']({ url: 'https://example.org/offline', privacy: 0 }), 'offline');
    expect((await h['connectivity:check'](undefined)).online).toBe(false);
  });

  it('comes back online when the service is back', async () => {
    service = await startDemoService({ accounts, reportsPerAccount: 120, port });
    expect((await h['connectivity:check'](undefined)).online).toBe(true);
    expect((await h['reports:list']({})).source).toBe('network');
  });

  it('clears the cache when the key is replaced by one of another account', async () => {
    const scope = core.profiles.activeId()!;
    expect(core.cache.status(scope).reportCount).toBeGreaterThan(50);
    await expectError(
      h['profiles:setKey']({ id: scope, apiKey: 'wrong-key-123456', sessionOnly: false }),
      'unauthorized',
    );
    expect(await keychain.store.get(scope)).toBe(KEY_A);

    const view = await h['profiles:setKey']({ id: scope, apiKey: KEY_B, sessionOnly: false });
    expect(view.keyHint).toBe('3210');
    expect(core.cache.status(scope).reportCount).toBe(0);
    const page = await h['reports:list']({ per_page: 100 });
    expect(page.total).toBe(service.reportCount(KEY_B));
    expect((await h['account:get'](undefined)).account).toMatchObject({ name: 'Bob' });
  });

  it('removes a profile with its key and its cached data', async () => {
    const id = core.profiles.activeId()!;
    const state = await h['profiles:remove']({ id });
    expect(state.profiles.find((p) => p.id === id)).toBeUndefined();
    expect(await keychain.store.get(id)).toBeNull();
    expect(core.cache.status(id).reportCount).toBe(0);
    expect(core.cache.getAccount(id)).toBeNull();
  });

  it('starts the embedded demo service and uses it at once', async () => {
    const state = await h['profiles:startDemo'](undefined);
    const demo = state.profiles.find((p) => p.demo);
    expect(demo).toBeDefined();
    expect(state.activeId).toBe(demo!.id);
    const page = await h['reports:list']({});
    expect(page.source).toBe('network');
    expect(page.reports.length).toBe(10);
  });

  it('rejects what the contract does not allow, with field errors', async () => {
    await expectError(h['shell:openExternal']({ url: 'file:///etc/passwd' }), 'invalid_input');
    await expectError(h['profiles:activate']({ id: 'no-such-profile' }), 'not_found');
  });

  it('never writes a key or a report password to the data dir or the logs', () => {
    const hits = findSecrets(dataDir, [KEY_A, KEY_B, REPORT_PASSWORD], logs.lines);
    expect(hits).toEqual([]);
    // The logs did record activity, so the search had something to search.
    expect(logs.lines.length).toBeGreaterThan(5);
  });
});

describe('gateway when the keychain is unavailable', () => {
  it('offers a session-only key, which is forgotten at restart', async () => {
    const service = await startDemoService({ accounts, reportsPerAccount: 5 });
    const dataDir = mkdtempSync(join(tmpdir(), 'report-desk-nokeychain-'));
    // The real KeytarKeyStore, with keytar failing to load as it does without libsecret.
    const broken = new KeytarKeyStore({
      loadKeytar: () => Promise.reject(new Error('libsecret-1.so.0: cannot open shared object file')),
    });
    try {
      const core = await createCoreServices({ dataDir, keyStore: broken, probeIntervalMs: 0 });
      const input = {
        name: 'Laptop',
        baseUrl: service.baseUrl,
        apiKey: KEY_A,
        allowInsecureHttp: false,
        sessionOnly: false,
      };
      const error = await expectError(core.handlers['profiles:add'](input), 'keychain_unavailable');
      expect(error.message).toMatch(/session/i);
      expect((await core.handlers['profiles:list'](undefined)).profiles).toEqual([]);

      const view = await core.handlers['profiles:add']({ ...input, sessionOnly: true });
      expect(view.keyStorage).toBe('session');
      expect((await core.handlers['reports:list']({})).reports).toHaveLength(5);
      await core.close();

      const restarted = await createCoreServices({ dataDir, keyStore: broken, probeIntervalMs: 0 });
      const after = await restarted.handlers['profiles:list'](undefined);
      expect(after.profiles[0]).toMatchObject({ name: 'Laptop', hasKey: false });
      // The key may well be in a keychain that cannot be read: say that, not "no key stored".
      await expectError(restarted.handlers['reports:list']({}), 'keychain_unavailable');
      await restarted.close();
      expect(findSecrets(dataDir, [KEY_A])).toEqual([]);
    } finally {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
