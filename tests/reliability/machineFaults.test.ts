/**
 * The machine's own faults (issue 30), each with the real CLI in its own process: the offline
 * copy's interior pages overwritten, profiles.json cut short (with and without its backup), a
 * -wal missing after a crash, a full disk (a small tmpfs), a read-only folder (a tmpfs
 * remounted ro; and, without root's privileges, a folder another user cannot write). Each gets
 * its sentence and its exit code, and loses nothing that was not in the damaged file itself.
 * Each case has its own account and data folder, so they run side by side.
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepairsStatus, ReportChange, SyncSummary } from '../../shared/contract';
import { dataPaths } from '../../electron/core/services';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { overwriteMiddle } from '../helpers/damage';
import { skipWhen } from '../helpers/skip';
import { mountTmpfs, tmpfsUnavailable, type Tmpfs } from '../helpers/tmpfs';
import { Folder, ROOT } from './faultWorld';

const keyOf = (n: number) => `machine-faults-${n}-${'m'.repeat(12)}`;
const ACCOUNTS = 8;

let service: DemoService;
let account = 0;
const folders: Folder[] = [];
const mounts: Tmpfs[] = [];

beforeAll(async () => {
  service = await startDemoService({
    accounts: Array.from({ length: ACCOUNTS }, (_, n) => ({
      apiKey: keyOf(n),
      account: { id: n + 1, name: `Account ${n}`, email: `m${n}@faults.example` },
    })),
  });
});

afterAll(async () => {
  for (const mount of mounts) mount.unmount();
  await Promise.all(folders.map((folder) => folder.close()));
  await service?.stop();
});

function folder(reports: number, where?: string): Folder {
  const key = keyOf(account++);
  service.seedReports(reports, key);
  const made = new Folder(service, key, { where });
  folders.push(made);
  return made;
}

const noTmpfs = tmpfsUnavailable();

describe.concurrent('damage', () => {
  it('the copy’s middle overwritten (8 KB of 500 reports): set aside in one sentence, refilled, the change log kept', async () => {
    const made = folder(500);
    await made.addProfile('A');
    const scope = (await made.profiles()).activeId!;
    expect((await made.cli(['cache', 'sync'])).code).toBe(0);
    const [first] = service.reportIds(made.apiKey);
    for (const result of ['bad', 'good'] as const) {
      service.changeReport(first, { result }, made.apiKey);
      expect((await made.cli(['cache', 'sync'])).code).toBe(0);
    }
    const logged = (await made.cli(['cache', 'changes', '--json'])).stdout;

    overwriteMiddle(dataPaths(made.dataDir).cache, 8192);
    const run = await made.spawn(['cache', 'sync']).done;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /^(Page .*\n)*The offline copy was damaged, so it was set aside as .*\/cache\.sqlite\.corrupt-\d{4}-\d{2}-\d{2}T\d{9}Z and a new one was started; (its \d+ reports are fetched again by the next sync|what it held can be fetched again)\. Your profiles, settings, change log and seen marks were not in it and are kept\.\n/,
    );
    expect(run.stdout).toMatch(
      /500 reports of the profile "A" are now available offline .* The offline copy is complete\.\n$/,
    );
    expect(made.cachedIds(scope)).toEqual(made.serviceIds());
    // The change log was never in the copy: it is all still there.
    expect((await made.cli(['cache', 'changes', '--json'])).stdout).toBe(logged);
    expect((JSON.parse(logged) as { changes: ReportChange[] }).changes.length).toBeGreaterThan(0);
    // The app hears the same repair as a notice, until it is dismissed.
    const status = await made.spawnChannel('repairs:status', undefined).done;
    const repairs = (JSON.parse(status.stdout) as { value: RepairsStatus }).value;
    expect(repairs.notices).toMatchObject([
      { kind: 'cache_set_aside', details: { during: 'use', kept: ['profiles', 'settings', 'changes'] } },
    ]);
    made.expectIntact();
  });

  it('profiles.json cut short, with its backup: restored, said so, every profile and key still there', async () => {
    const made = folder(20);
    await made.addProfile('A');
    await made.addProfile('B');
    truncateSync(dataPaths(made.dataDir).profiles, 100);
    const run = await made.spawn(['profiles', 'list']).done;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /^The profiles file .*profiles\.json was damaged, so its backup of \d{4}-\S+ was restored \(the damaged file is kept as .*profiles\.json\.corrupt-\S+\); a change made after that backup may be missing\. Check the profiles with "report-desk profiles list"\.\n$/,
    );
    expect(run.stdout).toMatch(/A .*\n.*B /);
    await made.expectKeysMatchProfiles();
    made.expectIntact();
  });

  it('profiles.json cut short, no backup: every command says so (exit 8) and writes nothing, until `profiles reset --yes`; its keys then come back', async () => {
    const made = folder(20);
    await made.addProfile('A');
    await made.addProfile('B');
    const { profiles } = dataPaths(made.dataDir);
    rmSync(`${profiles}.backup`);
    // Cut short near its end: both profiles' ids, names and addresses are still in what is left.
    truncateSync(profiles, statSync(profiles).size - 40);
    const damaged = readFileSync(profiles);
    for (const args of [
      ['profiles', 'list'],
      ['profiles', 'add', 'C', '--base-url', service.baseUrl],
      ['cache', 'sync'],
    ]) {
      const run = await made.spawn(args, { stdin: made.apiKey }).done;
      expect(run.code, args.join(' ')).toBe(8);
      expect(run.stderr).toMatch(
        /^The profiles file .*profiles\.json is damaged and there is no backup to restore\. A copy is kept as .*profiles\.json\.corrupt-\S+; nothing is written over it until you agree\. Put a good copy of profiles\.json back yourself, or start a new, empty list with "report-desk profiles reset --yes"\.\n$/,
      );
    }
    expect(readFileSync(profiles).equals(damaged)).toBe(true);
    const reset = await made.spawn(['profiles', 'reset', '--yes']).done;
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toMatch(
      /^Started a new, empty profile list \(the damaged file is kept as .*\)\. Add a profile: /,
    );
    // The keys of the profiles the damaged file still named are found, with what it still said.
    const orphans = await made.cli(['profiles', 'orphans']);
    expect(orphans.stdout).toMatch(/^2 keys in the system keychain belong to no profile:\n/);
    expect((await made.cli(['profiles', 'orphans', '--restore'])).code).toBe(0);
    expect((await made.expectKeysMatchProfiles()).profiles.map((p) => p.name).sort()).toEqual(['A', 'B']);
  });

  it('a -wal missing after a crash: the copy opens, the next sync completes, the change log is untouched', async () => {
    const made = folder(300);
    await made.addProfile('A');
    const scope = (await made.profiles()).activeId!;
    const crashed = await made.spawn(['cache', 'sync'], { crashAt: 'sync.batch-committed@2' }).done;
    expect(crashed.signal).toBe('SIGKILL');
    const { cache } = dataPaths(made.dataDir);
    expect(statSync(`${cache}-wal`).size).toBeGreaterThan(0);
    rmSync(`${cache}-wal`);
    const run = await made.spawn(['cache', 'sync', '--json']).done;
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as SyncSummary).complete).toBe(true);
    expect(made.cachedIds(scope)).toEqual(made.serviceIds());
    made.expectIntact();
  });
});

describe.concurrent('a full disk', () => {
  it.skipIf(skipWhen(noTmpfs !== null, noTmpfs ?? ''))(
    'a sync stops with the disk, its folder and free space named (exit 8); profiles and exports too; once there is room it resumes with the right counts',
    async () => {
      const disk = mountTmpfs(1536 * 1024);
      mounts.push(disk);
      const made = folder(3000, disk.dir);
      await made.addProfile('A');
      const scope = (await made.profiles()).activeId!;
      const run = await made.spawn(['cache', 'sync']).done;
      expect(run.code, run.stderr).toBe(8);
      const sentence = new RegExp(
        `^The disk that holds the data folder ${made.dataDir} is full \\(.+ free\\)\\. Nothing was lost: (\\d+) reports are available offline; free some space and run it again\\.\\n$`,
      );
      const lastLine = run.stderr.split('\n').filter(Boolean).at(-1)! + '\n';
      expect(lastLine).toMatch(sentence);
      const offline = Number(sentence.exec(lastLine)![1]);
      const status = JSON.parse((await made.cli(['cache', 'status', '--json'])).stdout) as {
        reportCount: number;
      };
      expect(status.reportCount).toBe(offline);
      expect(offline).toBeGreaterThan(0);
      expect(offline).toBeLessThan(3000);

      // Full to the last byte: a profile change and an export are told the same way; nothing half-written.
      const profilesBefore = readFileSync(dataPaths(made.dataDir).profiles);
      writeFileSync(join(disk.dir, 'filler'), '');
      try {
        for (;;) writeFileSync(join(disk.dir, 'filler'), Buffer.alloc(4096), { flag: 'a' });
      } catch {
        // Full now.
      }
      const add = await made.spawn(['profiles', 'add', 'B', '--base-url', service.baseUrl], {
        stdin: made.apiKey,
      }).done;
      expect(add.code, add.stderr).toBe(8);
      expect(add.stderr).toMatch(
        /^The disk that holds the data folder .* is full .*; free some space and run it again\.\n$/,
      );
      expect(readFileSync(dataPaths(made.dataDir).profiles).equals(profilesBefore)).toBe(true);
      const out = join(disk.dir, 'all.csv');
      const exported = await made.spawn(['reports', 'list', '--all', '--output', out]).done;
      expect(exported.code, exported.stderr).toBe(8);
      // The export's folder is on the same disk: whichever it meets first, the same sentence.
      expect(exported.stderr).toMatch(
        new RegExp(
          `^The disk that holds (the data folder )?${disk.dir}(/data)? is full \\(0 bytes free\\)\\. Nothing was lost.*; free some space and run it again\\.\\n$`,
        ),
      );
      expect(
        readdirSync(disk.dir).filter((name) => name.startsWith('all.csv') || name.startsWith('.all.csv')),
      ).toEqual([]);

      rmSync(join(disk.dir, 'filler'));
      disk.remount('rw');
      await promisify(execFile)('mount', ['-o', 'remount,size=64m', disk.dir]);
      const resumed = await made.spawn(['cache', 'sync', '--json']).done;
      expect(resumed.code, resumed.stderr).toBe(0);
      const summary = JSON.parse(resumed.stdout) as SyncSummary;
      // Resumed where it stopped, and counted as one sync of every report.
      expect(summary).toMatchObject({ fetched: 3000, added: 3000, complete: true });
      // The pages not yet written, and the last one written once more (nothing shifted): 30 pages
      // of 100 in all, `offline` reports of them kept before the disk filled.
      expect(summary.requests).toBe(30 - offline / 100 + 1);
      expect(made.cachedIds(scope)).toEqual(made.serviceIds());
      const added = await made.spawn(['profiles', 'add', 'B', '--base-url', service.baseUrl], {
        stdin: made.apiKey,
      }).done;
      expect(added.code, added.stderr).toBe(0);
      await made.expectKeysMatchProfiles();
      made.expectIntact();
    },
  );
});

describe.concurrent('a read-only folder', () => {
  it.skipIf(skipWhen(noTmpfs !== null, noTmpfs ?? ''))(
    'reading still works (online, and from the copy offline); every write says why (exit 8)',
    async () => {
      const disk = mountTmpfs(8 * 1024 * 1024);
      mounts.push(disk);
      // A service of its own, stopped later to read from the copy offline.
      const own = await startDemoService({ reportsPerAccount: 120 });
      const made = new Folder(own, own.apiKey, { where: disk.dir });
      folders.push(made);
      try {
        await made.addProfile('A');
        expect((await made.cli(['cache', 'sync'])).code).toBe(0);
        disk.remount('ro');
        const online = await made.spawn(['reports', 'list', '--json']).done;
        expect(online.code, online.stderr).toBe(0);
        expect(JSON.parse(online.stdout)).toMatchObject({ source: 'network', total: 120 });
        const sentence = `The data folder ${made.dataDir} cannot be written to (EROFS), so nothing was saved; reading still works: 120 reports are available offline. Make the folder writable, or choose another with --data-dir.\n`;
        for (const args of [
          ['cache', 'sync'],
          ['cache', 'clear', '--yes'],
        ]) {
          const run = await made.spawn(args).done;
          expect(run.code, args.join(' ')).toBe(8);
          expect(run.stderr).toBe(sentence);
        }
        const add = await made.spawn(['profiles', 'add', 'B', '--base-url', own.baseUrl], {
          stdin: own.apiKey,
        }).done;
        expect(add.code).toBe(8);
        expect(add.stderr).toMatch(
          new RegExp(
            `^The data folder ${made.dataDir} cannot be written to \\((EROFS|SQLITE_CANTOPEN)\\), so nothing was saved; reading still works`,
          ),
        );
        await own.stop();
        const offline = await made.spawn(['reports', 'list', '--json']).done;
        expect(offline.code, offline.stderr).toBe(0);
        expect(JSON.parse(offline.stdout)).toMatchObject({ source: 'cache', total: 120 });
        expect(offline.stderr).toMatch(/^Offline: showing reports cached/);
      } finally {
        await own.stop().catch(() => undefined);
      }
    },
  );

  it.skipIf(skipWhen(process.platform === 'win32', 'POSIX permissions do not exist on Windows'))(
    'as a user who may not write the folder (EACCES): reads work, a sync says why',
    async () => {
      const made = folder(60);
      const asRoot = process.getuid?.() === 0;
      const asUser = async (args: string[]) => {
        const childArgs = [
          '--import',
          'tsx',
          'tests/fixtures/cliAsUserChild.ts',
          asRoot ? '65534' : String(process.getuid?.()),
          ...args,
        ];
        const { stdout } = await promisify(execFile)(process.execPath, childArgs, {
          cwd: ROOT,
          env: {
            ...process.env,
            REPORT_DESK_DATA_DIR: made.dataDir,
            REPORT_DESK_API_KEY: made.apiKey,
            REPORT_DESK_BASE_URL: service.baseUrl,
          },
        });
        return JSON.parse(stdout) as { uid: number; code: number; stdout: string; stderr: string };
      };
      const root = join(made.dataDir, '..');
      if (asRoot) for (const path of [root]) chownSync(path, 65534, 65534);
      const first = await asUser(['cache', 'sync']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.uid).not.toBe(0);
      chmodSync(made.dataDir, 0o500);
      try {
        const read = await asUser(['reports', 'list', '--json']);
        expect(read.code, read.stderr).toBe(0);
        const sync = await asUser(['cache', 'sync']);
        expect(sync.code).toBe(8);
        expect(sync.stderr).toBe(
          `The data folder ${made.dataDir} cannot be written to (EACCES), so nothing was saved; reading still works: 60 reports are available offline. Make the folder writable, or choose another with --data-dir.\n`,
        );
        const status = await asUser(['cache', 'status', '--json']);
        expect(JSON.parse(status.stdout)).toMatchObject({ reportCount: 60 });
      } finally {
        chmodSync(made.dataDir, 0o700);
      }
    },
  );
});
