/**
 * A process killed at any point leaves everything usable (issue 30), with real processes: the
 * real CLI (or the core as the app runs it) kills itself at each named crash point
 * (REPORT_DESK_CRASH_AT, electron/core/crashPoints.ts), and then 40 more are killed at random
 * moments of a sync, an export and profile changes. After each: every SQLite file opens and
 * passes integrity_check, the next run completes, the copy equals the service, no key is left
 * without its profile nor a profile without its key, no temporary file stays, no profile is lost.
 *
 * One reference service (an account per data folder), one keychain service per folder; the
 * crashing runs are child processes, the runs after them the CLI in this process (a new core
 * on the folder each time, as a new command is). Folders run side by side.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportChange, SyncSummary } from '../../shared/contract';
import { CRASH_POINTS } from '../../electron/core/crashPoints';
import { dataPaths } from '../../electron/core/services';
import { signManifest } from '../../electron/core/updates/signatures';
import { mulberry32 } from '../../electron/demo-service/random';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { overwriteMiddle } from '../helpers/damage';
import { makeReleaseKeys, manifestFor, startUpdateFeed, type UpdateFeed } from '../helpers/updateFeed';
import { Folder, ROOT, Running, temporaryFiles } from './faultWorld';

const REPORTS = 250;
const ACCOUNTS = 24;
const keyOf = (n: number) => `faults-account-${n}-${'k'.repeat(12)}`;

let service: DemoService;
let nextAccount = 0;
const folders: Folder[] = [];

beforeAll(async () => {
  service = await startDemoService({
    accounts: Array.from({ length: ACCOUNTS }, (_, n) => ({
      apiKey: keyOf(n),
      account: { id: n + 1, name: `Account ${n}`, email: `a${n}@faults.example` },
    })),
  });
  for (let n = 0; n < ACCOUNTS; n++) service.seedReports(REPORTS, keyOf(n));
});

afterAll(async () => {
  await Promise.all(folders.map((folder) => folder.close()));
  await service?.stop();
});

/** A new data folder with its own account and keychain service. */
function folder(crashAt?: string): Folder {
  const made = new Folder(service, keyOf(nextAccount++), { crashAt });
  folders.push(made);
  return made;
}

async function synced(made: Folder, name = 'A'): Promise<string> {
  await made.addProfile(name);
  const run = await made.cli(['cache', 'sync', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return (await made.profiles()).activeId!;
}

/** A crashing run: it must have died at its point (SIGKILL), not ended by itself. */
async function crashed(running: Running): Promise<void> {
  const end = await running.done;
  expect(end.signal, `the run ended by itself (exit ${end.code}): ${end.stderr}`).toBe('SIGKILL');
}

async function expectCopyEqualsService(made: Folder, scope: string): Promise<void> {
  const run = await made.cli(['cache', 'sync', '--json']);
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout)).toMatchObject({ complete: true });
  expect(made.cachedIds(scope)).toEqual(made.serviceIds());
}

interface Scenario {
  point: string;
  /** What the crash leaves, in words. */
  leaves: string;
  run(made: Folder): Promise<void>;
}

const SCENARIOS: Scenario[] = [
  {
    point: 'profiles.pending-written',
    leaves: 'an add recorded, no key yet: the record is forgotten, nothing else changed',
    async run(made) {
      await made.addProfile('A');
      await crashed(
        made.spawn(['profiles', 'add', 'B', '--base-url', service.baseUrl], { stdin: made.apiKey }),
      );
      const orphans = await made.cli(['profiles', 'orphans', '--json']);
      expect(JSON.parse(orphans.stdout)).toEqual({ orphanedKeys: [] });
      expect((await made.profiles()).profiles.map((p) => p.name)).toEqual(['A']);
    },
  },
  {
    point: 'profiles.key-stored',
    leaves: 'a key without its profile: found, its profile restored, and the key works',
    async run(made) {
      await made.addProfile('A');
      await crashed(
        made.spawn(['profiles', 'add', 'B', '--base-url', service.baseUrl], { stdin: made.apiKey }),
      );
      const listed = await made.cli(['profiles', 'list']);
      expect(listed.stderr).toMatch(/^Note: 1 key in the system keychain belongs to no profile/);
      const orphans = JSON.parse((await made.cli(['profiles', 'orphans', '--json'])).stdout);
      expect(orphans.orphanedKeys).toMatchObject([{ foundIn: 'interrupted_add', profile: { name: 'B' } }]);
      const restored = await made.cli(['profiles', 'orphans', '--restore']);
      expect(restored.stdout).toBe('Restored 1 profile.\n');
      expect((await made.profiles()).profiles.map((p) => p.name)).toEqual(['A', 'B']);
      const read = await made.cli(['--profile', 'B', 'reports', 'list', '--json']);
      expect(read.code, read.stderr).toBe(0);
    },
  },
  {
    point: 'profiles.backup-written',
    leaves: 'the backup written, the list not yet: the change did not happen',
    async run(made) {
      await made.addProfile('A');
      await made.addProfile('B');
      await crashed(made.spawn(['profiles', 'use', 'A']));
      const state = await made.profiles();
      expect(state.profiles.find((p) => p.id === state.activeId)?.name).toBe('B');
      expect((await made.cli(['profiles', 'use', 'A'])).code).toBe(0);
    },
  },
  ...(
    [
      ['atomic-write.half-written', 'half a temporary file'],
      ['atomic-write.before-rename@2', 'the new list whole in a temporary file, not renamed'],
    ] as const
  ).map(([point, left]): Scenario => ({
    point,
    leaves: `${left}: swept by the next run, the list as it was`,
    async run(made) {
      await made.addProfile('A');
      await made.addProfile('B');
      await crashed(made.spawn(['profiles', 'use', 'A']));
      expect(temporaryFiles(made.dataDir)).toHaveLength(1);
      const state = await made.profiles();
      expect(state.profiles.find((p) => p.id === state.activeId)?.name).toBe('B');
    },
  })),
  {
    point: 'profiles.profile-removed',
    leaves: 'the profile gone, its key not yet: the removal is finished by the next run',
    async run(made) {
      await made.addProfile('A');
      await made.addProfile('B');
      await crashed(made.spawn(['profiles', 'remove', 'B', '--yes']));
      expect((await made.profiles()).profiles.map((p) => p.name)).toEqual(['A']);
    },
  },
  {
    point: 'keys.key-replaced',
    leaves: 'the new key stored, the profile not yet told: the profile works with it',
    async run(made) {
      await made.addProfile('A');
      const id = (await made.profiles()).activeId!;
      await crashed(made.spawnChannel('profiles:setKey', { id, apiKey: made.apiKey }));
      const read = await made.cli(['reports', 'list', '--json']);
      expect(read.code, read.stderr).toBe(0);
    },
  },
  {
    point: 'sync.batch-written',
    leaves: 'a batch inside its transaction: rolled back, the next sync completes',
    async run(made) {
      await made.addProfile('A');
      await crashed(made.spawn(['cache', 'sync']));
      await expectCopyEqualsService(made, (await made.profiles()).activeId!);
    },
  },
  {
    point: 'sync.batch-committed@2',
    leaves: 'two batches committed with their progress: the next sync resumes after them',
    async run(made) {
      await made.addProfile('A');
      await crashed(made.spawn(['cache', 'sync']));
      const next = await made.cli(['cache', 'sync', '--json']);
      const summary = JSON.parse(next.stdout) as SyncSummary;
      // Resumed: the killed run's pages are not asked again, and the counts are the whole sync's.
      expect(summary.requests).toBeLessThan(Math.ceil(REPORTS / 100));
      expect(summary).toMatchObject({ fetched: REPORTS, added: REPORTS, complete: true });
      expect(made.cachedIds((await made.profiles()).activeId!)).toEqual(made.serviceIds());
    },
  },
  {
    point: 'sync.before-prune',
    leaves: 'the list read, nothing pruned: the next sync prunes what is gone',
    async run(made) {
      const scope = await synced(made);
      for (const id of made.service.reportIds(made.apiKey).slice(0, 3))
        made.service.deleteReport(id, made.apiKey);
      made.service.addReports(2, made.apiKey);
      await crashed(made.spawn(['cache', 'sync']));
      await expectCopyEqualsService(made, scope);
    },
  },
  {
    point: 'refresh.page-committed',
    leaves: 'a quick refresh with one page written: the next one finds the rest',
    async run(made) {
      const scope = await synced(made);
      const added = made.service.addReports(150, made.apiKey).map(String);
      await crashed(made.spawn(['cache', 'sync', '--quick']));
      expect((await made.cli(['cache', 'sync', '--quick'])).code).toBe(0);
      const cached = made.cachedIds(scope);
      expect(added.filter((id) => !cached.includes(id))).toEqual([]);
      await expectCopyEqualsService(made, scope);
    },
  },
  ...(['changes.outbox-committed', 'changes.log-committed'] as const).map((point): Scenario => ({
    point,
    leaves: 'a change found, between the copy and the change log: logged exactly once',
    async run(made) {
      const scope = await synced(made);
      const [first] = made.service.reportIds(made.apiKey);
      const before = made.service.reportIds(made.apiKey).length;
      made.service.changeReport(first, { result: 'bad' }, made.apiKey);
      made.service.changeReport(first, { result: 'good' }, made.apiKey);
      made.service.addReports(1, made.apiKey);
      await crashed(made.spawn(['cache', 'sync']));
      await expectCopyEqualsService(made, scope);
      const { changes } = JSON.parse((await made.cli(['cache', 'changes', '--json'])).stdout) as {
        changes: ReportChange[];
      };
      expect(changes.filter((change) => change.kind === 'added')).toHaveLength(1);
      expect(made.serviceIds()).toHaveLength(before + 1);
    },
  })),
  {
    point: 'export.before-write',
    leaves:
      'every page walked, the file not yet written: no file, no temporary file; the next export is whole',
    async run(made) {
      await made.addProfile('A');
      const out = join(made.dataDir, '..', 'export.json');
      await crashed(made.spawn(['reports', 'list', '--all', '--output', out]));
      expect(existsSync(out)).toBe(false);
      const again = await made.cli(['reports', 'list', '--all', '--output', out]);
      expect(again.code, again.stderr).toBe(0);
      expect((JSON.parse(readFileSync(out, 'utf8')) as { count: number }).count).toBe(REPORTS);
      expect(temporaryFiles(join(made.dataDir, '..'))).toEqual([]);
    },
  },
  {
    point: 'cache.clearing',
    leaves: 'a clear inside its transaction: rolled back whole; the next clear and sync work',
    async run(made) {
      const scope = await synced(made);
      await crashed(made.spawn(['cache', 'clear', '--yes']));
      expect(JSON.parse((await made.cli(['cache', 'status', '--json'])).stdout)).toMatchObject({
        reportCount: REPORTS,
      });
      expect((await made.cli(['cache', 'clear', '--yes'])).code).toBe(0);
      await expectCopyEqualsService(made, scope);
    },
  },
  {
    point: 'file.set-aside',
    leaves: 'a damaged copy renamed aside, no new one yet: the next run starts one and refills it',
    async run(made) {
      const scope = await synced(made);
      overwriteMiddle(dataPaths(made.dataDir).cache, 16_384);
      await crashed(made.spawn(['cache', 'sync']));
      expect(readdirSync(made.dataDir).some((name) => name.startsWith('cache.sqlite.corrupt-'))).toBe(true);
      await expectCopyEqualsService(made, scope);
    },
  },
];

describe('each crash point, in a real process', () => {
  it('covers every crash point the core names', () => {
    const covered = new Set([...SCENARIOS.map((s) => s.point.split('@')[0]), 'update.downloading']);
    expect([...CRASH_POINTS].filter((point) => !covered.has(point))).toEqual([]);
  });

  it(`leaves every file intact, the next run complete and nothing lost (${SCENARIOS.length} points, three at a time)`, async () => {
    const queue = [...SCENARIOS];
    const failures: string[] = [];
    await Promise.all(
      [0, 1, 2].map(async () => {
        for (let scenario = queue.shift(); scenario; scenario = queue.shift()) {
          const made = folder(scenario.point);
          try {
            await scenario.run(made);
            made.expectIntact();
            await made.expectKeysMatchProfiles();
          } catch (error) {
            failures.push(`${scenario.point} (${scenario.leaves}): ${String(error)}`);
          }
        }
      }),
    );
    expect(failures).toEqual([]);
  }, 120_000);

  it('an update download killed part way: the next check downloads it whole, and leaves no work folder', async () => {
    const feed: UpdateFeed = await startUpdateFeed();
    const work = mkdtempSync(join(tmpdir(), 'reportdesk-faults-update-'));
    try {
      const keys = makeReleaseKeys();
      const publicKey = join(work, 'release.pub.pem');
      writeFileSync(publicKey, keys.publicPem);
      const { text, fileName, content } = manifestFor({
        version: '9.0.0',
        content: randomBytes(4 * 1024 * 1024),
      });
      feed.put('latest-linux.yml', text);
      feed.put('latest-linux.yml.sig', signManifest(Buffer.from(text), keys.privateKey));
      // With its length, so the download reports progress (where the point is).
      feed.put(fileName, { body: content, headers: { 'Content-Length': String(content.length) } });
      const downloads = join(work, 'downloads');
      mkdirSync(downloads);
      const args = [
        '--feed',
        feed.url,
        '--current',
        '1.0.0',
        '--public-key',
        publicKey,
        '--download',
        downloads,
        '--json',
      ];
      const check = (crashAt: string) =>
        new Running(
          spawn(process.execPath, ['--import', 'tsx', 'electron/updates-cli/updateCheck.ts', ...args], {
            cwd: ROOT,
            env: { ...process.env, REPORT_DESK_CRASH_AT: crashAt },
          }),
        );
      const killed = check('update.downloading');
      await crashed(killed);
      // The killed check's work folder is still there…
      expect(
        readdirSync(downloads).filter((name) => name.startsWith('.reportdesk-update-check-')),
      ).toHaveLength(1);
      const end = await check('').done;
      expect(end.code, end.stderr).toBe(0);
      // …and gone after the next: only the downloaded file, whole.
      expect(readdirSync(downloads)).toEqual([fileName]);
      expect(readFileSync(join(downloads, fileName)).equals(content)).toBe(true);
    } finally {
      await feed.stop();
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * Runs `start()` and kills it at a random moment of its usual run (0.15 to 0.9 times how long
 * the last one took that ended by itself), until `kills` were real kills (a run that ended
 * first is no kill, and teaches how long a run takes now). After each: `after(killed)`.
 */
async function killAtRandom(
  kills: number,
  random: () => number,
  start: () => Running,
  after: (killed: boolean) => Promise<void>,
): Promise<number> {
  let began = Date.now();
  const first = await start().done;
  expect(first.code, first.stderr).toBe(0);
  let usual = Date.now() - began;
  let killed = 0;
  for (let attempt = 0; killed < kills && attempt < kills * 2; attempt++) {
    began = Date.now();
    const running = start();
    const timer = setTimeout(() => running.kill(), Math.round(usual * (0.15 + 0.75 * random())));
    const end = await running.done;
    clearTimeout(timer);
    const wasKilled = end.signal === 'SIGKILL';
    if (wasKilled) killed++;
    else {
      expect(end.code, end.stderr).toBe(0);
      usual = Date.now() - began;
    }
    await after(wasKilled);
  }
  return killed;
}

describe('40 random kills', () => {
  it('during syncs, exports and profile changes: every file intact, the next run complete, nothing lost', async () => {
    const seed = Date.now() % 100_000;
    // Seeded: a failing run can be replayed from its seed.
    const random = mulberry32(seed);
    const failed = (lane: string) => (error: unknown) => {
      throw new Error(`${lane} (seed ${seed}): ${String(error)}`);
    };

    const syncLane = async () => {
      const made = folder();
      await made.addProfile('A');
      const scope = (await made.profiles()).activeId!;
      return killAtRandom(
        14,
        random,
        () => made.spawn(['cache', 'sync']),
        async () => {
          made.expectIntact({ temps: false });
          // The service changes between runs, so each sync has work and a resume has something to settle.
          const ids = made.service.reportIds(made.apiKey);
          made.service.deleteReport(ids[Math.floor(random() * ids.length)], made.apiKey);
          made.service.addReports(1, made.apiKey);
          await expectCopyEqualsService(made, scope);
          made.expectIntact();
        },
      ).catch(failed('sync'));
    };

    const exportLane = async () => {
      const made = folder();
      await made.addProfile('A');
      const out = join(made.dataDir, '..', 'all.csv');
      return killAtRandom(
        13,
        random,
        () => made.spawn(['reports', 'list', '--all', '--output', out]),
        async () => {
          // Never half a file under the name asked for: none, or a whole one.
          if (existsSync(out))
            expect(readFileSync(out, 'utf8').trimEnd().split('\r\n')).toHaveLength(REPORTS + 1);
          made.expectIntact({ temps: false });
          rmSync(out, { force: true });
          const again = await made.cli(['reports', 'list', '--all', '--output', out]);
          expect(again.code, again.stderr).toBe(0);
          expect(readFileSync(out, 'utf8').trimEnd().split('\r\n')).toHaveLength(REPORTS + 1);
          expect(temporaryFiles(join(made.dataDir, '..'))).toEqual([]);
          made.expectIntact();
        },
      ).catch(failed('export'));
    };

    const profilesLane = async () => {
      const made = folder();
      await made.addProfile('P0');
      let next = 1;
      let before: string[] = [];
      let after: string[] = [];
      const change = (): Running => {
        const names = after.length > 0 ? after : before;
        const roll = random();
        if (roll < 0.45 || names.length < 2) {
          const name = `P${next++}`;
          [before, after] = [names, [...names, name]];
          return made.spawn(['profiles', 'add', name, '--base-url', service.baseUrl], { stdin: made.apiKey });
        }
        const name = names[Math.floor(random() * names.length)];
        if (roll < 0.75) {
          [before, after] = [names, names.filter((n) => n !== name)];
          return made.spawn(['profiles', 'remove', name, '--yes']);
        }
        [before, after] = [names, names];
        return made.spawn(['profiles', 'use', name]);
      };
      before = ['P0'];
      return killAtRandom(13, random, change, async (killed) => {
        made.expectIntact({ temps: false });
        // An add cut after its key stored: the user restores it, as `profiles list` tells them to.
        const orphans = JSON.parse((await made.cli(['profiles', 'orphans', '--json'])).stdout) as {
          orphanedKeys: { foundIn: string | null }[];
        };
        expect(orphans.orphanedKeys.every((orphan) => orphan.foundIn === 'interrupted_add')).toBe(true);
        if (orphans.orphanedKeys.length > 0) await made.cli(['profiles', 'orphans', '--restore']);
        const state = await made.expectKeysMatchProfiles();
        const names = state.profiles.map((profile) => profile.name).sort();
        // No profile lost: the list is the one before the change or the one after it.
        if (killed) expect([before.sort().join(), after.sort().join()]).toContain(names.join());
        else expect(names).toEqual(after.sort());
        after = names;
        made.expectIntact();
      }).catch(failed('profiles'));
    };

    const kills = await Promise.all([syncLane(), exportLane(), profilesLane()]);
    expect(kills).toEqual([14, 13, 13]);
  }, 150_000);
});
