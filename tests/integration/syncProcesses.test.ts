/**
 * Full syncs of one profile from several REAL processes at once (issue 9): `report-desk cache
 * sync` runs and the app's gateway in child processes, on one data dir (a real SQLite file,
 * the real keychain under scripts/with-keyring.sh), against the reference service on
 * 127.0.0.1 made slow, or made to misbehave (a deletion during the listing, `page` ignored).
 *
 * What must hold: one sync per profile at a time (the others are refused with exit 9 and one
 * sentence), the cache ends equal to the service's set, a kill -9 does not block the next sync
 * (its claim names a process that is gone), and nothing live is ever pruned.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfilesState, SyncSummary } from '../../shared/contract';
import type { AppError } from '../../shared/errors';
import { SYNC_CONCURRENCY } from '../../electron/core/cache/fullSync';
import { PAGES_AHEAD_PER_REQUEST, PAGES_IN_FLIGHT } from '../../shared/paging';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { dataPaths } from '../../electron/core/services';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { cachedReports } from '../helpers/cacheDatabase';
import { finished, spawnCliCaptured, type CliRun } from '../helpers/cli';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APP_SYNC_CHILD = join(ROOT, 'tests/fixtures/gatewaySyncChild.ts');
const REPORTS = 400;
/** Per request: a sync of 400 reports (5 pages) takes well over a second, so runs overlap. */
const LATENCY_MS = 250;
const REFUSAL =
  /^A sync of the profile "race" is already running in another ReportDesk window or command; wait for it to finish, then run "report-desk cache sync" again\.\n$/;

let service: DemoService;
let dataDir: string;
let scope: string;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    REPORT_DESK_DATA_DIR: dataDir,
    REPORT_DESK_RETRY_BASE_MS: '1',
    REPORT_DESK_API_KEY: '',
    ...extra,
  };
}

const cli = (args: string[], extra?: Record<string, string>) => spawnCliCaptured(args, env(extra));

/** The app's "Make available offline" in its own process (the gateway, real keychain). */
function appSync(
  mode: 'full' | 'quick' = 'full',
): Promise<{ ok: true; value: SyncSummary } | { ok: false; error: AppError }> {
  return appSide(mode);
}

/** The app's side in its own process (tests/fixtures/gatewaySyncChild.ts), for `mode`. */
async function appSide<T>(
  mode: 'full' | 'quick' | 'export',
): Promise<{ ok: true; value: T } | { ok: false; error: AppError }> {
  const { code, stdout, stderr } = await finished(
    spawn(process.execPath, ['--import', 'tsx', APP_SYNC_CHILD, dataDir, mode], {
      cwd: ROOT,
      env: { ...process.env, ...env() },
    }),
  );
  try {
    return JSON.parse(stdout) as { ok: true; value: T } | { ok: false; error: AppError };
  } catch {
    throw new Error(`the app side (${mode}) exited ${code} without a result: ${stderr}`);
  }
}

/** Every report id the service holds now, read page by page at full speed. */
async function serviceIds(): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; page < 100; page++) {
    const response = await fetch(
      `${service.baseUrl}/api/v1/reports?per_page=100&sort_by=id&sort=asc&page=${page}`,
      { headers: { Authorization: `Bearer ${service.apiKey}`, Accept: 'application/json' } },
    );
    const body = (await response.json()) as { data: { id: number }[]; meta: { last_page: number } };
    ids.push(...body.data.map((r) => String(r.id)));
    if (page >= body.meta.last_page) break;
  }
  return ids.sort();
}

function cachedIds(): string[] {
  const cache = ReportCache.open(dataPaths(dataDir).cache);
  try {
    expect(cache.integrityCheck()).toBe('ok');
    return cachedReports(cache, scope)
      .map((report) => report.id)
      .sort();
  } finally {
    cache.close();
  }
}

/** Changes the service between runs: deletes `n` reports and creates `n`, so a sync has work. */
async function churn(n: number): Promise<void> {
  const ids = await serviceIds();
  const headers = { Authorization: `Bearer ${service.apiKey}` };
  for (let i = 0; i < n; i++) {
    const id = ids[(i * 37) % ids.length];
    await fetch(`${service.baseUrl}/api/v1/reports/${id}`, { method: 'DELETE', headers });
  }
  for (let i = 0; i < n; i++) {
    await fetch(`${service.baseUrl}/api/v1/reports`, {
      method: 'POST',
      headers: {
        ...headers,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: `url=${encodeURIComponent(`https://churn-${Date.now()}-${i}.example.org`)}`,
    });
  }
}

/** Runs `work` against a slow service (every request waits LATENCY_MS); set-up and checks stay fast. */
async function slowly<T>(work: () => Promise<T>): Promise<T> {
  service.faults.setLatency(LATENCY_MS);
  try {
    return await work();
  } finally {
    service.faults.setLatency(0);
  }
}

function listRequests(): number {
  return service.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/reports').length;
}

function expectOkOrRefused(run: CliRun): 'ok' | 'refused' {
  if (run.code === 0) return 'ok';
  expect(run.code, run.stderr).toBe(9);
  expect(run.stderr).toMatch(REFUSAL);
  return 'refused';
}

beforeAll(async () => {
  service = await startDemoService({ reportsPerAccount: REPORTS });
  dataDir = mkdtempSync(join(tmpdir(), 'report-desk-sync-processes-'));
  // The key goes in on stdin, as a user pipes it; it lands in the (test) keychain.
  const added = await spawnCliCaptured(
    ['profiles', 'add', 'race', '--base-url', service.baseUrl],
    env(),
    service.apiKey,
  );
  expect(added.code, added.stderr).toBe(0);
  const state = JSON.parse((await cli(['profiles', 'list', '--json'])).stdout) as ProfilesState;
  scope = state.activeId!;
  expect(scope).toBeTruthy();
}, 60_000);

afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('one full sync per profile across processes', () => {
  it.each([2, 3])(
    '%i concurrent `cache sync` runs, five times: one at a time, the cache equals the service every time',
    async (processes) => {
      const outcomes: string[] = [];
      for (let round = 0; round < 5; round++) {
        await churn(3);
        const runs = await slowly(() =>
          Promise.all(Array.from({ length: processes }, () => cli(['cache', 'sync', '--json']))),
        );
        const results = runs.map(expectOkOrRefused);
        expect(results).toContain('ok');
        outcomes.push(...results);
        for (const run of runs.filter((r) => r.code === 0)) {
          expect(JSON.parse(run.stdout)).toMatchObject({ pruned: true, reason: null });
        }
        expect(cachedIds()).toEqual(await serviceIds());
      }
      // The runs did overlap: at least one was refused over the five rounds.
      expect(outcomes).toContain('refused');
    },
    180_000,
  );

  it('the app (gateway) racing a CLI sync, five times: one refused or both after each other, the cache equals the service', async () => {
    let refusals = 0;
    for (let round = 0; round < 5; round++) {
      await churn(3);
      const [app, run] = await slowly(() => Promise.all([appSync(), cli(['cache', 'sync', '--json'])]));
      const cliOutcome = expectOkOrRefused(run);
      if (!app.ok) {
        // The core's own sentence, as the renderer shows it.
        expect(app.error).toMatchObject({
          kind: 'busy',
          reason: 'sync_running',
          message:
            'A sync of this profile is already running in another ReportDesk window or command; wait for it to finish, then try again.',
        });
        refusals++;
      } else {
        expect(app.value).toMatchObject({ pruned: true, reason: null });
      }
      if (cliOutcome === 'refused') refusals++;
      expect(app.ok || cliOutcome === 'ok').toBe(true);
      expect(cachedIds()).toEqual(await serviceIds());
    }
    expect(refusals).toBeGreaterThan(0);
  }, 180_000);

  it("the app's quick refresh racing a CLI sync, five times: one refused with its sentence or both in turn, nothing lost", async () => {
    let refusals = 0;
    for (let round = 0; round < 5; round++) {
      await churn(3);
      const before = new Set(cachedIds());
      const added = (await serviceIds()).filter((id) => !before.has(id));
      const [app, run] = await slowly(() =>
        Promise.all([appSync('quick'), cli(['cache', 'sync', '--json'])]),
      );
      const cliOutcome = expectOkOrRefused(run);
      if (!app.ok) {
        expect(app.error).toMatchObject({ kind: 'busy', reason: 'sync_running' });
        refusals++;
      } else {
        expect(app.value).toMatchObject({ mode: 'quick', pruned: false, complete: false });
      }
      expect(app.ok || cliOutcome === 'ok').toBe(true);
      // Whatever ran first, the new reports are in the copy.
      const cached = cachedIds();
      expect(added.filter((id) => !cached.includes(id))).toEqual([]);
      if (cliOutcome === 'refused') {
        refusals++;
        // The user runs it again, as the refusal says: then the copy equals the service.
        expect((await cli(['cache', 'sync'])).code).toBe(0);
      }
      expect(cachedIds()).toEqual(await serviceIds());
    }
    expect(refusals).toBeGreaterThan(0);
  }, 180_000);

  it('after a kill -9 of the process holding the sync, the next sync takes its claim over at once', async () => {
    await churn(3);
    // Two list requests are answered, every later one hangs: the child cannot finish (and
    // release its lease) before the kill, however slowly this machine runs it.
    service.faults.add({ method: 'GET', path: '/api/v1/reports', times: 2 });
    service.faults.add({ method: 'GET', path: '/api/v1/reports', delayMs: 60_000 });
    const child = spawn(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', 'cache', 'sync'], {
      cwd: ROOT,
      env: { ...process.env, ...env() },
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_c, signal) => resolve(signal)),
    );
    // Progress goes to stderr, one line per stored page: kill once a page is stored.
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        if (/^Page \d+/m.test(chunk.toString())) resolve();
      });
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    service.faults.clear();

    const cache = ReportCache.open(dataPaths(dataDir).cache);
    try {
      // The dead process's claim is still in the file and has not run out (20 s)…
      const lease = cache.leases.held(scope);
      expect(lease).not.toBeNull();
      expect(lease!.expiresAt).toBeGreaterThan(Date.now());
    } finally {
      cache.close();
    }
    // …but it names a process that is gone from this computer: the next sync goes ahead now,
    // resumes, and settles the copy (issue 30: no waiting out a dead owner's lease).
    const next = await cli(['cache', 'sync', '--json']);
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ pruned: true, reason: null });
    expect(cachedIds()).toEqual(await serviceIds());
  }, 120_000);
});

describe("the export's deferred writes across processes", () => {
  it('an export in the app racing a CLI sync against a slow service that rate-limits once: both finish, nothing is lost', async () => {
    await churn(3);
    // Unlike the reference service: slow, and one list request refused with 429 and Retry-After.
    service.faults.add({
      method: 'GET',
      path: '/api/v1/reports',
      status: 429,
      headers: { 'Retry-After': '1' },
      times: 1,
    });
    const [exported, run] = await slowly(() =>
      Promise.all([
        appSide<{ count: number; pages: number; pendingAfter: number }>('export'),
        cli(['cache', 'sync', '--json']),
      ]),
    );
    service.faults.clear();
    expect(run.code, run.stderr).toBe(0);
    const live = await serviceIds();
    expect(exported).toEqual({
      ok: true,
      value: { count: live.length, pages: Math.ceil(live.length / 100), pendingAfter: 0 },
    });
    // The export's pages, written after or between the sync's, leave the copy equal to the service.
    expect(cachedIds()).toEqual(live);
  }, 120_000);
});

describe('prune only what is provably gone', () => {
  it('a deletion during a sync: one `cache sync` settles it, exit 0, complete, the copy equal to the service', async () => {
    expect((await cli(['cache', 'sync'])).code).toBe(0);
    const before = await serviceIds();
    expect(cachedIds()).toEqual(before);

    // The first report of page 1 is deleted once page 2 was served: page 3 onwards shifts by one.
    service.faults.deleteDuringListing({ afterPage: 2 });
    const run = await cli(['cache', 'sync', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const live = await serviceIds();
    expect(before.filter((id) => !live.includes(id))).toHaveLength(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ complete: true, pruned: true, passes: 2, removed: 1 });
    expect(cachedIds()).toEqual(live);
  }, 120_000);

  it('a deletion during every read: `cache sync` says the copy may be incomplete, and no live report is missing', async () => {
    expect((await cli(['cache', 'sync'])).code).toBe(0);
    service.faults.deleteDuringListing({ afterPage: 2, times: 3 });
    const run = await cli(['cache', 'sync']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /The reports on the service kept changing while they were read \(3 reads\), so the offline copy may be incomplete and no cached report was removed; run the sync again later to settle it\.\n$/,
    );
    expect(run.stdout).not.toContain('complete.');
    const live = await serviceIds();
    const cached = cachedIds();
    expect(live.filter((id) => !cached.includes(id))).toEqual([]);
    // At rest, the next one settles it.
    const json = await cli(['cache', 'sync', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ complete: true, passes: 1, removed: 3 });
    expect(cachedIds()).toEqual(live);
  }, 120_000);

  it('a service that ignores `page` ends the sync and `reports list --all` within a few requests, with a sentence', async () => {
    expect((await cli(['cache', 'sync'])).code).toBe(0);
    const cachedBefore = cachedIds();
    service.faults.ignorePage();
    try {
      const start = listRequests();
      const run = await cli(['cache', 'sync', '--json']);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        pruned: false,
        reason: 'paging_ignored',
        fetched: 100,
        pages: 1,
      });
      // Page 1 alone, then the few pages asked ahead before page 2 ends the walk.
      const asked = listRequests() - start;
      expect(asked).toBeGreaterThanOrEqual(2);
      expect(asked).toBeLessThanOrEqual(1 + PAGES_AHEAD_PER_REQUEST * SYNC_CONCURRENCY);
      const text = await cli(['cache', 'sync']);
      expect(text.stdout).toMatch(
        /The Report Service seems to ignore paging \(it sent the same reports again for the next page\), so the sync stopped after 1 page with 100 reports and no cached report was removed\.\n$/,
      );
      // Nothing was pruned.
      expect(cachedIds()).toEqual(cachedBefore);

      const listStart = listRequests();
      const all = await cli(['reports', 'list', '--all', '--per-page', '10']);
      expect(all.code).toBe(8);
      // Four in flight, as the sync: page 1 alone, then at most eight asked ahead of page 2.
      const listed = listRequests() - listStart;
      expect(listed).toBeGreaterThanOrEqual(2);
      expect(listed).toBeLessThanOrEqual(1 + PAGES_AHEAD_PER_REQUEST * PAGES_IN_FLIGHT);
      // The count is the walk's (an aborted request ahead may not have reached the service).
      expect(all.stderr).toMatch(
        /^The Report Service sent the same reports again for page 2, so it seems to ignore paging; stopped after 10 reports from [2-9] requests\. List the pages one by one with --page instead of --all\.\n$/,
      );
    } finally {
      service.faults.clear();
    }
  }, 120_000);
});
