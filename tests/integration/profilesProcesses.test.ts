/**
 * Profiles, keys and secrets when several ReportDesk processes share one data dir: real child
 * processes (the CLI, and tests/fixtures/profileChild.ts for the app side), a real SQLite
 * file, the real gnome-keyring (these tests need scripts/with-keyring.sh) and the reference
 * service on 127.0.0.1. Each run uses its own keychain service name
 * (REPORT_DESK_KEYCHAIN_SERVICE), so its entries can be compared with profiles.json exactly.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KEYCHAIN_SERVICE_ENV } from '../../electron/cli/session';
import { KeytarKeyStore } from '../../electron/core/keys/keyStore';
import { createCoreServices, dataPaths, type CoreServices } from '../../electron/core/services';
import { startDemoService, type DemoAccount, type DemoService } from '../../electron/demo-service/server';
import { finished, spawnCliCaptured, type CliRun } from '../helpers/cli';
import { REAL_KEYCHAIN } from '../helpers/keychain';
import { findSecrets } from '../helpers/secrets';
import { skipWhen } from '../helpers/skip';

interface KeytarModule {
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
  setPassword(service: string, account: string, password: string): Promise<void>;
}
const keytar = createRequire(import.meta.url)('keytar') as KeytarModule;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KEY_A = 'proc-test-key-alice-Rt5Yu8Io2P';
const KEY_B = 'proc-test-key-bob-Gh3Jk6Lz9Q';
const ACCOUNTS: DemoAccount[] = [
  { apiKey: KEY_A, account: { id: 101, name: 'Alice', email: 'alice@example.com' } },
  { apiKey: KEY_B, account: { id: 202, name: 'Bob', email: 'bob@example.com' } },
];

let service: DemoService;
let dataDir: string;
let keychainService: string;
const open: CoreServices[] = [];
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  service = await startDemoService({ accounts: ACCOUNTS, reportsPerAccount: 25 });
});
afterAll(async () => {
  await service.stop();
});

function freshDataDir(): void {
  dataDir = mkdtempSync(join(tmpdir(), 'report-desk-procs-'));
  keychainService = `ReportDesk-procs-${randomUUID()}`;
}

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const services of open.splice(0)) await services.close();
  service.faults.clear();
  service.modes.echoSecrets = false;
  service.modes.accountWithoutId = false;
  rmSync(dataDir, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  return {
    REPORT_DESK_DATA_DIR: dataDir,
    REPORT_DESK_RETRY_BASE_MS: '1',
    REPORT_DESK_API_KEY: '',
    [KEYCHAIN_SERVICE_ENV]: keychainService,
  };
}

const cli = (args: string[], stdin = ''): Promise<CliRun> => spawnCliCaptured(args, env(), stdin);

function addProfile(name: string, key = KEY_A): Promise<CliRun> {
  return cli(['profiles', 'add', name, '--base-url', service.baseUrl], key);
}

/** The app side in its own process (see tests/fixtures/profileChild.ts). */
function appChild(args: string[], stdin = ''): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/profileChild.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env() },
  });
  children.push(child);
  child.stdin.end(stdin);
  return child;
}

function printed(child: ChildProcessWithoutNullStreams, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(line)) resolve();
    });
    child.on('close', () => reject(new Error(`the child ended without printing "${line}"`)));
  });
}

interface SavedProfiles {
  activeId: string | null;
  profiles: { id: string; name: string }[];
}
const saved = (): SavedProfiles =>
  JSON.parse(readFileSync(dataPaths(dataDir).profiles, 'utf8')) as SavedProfiles;

async function keychainEntries(): Promise<Map<string, string>> {
  const found = await keytar.findCredentials(keychainService);
  return new Map(found.map(({ account, password }) => [account, password]));
}

async function openServices(): Promise<CoreServices> {
  const services = await createCoreServices({
    dataDir,
    keyStore: new KeytarKeyStore({ service: keychainService }),
    probeIntervalMs: 0,
  });
  open.push(services);
  return services;
}

// Child processes start through tsx on a shared, busy machine: generous time limits.
describe.skipIf(
  skipWhen(
    !REAL_KEYCHAIN,
    'cross-process profile tests need the real keychain (run under scripts/with-keyring.sh)',
  ),
)('profiles shared by several processes', { timeout: 180_000 }, () => {
  it('six concurrent adds with a rename and a remove lose nothing and orphan no keychain entry', async () => {
    freshDataDir();
    for (const name of ['Old', 'Doomed']) expect((await addProfile(name)).code).toBe(0);
    const names = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6'];
    const runs = await Promise.all([
      ...names.map((name, i) => addProfile(name, i % 2 === 0 ? KEY_A : KEY_B)),
      finished(appChild(['rename', dataDir, 'Old', 'Renamed'])),
      cli(['profiles', 'remove', 'Doomed', '--yes']),
    ]);
    for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0 });

    const file = saved();
    expect(file.profiles.map((p) => p.name).sort()).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'Renamed']);
    const entries = await keychainEntries();
    expect([...entries.keys()].sort()).toEqual(file.profiles.map((p) => p.id).sort());
    for (const [i, name] of names.entries()) {
      const id = file.profiles.find((p) => p.name === name)?.id ?? '';
      expect(entries.get(id)).toBe(i % 2 === 0 ? KEY_A : KEY_B);
    }
    // The last add made its profile active, and the active id is one that exists.
    expect(file.profiles.map((p) => p.id)).toContain(file.activeId);
  });

  it('two adds of one name at once: one wins, the other is refused and leaves no key behind', async () => {
    freshDataDir();
    const runs = await Promise.all([addProfile('Same', KEY_A), addProfile('Same', KEY_B)]);
    expect(runs.filter((run) => run.code === 0)).toHaveLength(1);
    const refused = runs.find((run) => run.code !== 0);
    expect(refused?.stderr).toMatch(/already exists/);
    const file = saved();
    expect(file.profiles.map((p) => p.name)).toEqual(['Same']);
    expect([...(await keychainEntries()).keys()]).toEqual([file.profiles[0].id]);
  });

  it('recovers the lock of a process killed while holding it', async () => {
    freshDataDir();
    expect((await addProfile('First')).code).toBe(0);
    const holder = appChild(['hold-lock', dataDir]);
    await printed(holder, 'locked');
    const waiting = addProfile('Second');
    // The add checks its key first, then waits for the lock: nothing is saved while it is held.
    while (service.requests.filter((r) => r.path === '/api/v1/account').length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(saved().profiles.map((p) => p.name)).toEqual(['First']);
    holder.kill('SIGKILL');
    const run = await waiting;
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(saved().profiles.map((p) => p.name)).toEqual(['First', 'Second']);
  });

  it("uses a key another process replaced at the gateway's next call, and tells the front end", async () => {
    freshDataDir();
    expect((await addProfile('Main', KEY_A)).code).toBe(0);
    const services = await openServices();
    const events: string[] = [];
    services.events.subscribe((event) => events.push(event));
    expect((await services.handlers['account:get'](undefined)).account.id).toBe(101);

    const run = await finished(appChild(['set-key', dataDir, 'Main'], KEY_B));
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect((await services.handlers['account:get'](undefined)).account.id).toBe(202);
    const last = service.requests.at(-1);
    expect(last).toMatchObject({ path: '/api/v1/account', authorized: true });
    // The change reached this process as an event (through the watch or the re-read).
    expect(events).toContain('profiles:changed');
  });

  it('re-reads the key once on a 401, and reports a 401 that a re-read does not cure', async () => {
    freshDataDir();
    expect((await addProfile('Main', KEY_A)).code).toBe(0);
    const services = await openServices();
    expect((await services.handlers['account:get'](undefined)).account.id).toBe(101);
    const id = saved().profiles[0].id;

    // The keychain entry changes behind the profile file's back (an older ReportDesk, a
    // keychain tool); the old key is refused once.
    await keytar.setPassword(keychainService, id, KEY_B);
    service.faults.add({ path: '/api/v1/account', status: 401, times: 1 });
    const before = service.requests.length;
    expect((await services.handlers['account:get'](undefined)).account.id).toBe(202);
    expect(service.requests.length - before).toBe(2);

    // Same key after the re-read: the 401 stands, asked once.
    service.faults.add({ path: '/api/v1/account', status: 401, times: 1 });
    const again = service.requests.length;
    await expect(services.handlers['account:get'](undefined)).rejects.toMatchObject({
      error: { kind: 'unauthorized' },
    });
    expect(service.requests.length - again).toBe(1);

    // A full sync's first page, likewise: the key changed back, the sync goes through with it.
    await keytar.setPassword(keychainService, id, KEY_A);
    service.faults.add({ path: '/api/v1/reports', status: 401, times: 1 });
    const summary = await services.handlers['cache:sync'](undefined);
    expect(summary.fetched).toBe(service.reportCount(KEY_A));
    expect(services.cache.status(id).reportCount).toBe(service.reportCount(KEY_A));
  });

  it('keeps the cache when an account without id, uuid or email changes between reads', async () => {
    freshDataDir();
    expect((await addProfile('Main', KEY_A)).code).toBe(0);
    service.modes.accountWithoutId = true;
    const services = await openServices();
    await services.handlers['reports:list']({ per_page: 25 });
    const cached = services.cache.status(saved().profiles[0].id).reportCount;
    expect(cached).toBe(25);
    const first = await services.handlers['account:get'](undefined);
    const second = await services.handlers['account:get'](undefined);
    expect(first.account.reads).not.toEqual(second.account.reads);
    expect(services.cache.status(saved().profiles[0].id).reportCount).toBe(cached);
  });

  it('echoed secrets reach no file of the data dir and no CLI output', async () => {
    freshDataDir();
    service.modes.echoSecrets = true;
    const password = `echo-pass-${randomUUID()}`;
    // An open core keeps the cache's WAL file in place, so the byte search covers it too.
    const services = await openServices();
    const runs: CliRun[] = [];
    const run = async (args: string[], stdin = '') => {
      const result = await cli(args, stdin);
      runs.push(result);
      expect(result, result.stderr).toMatchObject({ code: 0 });
      return result;
    };
    await run(['profiles', 'add', 'Main', '--base-url', service.baseUrl], KEY_A);
    await run(['account']);
    await run(['account', '--json']);
    const created = await run(
      [
        'reports',
        'create',
        '--url',
        'https://secret-echo.example',
        '--privacy',
        'password',
        '--password-stdin',
        '--json',
      ],
      password,
    );
    const id = String((JSON.parse(created.stdout) as { id: string }).id);
    await run(
      ['reports', 'update', id, '--privacy', 'password', '--password-stdin', '--json'],
      password + '-2',
    );
    await run(['reports', 'get', id, '--json']);
    await run(['cache', 'sync']);
    await run(['reports', 'list', '--json']);
    // The service really echoes them (the test would prove nothing otherwise).
    const echoed = await fetch(`${service.baseUrl}/api/v1/account`, {
      headers: { Authorization: `Bearer ${KEY_A}`, Accept: 'application/json' },
    });
    expect(await echoed.text()).toContain(KEY_A);
    await services.handlers['reports:list']({ per_page: 10 });
    expect(existsSync(`${dataPaths(dataDir).cache}-wal`)).toBe(true);
    const outputs = runs.flatMap((r) => [r.stdout, r.stderr]);
    expect(findSecrets(dataDir, [KEY_A, password, password + '-2'], outputs)).toEqual([]);
    expect(created.stdout).toContain('https://secret-echo.example');
  });
});
