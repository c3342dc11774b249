/**
 * The CLI's profiles, offline cache and data dir, against the reference service on 127.0.0.1,
 * a temporary --data-dir (real SQLite) and the real keychain (gnome-keyring through keytar)
 * when run under scripts/with-keyring.sh; elsewhere an in-memory key store, said out loud by
 * tests/helpers/keychain.ts. Most runs call runCli in-process with an injected clock (so cache
 * ages are exact); a few spawn the real process. The tests build on each other as a user
 * would; the service is stopped for the offline part at the end.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheStatus, ProfilesState, SyncSummary } from '../../shared/contract';
import { AppFailure, appError } from '../../shared/errors';
import { defaultDataDir } from '../../electron/cli/dataDir';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { KeytarKeyStore, MemoryKeyStore, type KeyStore } from '../../electron/core/keys/keyStore';
import { dataPaths } from '../../electron/core/services';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { REAL_KEYCHAIN, testKeyStore } from '../helpers/keychain';
import { findSecrets } from '../helpers/secrets';
import { runCliCaptured, spawnCliCaptured, type CliRun } from '../helpers/cli';
import { skipWhen } from '../helpers/skip';

const KEY_A = 'cli-profile-key-alice-7Qw2Er9Ty';
const KEY_B = 'cli-profile-key-bob-4Ui8Op3As';
const REPORTS_PER_ACCOUNT = 30;
const OFFLINE_REASON = '(the Report Service could not be reached).\n';

let service: DemoService;
const dataDir = mkdtempSync(join(tmpdir(), 'report-desk-cli-profiles-'));
const keychain = testKeyStore();
/** The in-process runs' clock: cache ages are computed from it. */
let clock = new Date();
/** Every stdout/stderr any run produced: none may contain a key. */
const allOutput: string[] = [];

type Run = CliRun;

function record(run: Run): Run {
  allOutput.push(run.stdout, run.stderr);
  return run;
}

/** No key in the environment: profiles are used unless a test sets one. */
function baseEnv(): Record<string, string | undefined> {
  return { REPORT_DESK_DATA_DIR: dataDir, REPORT_DESK_RETRY_BASE_MS: '1', REPORT_DESK_API_KEY: undefined };
}

async function cli(
  args: string[],
  options: {
    env?: Record<string, string | undefined>;
    stdin?: string;
    stdinIsTTY?: boolean;
    keyStore?: KeyStore;
  } = {},
): Promise<Run> {
  return record(
    await runCliCaptured(args, {
      stdin: options.stdin,
      stdinIsTTY: options.stdinIsTTY,
      env: { ...baseEnv(), ...options.env },
      fetch,
      keyStore: options.keyStore ?? keychain.store,
      now: () => clock,
    }),
  );
}

/** The real CLI in its own process (its keychain is keytar's default service, "ReportDesk"). */
async function spawnCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  stdin = '',
): Promise<Run> {
  return record(await spawnCliCaptured(args, { ...baseEnv(), ...env }, stdin));
}

async function profilesState(): Promise<ProfilesState> {
  const run = await cli(['profiles', 'list', '--json']);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as ProfilesState;
}

async function profileId(name: string): Promise<string> {
  const profile = (await profilesState()).profiles.find((p) => p.name === name);
  if (!profile) throw new Error(`no profile ${name}`);
  return profile.id;
}

async function accountName(args: string[], env: Record<string, string | undefined> = {}): Promise<unknown> {
  const run = await cli(['account', '--json', ...args], { env });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { name: unknown }).name;
}

/** What keytar itself holds, bypassing our classes; only meaningful with the real keychain. */
async function keytarPassword(service: string, account: string): Promise<string | null> {
  const keytar = createRequire(import.meta.url)('keytar') as {
    getPassword(service: string, account: string): Promise<string | null>;
  };
  return keytar.getPassword(service, account);
}

beforeAll(async () => {
  service = await startDemoService({
    accounts: [
      { apiKey: KEY_A, account: { id: 1, name: 'Alice', email: 'alice@cli.example' } },
      { apiKey: KEY_B, account: { id: 2, name: 'Bob', email: 'bob@cli.example' } },
    ],
    reportsPerAccount: REPORTS_PER_ACCOUNT,
  });
});

afterAll(async () => {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** What the CLI says when the keychain cannot be used: the environment's key instead of a session-only one. */
const KEYCHAIN_SENTENCE =
  'The system keychain could not be used, so the API key could not be read or saved. Unlock the keychain (or install one: on Linux GNOME Keyring or KWallet with libsecret) and try again, or work without a profile by setting REPORT_DESK_API_KEY and --base-url.\n';

describe('the data dir', () => {
  it('defaults to the folder Electron uses as userData for ReportDesk', () => {
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/x/conf' }, '/home/u')).toBe('/x/conf/ReportDesk');
    expect(defaultDataDir('linux', {}, '/home/u')).toBe('/home/u/.config/ReportDesk');
    expect(defaultDataDir('darwin', {}, '/Users/u')).toBe('/Users/u/Library/Application Support/ReportDesk');
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u')).toBe(
      'C:\\Users\\u\\AppData\\Roaming\\ReportDesk',
    );
  });

  it('--data-dir wins over REPORT_DESK_DATA_DIR', async () => {
    const other = mkdtempSync(join(tmpdir(), 'report-desk-cli-other-'));
    try {
      const run = await cli(['profiles', 'list', '--data-dir', other]);
      expect(run.code).toBe(0);
      expect(existsSync(dataPaths(other).cache)).toBe(true);
      expect(existsSync(dataPaths(dataDir).cache)).toBe(false);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('profiles', () => {
  it('with no profile and no key, says how to set one up', async () => {
    const run = await cli(['reports', 'list']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^No profile is set up and REPORT_DESK_API_KEY is not set\..*profiles add NAME/,
    );
    const list = await cli(['profiles', 'list']);
    expect(list.stdout).toMatch(/^No profiles yet\. Add one: printf %s "\$KEY" \| report-desk profiles add/);
    expect(await profilesState()).toEqual({ profiles: [], activeId: null });
  });

  it('profiles add: empty stdin, two lines or a terminal are exit 2 before anything is sent', async () => {
    const before = service.requests.length;
    const base = ['profiles', 'add', 'Work', '--base-url', service.baseUrl];
    const empty = await cli(base, { stdin: '  \n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^No API key arrived on stdin\. Pipe it in:/);
    const twoLines = await cli(base, { stdin: `${KEY_A}\nsomething-else\n` });
    expect(twoLines.code).toBe(2);
    expect(twoLines.stderr).toMatch(/pipe in only the API key, on one line/);
    const tty = await cli(base, { stdinIsTTY: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toMatch(/reads the API key from stdin so that it never shows on screen/);
    const noUrl = await cli(['profiles', 'add', 'Work'], { stdin: KEY_A });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/profiles add needs --base-url URL/);
    expect(service.requests.length).toBe(before);
  });

  it('profiles add: a rejected key is exit 3 and nothing is saved', async () => {
    const run = await cli(['profiles', 'add', 'Work', '--base-url', service.baseUrl], {
      stdin: 'not-the-right-key-5566\n',
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('rejected the API key');
    expect(service.requests.at(-1)).toMatchObject({ path: '/api/v1/account', authorized: false });
    expect(await profilesState()).toEqual({ profiles: [], activeId: null });
  });

  it('profiles add: a good key lands in the keychain, never in the data dir', async () => {
    const run = await cli(['profiles', 'add', 'Work', '--base-url', `${service.baseUrl}/api/v1/`], {
      stdin: `${KEY_A}\n`,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `Added the profile "Work" (${service.baseUrl}, the key …${KEY_A.slice(-4)} in the system keychain); it is now the active profile.\n`,
    );
    const state = await profilesState();
    expect(state.profiles).toEqual([
      expect.objectContaining({
        name: 'Work',
        baseUrl: service.baseUrl,
        keyHint: KEY_A.slice(-4),
        keyStorage: 'keychain',
      }),
    ]);
    expect(state.activeId).toBe(state.profiles[0].id);
    expect(await keychain.store.get(state.profiles[0].id)).toBe(KEY_A);
    if (REAL_KEYCHAIN) expect(await keytarPassword(keychain.service, state.profiles[0].id)).toBe(KEY_A);
    expect(findSecrets(dataDir, [KEY_A])).toEqual([]);
  });

  it('a second profile becomes active; profiles use switches back; the table marks the active one', async () => {
    const added = await cli(['profiles', 'add', 'Home', '--base-url', service.baseUrl, '--json'], {
      stdin: KEY_B,
    });
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ name: 'Home', hasKey: true, keyHint: KEY_B.slice(-4) });
    expect(await accountName([])).toBe('Bob');

    const use = await cli(['profiles', 'use', 'work']);
    expect(use.code).toBe(0);
    expect(use.stdout).toBe('The active profile is now "Work".\n');
    expect(await accountName([])).toBe('Alice');

    const table = (await cli(['profiles', 'list'])).stdout.trimEnd().split('\n');
    expect(table[0]).toMatch(/^ +NAME +BASE URL +KEY +STORAGE$/);
    expect(table[1]).toMatch(new RegExp(`^\\* +Work +${service.baseUrl} +…${KEY_A.slice(-4)} +keychain$`));
    expect(table[2]).toMatch(new RegExp(`^ +Home +${service.baseUrl} +…${KEY_B.slice(-4)} +keychain$`));
  });

  it('a name that is taken, or no such profile, is refused', async () => {
    const taken = await cli(['profiles', 'add', 'HOME', '--base-url', service.baseUrl], { stdin: KEY_B });
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/already exists/);
    for (const args of [
      ['profiles', 'use', 'Nowhere'],
      ['profiles', 'remove', 'Nowhere', '--yes'],
      ['reports', 'list', '--profile', 'Nowhere'],
    ]) {
      const run = await cli(args);
      expect(run.code).toBe(4);
      expect(run.stderr).toBe(
        'There is no profile named "Nowhere". Run "report-desk profiles list" to see the profiles.\n',
      );
    }
  });

  it('--profile picks a profile for one run and leaves the active one alone', async () => {
    const before = await profilesState();
    expect(await accountName(['--profile', 'Home'])).toBe('Bob');
    expect((await profilesState()).activeId).toBe(before.activeId);
  });

  it('REPORT_DESK_API_KEY is used without --profile; an explicit --profile wins over it', async () => {
    const env = { REPORT_DESK_API_KEY: KEY_B, REPORT_DESK_BASE_URL: service.baseUrl };
    expect(await accountName([], env)).toBe('Bob');
    expect(await accountName(['--profile', 'Work'], env)).toBe('Alice');
  });

  it('--base-url with a profile is refused: the profile has its own', async () => {
    const before = service.requests.length;
    const run = await cli(['reports', 'list', '--base-url', service.baseUrl]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^--base-url is only used with the key in REPORT_DESK_API_KEY.*"Work"/);
    expect(service.requests.length).toBe(before);
  });

  it('an unusable keychain is exit 8 with what to do, and nothing is saved', async () => {
    const locked = new KeytarKeyStore({
      loadKeytar: () => Promise.reject(new AppFailure(appError('internal'))),
    });
    const add = await cli(['profiles', 'add', 'Locked', '--base-url', service.baseUrl], {
      stdin: KEY_A,
      keyStore: locked,
    });
    expect(add.code).toBe(8);
    expect(add.stderr).toBe(KEYCHAIN_SENTENCE);
    expect((await profilesState()).profiles.map((p) => p.name)).toEqual(['Work', 'Home']);

    const read = await cli(['reports', 'list'], { keyStore: locked });
    expect(read.code).toBe(8);
    expect(read.stderr).toBe(KEYCHAIN_SENTENCE);
  });

  it('a profile whose key is gone from the keychain is exit 3, pointing at the CLI’s own commands', async () => {
    const before = service.requests.length;
    const run = await cli(['reports', 'list'], { keyStore: new MemoryKeyStore() });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      'No API key is stored for the profile "Work". Remove it (report-desk profiles remove "Work" --yes) and add it again with its key.\n',
    );
    expect(service.requests.length).toBe(before);
  });

  it.skipIf(
    skipWhen(
      !REAL_KEYCHAIN,
      'the spawned CLI uses the OS keychain, and there is none outside ./scripts/with-keyring.sh',
    ),
  )('the real process: add (key on stdin) and remove, through the OS keychain', async () => {
    const own = mkdtempSync(join(tmpdir(), 'report-desk-cli-spawned-'));
    try {
      const env = { REPORT_DESK_DATA_DIR: own };
      const added = await spawnCli(
        ['profiles', 'add', 'Spawned', '--base-url', service.baseUrl, '--json'],
        env,
        `${KEY_A}\n`,
      );
      expect(added.stderr).toBe('');
      expect(added.code).toBe(0);
      const { id } = JSON.parse(added.stdout) as { id: string };
      expect(await keytarPassword('ReportDesk', id)).toBe(KEY_A);

      const list = await spawnCli(['reports', 'list', '--json', '--per-page', '25'], env);
      expect(list.code).toBe(0);
      expect(JSON.parse(list.stdout)).toMatchObject({ total: REPORTS_PER_ACCOUNT, source: 'network' });

      const removed = await spawnCli(['profiles', 'remove', 'Spawned', '--yes'], env);
      expect(removed.code).toBe(0);
      expect(await keytarPassword('ReportDesk', id)).toBeNull();
      expect(findSecrets(own, [KEY_A])).toEqual([]);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});

describe('the offline cache', () => {
  it('cache sync: progress on stderr, a summary on stdout; --json prints the SyncSummary', async () => {
    const run = await cli(['cache', 'sync']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `Page 1 of 1: ${REPORTS_PER_ACCOUNT} of ${REPORTS_PER_ACCOUNT} reports fetched.\n` +
        'Removing the cached reports the service no longer has.\n',
    );
    expect(run.stdout).toBe(
      `${REPORTS_PER_ACCOUNT} reports of the profile "Work" are now available offline (1 page, 1 request). ${REPORTS_PER_ACCOUNT} new. The offline copy is complete.\n`,
    );
    const json = await cli(['cache', 'sync', '--json', '--profile', 'Home']);
    expect(json.stderr).toBe('');
    const summary = JSON.parse(json.stdout) as SyncSummary;
    // Today's fields, then what the copy gained, whether it is complete, and what it cost.
    expect(summary).toEqual({
      fetched: REPORTS_PER_ACCOUNT,
      removed: 0,
      pages: 1,
      completedAt: clock.toISOString(),
      pruned: true,
      reason: null,
      mode: 'full',
      added: REPORTS_PER_ACCOUNT,
      changed: 0,
      complete: true,
      passes: 1,
      requests: 1,
      badNews: 0,
    });
  });

  it('cache status: reports cached, size and last full sync', async () => {
    clock = new Date(clock.getTime() + 2 * 60_000);
    const text = await cli(['cache', 'status']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Offline cache of the profile "Work":\n/);
    expect(text.stdout).toMatch(new RegExp(`\\nreports cached +${REPORTS_PER_ACCOUNT}\\n`));
    expect(text.stdout).toMatch(/\nlast full sync +2 minutes ago \(\d{4}-/);
    expect(text.stdout).toMatch(/\nfile size +\d+\.\d (KB|MB) \(the whole cache file, every profile\)\n$/);
    const status = JSON.parse((await cli(['cache', 'status', '--json'])).stdout) as CacheStatus;
    expect(status).toMatchObject({ profileId: await profileId('Work'), reportCount: REPORTS_PER_ACCOUNT });
    expect(status.lastFullSyncAt).not.toBeNull();
    expect(status.sizeBytes).toBeGreaterThan(0);
  });

  it('cache clear needs --yes, then empties only this profile’s cache', async () => {
    const refused = await cli(['cache', 'clear', '--profile', 'Home']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/add --yes to confirm/);
    const cleared = await cli(['cache', 'clear', '--profile', 'Home', '--yes']);
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toBe('Cleared the offline cache of the profile "Home".\n');
    const home = JSON.parse(
      (await cli(['cache', 'status', '--profile', 'Home', '--json'])).stdout,
    ) as CacheStatus;
    expect(home).toMatchObject({ reportCount: 0, lastFullSyncAt: null });
    const work = JSON.parse((await cli(['cache', 'status', '--json'])).stdout) as CacheStatus;
    expect(work.reportCount).toBe(REPORTS_PER_ACCOUNT);
  });

  it('with REPORT_DESK_API_KEY the cache is kept apart per base URL and key, and never holds the key', async () => {
    const port = new URL(service.baseUrl).port;
    const status = async (key: string, baseUrl: string) => {
      const run = await cli(['cache', 'status', '--json'], {
        env: { REPORT_DESK_API_KEY: key, REPORT_DESK_BASE_URL: baseUrl },
      });
      expect(run.code).toBe(0);
      return JSON.parse(run.stdout) as CacheStatus;
    };
    const envA = { REPORT_DESK_API_KEY: KEY_A, REPORT_DESK_BASE_URL: service.baseUrl };
    // Same account as the profile "Work", but its own scope: empty until synced.
    expect(await status(KEY_A, service.baseUrl)).toMatchObject({ reportCount: 0 });
    const synced = await cli(['cache', 'sync', '--json'], { env: envA });
    expect((JSON.parse(synced.stdout) as SyncSummary).fetched).toBe(REPORTS_PER_ACCOUNT);

    const a = await status(KEY_A, service.baseUrl);
    expect(a.reportCount).toBe(REPORTS_PER_ACCOUNT);
    expect(a.profileId).toMatch(/^envh-[0-9a-f]{32}$/);
    // A pasted ".../api/v1/" is the same service: same cache.
    expect((await status(KEY_A, `${service.baseUrl}/api/v1/`)).profileId).toBe(a.profileId);
    const otherKey = await status(KEY_B, service.baseUrl);
    const otherUrl = await status(KEY_A, `http://localhost:${port}`);
    expect(otherKey).toMatchObject({ reportCount: 0 });
    expect(otherUrl).toMatchObject({ reportCount: 0 });
    expect(new Set([a.profileId, otherKey.profileId, otherUrl.profileId]).size).toBe(3);

    expect(findSecrets(dataDir, [KEY_A, KEY_B], allOutput)).toEqual([]);
  });
});

describe('offline: the service is stopped', () => {
  let cachedId: string;

  beforeAll(async () => {
    const first = JSON.parse((await cli(['reports', 'list', '--json'])).stdout) as { data: { id: string }[] };
    cachedId = first.data[0].id;
    // Every cached report of "Work" now has the same age, so the note's age is exact.
    expect((await cli(['cache', 'sync'])).code).toBe(0);
    await service.stop();
    clock = new Date(clock.getTime() + 3 * 60_000);
  });

  it('reports list answers from the cache: exit 0, a note with its age, source "cache"', async () => {
    const json = await cli(['reports', 'list', '--json', '--per-page', '25', '--sort', 'asc']);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe(`Offline: showing reports cached 3 minutes ago ${OFFLINE_REASON}`);
    const doc = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ page: 1, per_page: 25, total: REPORTS_PER_ACCOUNT, source: 'cache' });
    expect(Date.parse(doc.cached_at as string)).toBe(clock.getTime() - 3 * 60_000);
    const ids = (doc.data as { id: string }[]).map((r) => Number(r.id));
    expect(ids).toHaveLength(25);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);

    const text = await cli(['reports', 'list']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ID +RESULT/);
    expect(text.stdout).toMatch(/\nPage 1 of 3, 30 reports in all\.\n$/);
    expect(text.stderr).toBe(`Offline: showing reports cached 3 minutes ago ${OFFLINE_REASON}`);
  });

  it('reports list --all follows the cache’s pages', async () => {
    const run = await cli(['reports', 'list', '--all', '--per-page', '10', '--json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as { data: { id: string }[]; source: string; cached_at: string };
    expect(doc.source).toBe('cache');
    expect(doc.cached_at).toBeDefined();
    expect(new Set(doc.data.map((r) => r.id)).size).toBe(REPORTS_PER_ACCOUNT);
  });

  it('reports get answers {data, source, cached_at} from the cache; an uncached one is exit 6', async () => {
    const run = await cli(['reports', 'get', cachedId, '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`Offline: showing report ${cachedId} as cached 3 minutes ago ${OFFLINE_REASON}`);
    const doc = JSON.parse(run.stdout) as {
      data: { id: string; url: string };
      source: string;
      cached_at: string;
    };
    expect(Object.keys(doc).sort()).toEqual(['cached_at', 'data', 'source']);
    expect(doc.data.id).toBe(cachedId);
    expect(doc.source).toBe('cache');

    const missing = await cli(['reports', 'get', '999999', '--profile', 'Home']);
    expect(missing.code).toBe(6);
    expect(missing.stderr).toMatch(
      /could not be reached: the connection was refused.*run "report-desk cache sync"/,
    );
  });

  it('--no-cache turns the fallback off: exit 6', async () => {
    const run = await cli(['reports', 'list', '--no-cache']);
    expect(run.code).toBe(6);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^The Report Service at 127\.0\.0\.1:\d+ could not be reached: the connection was refused\./,
    );
  });

  it('changes are not queued: create is exit 6, saying the change was not made', async () => {
    const run = await cli(['reports', 'create', '--url', 'https://offline.example.org']);
    expect(run.code).toBe(6);
    expect(run.stderr).toBe(
      'The Report Service cannot be reached, so the change was not made. Try again when it is back.\n',
    );
  });

  it('the real process, with REPORT_DESK_API_KEY: its own cache answers', async () => {
    const run = await spawnCli(['reports', 'list', '--json'], {
      REPORT_DESK_API_KEY: KEY_A,
      REPORT_DESK_BASE_URL: service.baseUrl,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^Offline: showing reports cached .+ ago \(the Report Service could not be reached\)\.\n$/,
    );
    expect(JSON.parse(run.stdout)).toMatchObject({ total: REPORTS_PER_ACCOUNT, source: 'cache' });
  });

  it('profiles remove needs --yes, then deletes the key from the keychain and the cached reports', async () => {
    const id = await profileId('Work');
    const refused = await cli(['profiles', 'remove', 'Work']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^Removing the profile "Work" deletes its API key .* add --yes to confirm\./,
    );

    const run = await cli(['profiles', 'remove', 'Work', '--yes']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'Removed the profile "Work", its API key and its cached reports.\nThe active profile is now "Home".\n',
    );
    expect(await keychain.store.get(id)).toBeNull();
    if (REAL_KEYCHAIN) expect(await keytarPassword(keychain.service, id)).toBeNull();
    expect((await profilesState()).profiles.map((p) => p.name)).toEqual(['Home']);
    const cache = ReportCache.open(dataPaths(dataDir).cache);
    try {
      expect(cache.status(id).reportCount).toBe(0);
    } finally {
      cache.close();
    }
  });

  it('no key ever reached the data dir or any output', () => {
    expect(allOutput.length).toBeGreaterThan(60);
    expect(findSecrets(dataDir, [KEY_A, KEY_B], allOutput)).toEqual([]);
    expect(readFileSync(dataPaths(dataDir).profiles, 'utf8')).not.toMatch(/key-(alice|bob)/);
  });
});
