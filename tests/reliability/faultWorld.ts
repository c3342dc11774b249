/**
 * What the machine-fault tests (issue 30) share: one reference service with an account per
 * data folder, real CLI processes (and the CLI in this process for the runs after a crash),
 * each folder with its own keychain service, and the checks that every run must leave true —
 * every SQLite file opens and passes integrity_check, no temporary file is left, the keychain
 * holds exactly the profiles' keys, and the offline copy equals the service.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { ProfilesState } from '../../shared/contract';
import { normalizeListQuery } from '../../shared/model';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { KeytarKeyStore } from '../../electron/core/keys/keyStore';
import { dataPaths } from '../../electron/core/services';
import type { DemoService } from '../../electron/demo-service/server';
import { finished, runCliCaptured, type CliRun } from '../helpers/cli';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One data folder, its keychain service and its account on the service. */
export class Folder {
  readonly dataDir: string;
  readonly keychain: string;
  private readonly root: string;

  constructor(
    readonly service: DemoService,
    readonly apiKey: string,
    /** Where its processes kill themselves (REPORT_DESK_CRASH_AT), when they do; `where` its root folder. */
    private readonly options: { crashAt?: string; where?: string } = {},
  ) {
    this.root = options.where ?? mkdtempSync(join(tmpdir(), 'reportdesk-faults-'));
    this.dataDir = join(this.root, 'data');
    this.keychain = `ReportDesk-faults-${randomUUID()}`;
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      REPORT_DESK_DATA_DIR: this.dataDir,
      REPORT_DESK_KEYCHAIN_SERVICE: this.keychain,
      REPORT_DESK_RETRY_BASE_MS: '1',
      REPORT_DESK_API_KEY: '',
      ...extra,
    };
  }

  /** The CLI in this process (a run after a crash: a new core on the folder, the real keychain). */
  cli(args: string[], stdin?: string): Promise<CliRun> {
    return runCliCaptured(args, { env: { ...process.env, ...this.env() }, stdin });
  }

  /** The real CLI in its own process (killing itself at the folder's crash point, or the one given). */
  spawn(args: string[], options: { stdin?: string; crashAt?: string } = {}): Running {
    const crashAt = options.crashAt ?? this.options.crashAt;
    const child = spawn(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...this.env(crashAt ? { REPORT_DESK_CRASH_AT: crashAt } : {}) },
    });
    child.stdin.end(options.stdin ?? '');
    return new Running(child);
  }

  /** A channel of the core in its own process, as the app runs it (tests/fixtures/coreChannelChild.ts). */
  spawnChannel(channel: string, input: unknown): Running {
    const crashAt = this.options.crashAt;
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'tests/fixtures/coreChannelChild.ts',
        this.dataDir,
        channel,
        ...(input === undefined ? [] : [JSON.stringify(input)]),
      ],
      { cwd: ROOT, env: { ...process.env, ...this.env(crashAt ? { REPORT_DESK_CRASH_AT: crashAt } : {}) } },
    );
    child.stdin.end();
    return new Running(child);
  }

  async addProfile(name: string): Promise<void> {
    const run = await this.cli(['profiles', 'add', name, '--base-url', this.service.baseUrl], this.apiKey);
    expect(run.code, run.stderr).toBe(0);
  }

  async profiles(): Promise<ProfilesState> {
    const run = await this.cli(['profiles', 'list', '--json']);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as ProfilesState;
  }

  /** The keychain accounts of this folder's service. */
  async keychainAccounts(): Promise<string[]> {
    return (await new KeytarKeyStore({ service: this.keychain }).accounts())
      .map((entry) => entry.account)
      .sort();
  }

  /** Every id in the offline copy of `scope`. */
  cachedIds(scope: string): string[] {
    const cache = ReportCache.open(dataPaths(this.dataDir).cache);
    try {
      const ids: string[] = [];
      for (let page = 1; ; page++) {
        const { reports } = cache.query(scope, normalizeListQuery({ per_page: 100, sort: 'asc', page })).page;
        ids.push(...reports.map((report) => String(report.id)));
        if (reports.length < 100) break;
      }
      return ids.sort();
    } finally {
      cache.close();
    }
  }

  serviceIds(): string[] {
    return this.service.reportIds(this.apiKey).map(String).sort();
  }

  /**
   * What every run must leave, crash or not: each SQLite file opens and passes integrity_check
   * (the cache and local.sqlite, their backups and locks), profiles.json is a good list, and no
   * temporary file is left once a run after the crash has swept.
   */
  expectIntact(options: { temps?: boolean } = {}): void {
    for (const name of readdirSync(this.dataDir)) {
      // The SQLite files themselves (a -journal or -wal is taken in by opening its file).
      if (!/\.(sqlite|lock)(\.backup)?$/.test(name)) continue;
      const path = join(this.dataDir, name);
      if (!statSync(path).isFile()) continue;
      const db = new Database(path);
      try {
        expect(db.pragma('integrity_check', { simple: true }), name).toBe('ok');
      } finally {
        db.close();
      }
    }
    if (options.temps !== false) expect(temporaryFiles(this.dataDir)).toEqual([]);
  }

  /** The keychain holds exactly the profiles' keys: no key for nobody, no profile without its key. */
  async expectKeysMatchProfiles(): Promise<ProfilesState> {
    const state = await this.profiles();
    expect(await this.keychainAccounts()).toEqual(state.profiles.map((profile) => profile.id).sort());
    for (const profile of state.profiles) expect(profile.hasKey, profile.name).toBe(true);
    return state;
  }

  async close(): Promise<void> {
    const store = new KeytarKeyStore({ service: this.keychain });
    for (const { account } of await store.accounts()) await store.delete(account);
    if (existsSync(this.root)) rmSync(this.root, { recursive: true, force: true });
  }
}

export function temporaryFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.tmp'));
}

/** A CLI (or core) process: its output as it comes, and its end. */
export class Running {
  stdout = '';
  stderr = '';
  readonly done: Promise<CliRun & { signal: NodeJS.Signals | null }>;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    let signal: NodeJS.Signals | null = null;
    child.on('exit', (_code, received) => (signal = received));
    this.done = finished(child).then((run) => ({ ...run, stdout: this.stdout, stderr: this.stderr, signal }));
  }

  /** Resolves once stderr (or stdout) holds `pattern`, or the process ended. */
  async waitFor(pattern: RegExp): Promise<boolean> {
    const seen = () => pattern.test(this.stderr) || pattern.test(this.stdout);
    if (seen()) return true;
    return new Promise((resolve) => {
      const look = () => {
        if (!seen()) return;
        cleanup();
        resolve(true);
      };
      const ended = () => {
        cleanup();
        resolve(seen());
      };
      const cleanup = () => {
        this.child.stdout.off('data', look);
        this.child.stderr.off('data', look);
        this.child.off('exit', ended);
      };
      this.child.stdout.on('data', look);
      this.child.stderr.on('data', look);
      this.child.on('exit', ended);
    });
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}
