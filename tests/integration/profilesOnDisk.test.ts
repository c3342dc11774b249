/**
 * profiles.json as the store keeps it (electron/core/profiles/profilesOnDisk.ts, issue 30), on
 * real files: a file removed by someone, a repair another process finished while this one
 * waited for the lock, a repair that cannot be made, starting afresh, the backup's crash point,
 * what is written, and a full disk.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { armCrashPoints, CRASH_AT_ENV } from '../../electron/core/crashPoints';
import { createLogger, memorySink, silentLogger } from '../../electron/core/log';
import { ProfilesLock } from '../../electron/core/profiles/profilesLock';
import { ProfilesOnDisk } from '../../electron/core/profiles/profilesOnDisk';
import { failureOf } from '../helpers/failures';
import { onTmpfs } from '../helpers/tmpfs';

let dir: string;
let file: string;
let sink: ReturnType<typeof memorySink>;
const locks: ProfilesLock[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-on-disk-'));
  file = join(dir, 'profiles.json');
  sink = memorySink();
});
afterEach(() => {
  for (const lock of locks.splice(0)) lock.close();
  rmSync(dir, { recursive: true, force: true });
});

const profile = (id: string) => ({
  id,
  name: id.toUpperCase(),
  baseUrl: `https://${id}.example`,
  allowInsecureHttp: false,
  demo: false,
  createdAt: '2026-01-01T00:00:00.000Z',
});
const list = (...ids: string[]) => ({
  version: 1 as const,
  activeId: ids[0] ?? null,
  profiles: ids.map(profile),
});
const copies = () => readdirSync(dir).filter((name) => name.includes('.corrupt-'));

function onDisk(lock?: ProfilesLock, target = file): ProfilesOnDisk {
  const real = new ProfilesLock(target, silentLogger, 2_000);
  locks.push(real);
  return new ProfilesOnDisk(target, lock ?? real, createLogger('test', sink), () => undefined);
}

describe('reading again', () => {
  it('a file someone removed reads as no profiles', () => {
    writeFileSync(file, JSON.stringify(list('a')));
    const disk = onDisk();
    expect(disk.state.profiles).toHaveLength(1);
    rmSync(file);
    expect(disk.refresh()).toBe(true);
    expect(disk.state.profiles).toEqual([]);
  });

  it('a path that cannot be looked at keeps what was read', () => {
    writeFileSync(file, JSON.stringify(list('a')));
    const disk = onDisk();
    rmSync(file);
    // ENOTDIR: the folder became a file. Not "gone": the list held stays.
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'a file where the folder was');
    try {
      expect(disk.refresh()).toBe(false);
      expect(disk.state.profiles).toHaveLength(1);
    } finally {
      rmSync(dir);
      mkdirSync(dir);
    }
  });
});

describe('repairing', () => {
  it('a file another process repaired while this one waited for the lock is read as it is now', () => {
    writeFileSync(file, '{"version": 1, "profiles": [');
    const other = new ProfilesLock(file, silentLogger);
    locks.push(other);
    const racing = {
      run: <T>(fn: () => T): T => {
        writeFileSync(file, JSON.stringify(list('fixed')));
        return other.run(fn);
      },
    } as unknown as ProfilesLock;
    const disk = onDisk(racing);
    expect(disk.state.profiles.map((p) => p.id)).toEqual(['fixed']);
    expect(disk.damage()).toBeNull();
    expect(copies()).toEqual([]);
  });

  it('restoring the backup logs where the damaged file was kept', () => {
    writeFileSync(file, JSON.stringify(list('a')));
    const disk = onDisk();
    disk.save(list('a', 'b'));
    writeFileSync(file, 'garbage');
    disk.load();
    expect(disk.state.profiles.map((p) => p.id)).toEqual(['a']);
    const [aside] = copies();
    const log = sink.lines.join('\n');
    expect(log).toMatch(
      /WARN \[test\] The profiles file could not be used because it is not valid JSON; its backup of \S+ was restored\./,
    );
    expect(log).toContain(`{"asideAs":"${join(dir, aside)}"}`);
  });

  it('a repair that cannot take its lock blocks the store and logs why', () => {
    writeFileSync(file, 'garbage');
    const failing = {
      run: () => {
        throw Object.assign(new Error('read-only file system'), { code: 'EROFS' });
      },
    } as unknown as ProfilesLock;
    const disk = onDisk(failing);
    expect(disk.damage()).toMatchObject({ file, asideAs: file });
    expect(sink.lines.join('\n')).toMatch(
      /ERROR \[test\] The damaged profiles file could not be repaired\. \{"code":"EROFS"\}/,
    );
    expect(() => disk.failIfUnusable()).toThrow(/It is kept as it is \(it could not be moved: EROFS\)/);
  });
});

describe('starting afresh', () => {
  it('removes the damaged file, keeps its one copy, writes an empty list and says so in the log', () => {
    writeFileSync(file, '{"version": 1, "profiles": [{"id": "x"');
    const disk = onDisk();
    const damage = disk.damage()!;
    expect(copies()).toHaveLength(1);
    disk.startAfresh();
    expect(copies()).toHaveLength(1);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, activeId: null, profiles: [] });
    expect(disk.damage()).toBeNull();
    expect(sink.lines.join('\n')).toContain(
      `WARN [test] A new, empty profile list was started over the damaged file, as the user agreed. {"asideAs":"${damage.asideAs}"}`,
    );
  });

  onTmpfs('in a read-only folder, it fails as such and the store stays blocked', 256 * 1024, (disk) => {
    try {
      const target = join(disk.dir, 'profiles.json');
      writeFileSync(target, 'garbage');
      const store = onDisk(undefined, target);
      // A lock file open for writing would keep the folder from being remounted read-only.
      for (const lock of locks.splice(0)) lock.close();
      disk.remount('ro');
      expect(failureOf(() => store.startAfresh())).toMatchObject({
        kind: 'read_only',
        details: { folder: disk.dir },
      });
      expect(store.damage()).not.toBeNull();
    } finally {
      for (const lock of locks.splice(0)) lock.close();
    }
  });
});

describe('saving', () => {
  it('writes the backup of the last good file, at its crash point, and no empty list of pending changes', () => {
    writeFileSync(file, JSON.stringify(list('a')));
    const disk = onDisk();
    let kills = 0;
    armCrashPoints({ [CRASH_AT_ENV]: 'profiles.backup-written' }, () => kills++);
    try {
      disk.save({ ...list('a', 'b'), pending: [] });
    } finally {
      armCrashPoints({});
    }
    expect(kills).toBe(1);
    expect(JSON.parse(readFileSync(`${file}.backup`, 'utf8')).profiles).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).not.toContain('pending');
    expect(disk.state).not.toHaveProperty('pending');
  });

  onTmpfs(
    'on a full disk it fails with disk_full naming the data folder, and the file is as it was',
    64 * 1024,
    (disk) => {
      try {
        const target = join(disk.dir, 'profiles.json');
        writeFileSync(target, JSON.stringify(list('a')));
        const store = onDisk(undefined, target);
        try {
          writeFileSync(join(disk.dir, 'filler'), Buffer.alloc(128 * 1024));
        } catch {
          // Full now.
        }
        expect(failureOf(() => store.save(list('a', 'b')))).toMatchObject({
          kind: 'disk_full',
          details: { folder: disk.dir, place: 'data_folder' },
        });
        expect(JSON.parse(readFileSync(target, 'utf8')).profiles).toHaveLength(1);
      } finally {
        for (const lock of locks.splice(0)) lock.close();
      }
    },
  );
});
