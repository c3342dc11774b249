import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sweepStaleTemps, syncDirectory, writeFileAtomic } from '../../electron/core/atomicWrite';
import { armCrashPoints, CRASH_AT_ENV } from '../../electron/core/crashPoints';
import { ownerToken } from '../../electron/core/processOwner';
import { deadOwnerToken } from '../helpers/deadOwner';
import { skipWhen } from '../helpers/skip';

const posix = process.platform !== 'win32';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('creates the file 0600 with the content, and leaves nothing else beside it', () => {
    const file = join(dir, 'state.json');
    writeFileAtomic(file, '{"a":"é"}');
    expect(readFileSync(file, 'utf8')).toBe('{"a":"é"}');
    if (posix) expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('replaces an existing file whole and narrows a wider mode to 0600', () => {
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old content that is longer than the new one', { mode: 0o644 });
    writeFileAtomic(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    if (posix) expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('answers the stats of the file it published', () => {
    const file = join(dir, 'state.json');
    const stats = writeFileAtomic(file, 'x'.repeat(100));
    expect(stats.ino).toBe(statSync(file).ino);
    expect(stats.size).toBe(100);
  });

  it('throws the file system error and keeps what was there when the rename cannot happen', () => {
    // A folder where the file should go: the rename fails after the temporary file was written.
    const target = join(dir, 'taken');
    mkdirSync(target);
    writeFileSync(join(target, 'inside'), 'kept');
    expect(() => writeFileAtomic(target, 'new')).toThrow(
      expect.objectContaining({ code: expect.any(String) }),
    );
    expect(readFileSync(join(target, 'inside'), 'utf8')).toBe('kept');
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it('throws ENOENT when the folder is missing (it never creates folders)', () => {
    expect(() => writeFileAtomic(join(dir, 'missing', 'state.json'), 'x')).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('temporary files a killed write left', () => {
  const hex = 'abcdef012345';

  it('are removed when their process is gone, by the next write in that folder, whatever file they were for', () => {
    const dead = deadOwnerToken();
    const left = [`.export.csv.${dead}.${hex}.tmp`, `.profiles.json.${dead}.${hex}.tmp`];
    const live = `.other.json.${ownerToken()}.${hex}.tmp`;
    for (const name of [...left, live]) writeFileSync(join(dir, name), 'half');
    writeFileAtomic(join(dir, 'state.json'), 'x');
    expect(readdirSync(dir).sort()).toEqual([live, 'state.json'].sort());
  });

  it('of an older version (no owner in the name) go only from the data folder, and only an hour old', () => {
    const fresh = `.profiles.json.${hex}.tmp`;
    const old = '.profiles.json.0123456789ab.tmp';
    const foreign = '.someone-elses.tmp';
    for (const name of [fresh, old, foreign]) writeFileSync(join(dir, name), 'half');
    const hourAgo = (Date.now() - 3_600_000 - 1000) / 1000;
    utimesSync(join(dir, old), hourAgo, hourAgo);
    utimesSync(join(dir, foreign), hourAgo, hourAgo);
    // Another folder (an export's): an ownerless name could be anyone's, and stays.
    expect(sweepStaleTemps(dir)).toBe(0);
    expect(sweepStaleTemps(dir, { ownerless: true })).toBe(1);
    expect(readdirSync(dir).sort()).toEqual([foreign, fresh].sort());
  });

  it('of an older version go only once more than an hour old to the millisecond, by the clock given', () => {
    const name = '.profiles.json.0123456789ab.tmp';
    writeFileSync(join(dir, name), 'half');
    // Whole seconds: the file's time in ms is exact, so the clock can sit on the boundary.
    const written = Math.floor(Date.now() / 1000) - 7200;
    utimesSync(join(dir, name), written, written);
    const hourLater = written * 1000 + 3_600_000;
    expect(sweepStaleTemps(dir, { ownerless: true, now: () => hourLater })).toBe(0);
    expect(readdirSync(dir)).toEqual([name]);
    expect(sweepStaleTemps(dir, { ownerless: true, now: () => hourLater + 1 })).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('only names exactly as a write makes them are swept (nothing before the dot, nothing after .tmp)', () => {
    const dead = deadOwnerToken();
    const kept = [
      `profiles.json.${dead}.${hex}.tmp`,
      `.profiles.json.${dead}.${hex}.tmp.mine.tmp`,
      'profiles.json.0123456789ab.tmp',
      '.profiles.json.0123456789ab.tmp.mine.tmp',
    ];
    for (const name of kept) writeFileSync(join(dir, name), 'not a write’s');
    const hourAgo = (Date.now() - 3_600_000 - 1000) / 1000;
    for (const name of kept) utimesSync(join(dir, name), hourAgo, hourAgo);
    expect(sweepStaleTemps(dir, { ownerless: true })).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([...kept].sort());
  });

  it('a folder that cannot be read has nothing to sweep', () => {
    expect(sweepStaleTemps(join(dir, 'missing'))).toBe(0);
  });
});

describe('a write that fails part way', () => {
  const openFiles = () => readdirSync('/proc/self/fd').length;

  it.skipIf(
    skipWhen(process.platform !== 'linux', 'open files are counted in /proc/self/fd, which only Linux has'),
  )('keeps the old file, leaves no temporary file and no open file behind', () => {
    const file = join(dir, 'state.json');
    writeFileAtomic(file, 'old');
    const before = openFiles();
    armCrashPoints({ [CRASH_AT_ENV]: 'atomic-write.half-written' }, () => {
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    });
    try {
      expect(() => writeFileAtomic(file, 'new content')).toThrow('no space left on device');
    } finally {
      armCrashPoints({});
    }
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['state.json']);
    expect(openFiles()).toBe(before);
  });

  it.skipIf(
    skipWhen(process.platform !== 'linux', 'open files are counted in /proc/self/fd, which only Linux has'),
  )('syncing a folder leaves no open file, and a missing one is no error', () => {
    const before = openFiles();
    syncDirectory(dir);
    syncDirectory(join(dir, 'missing'));
    expect(openFiles()).toBe(before);
  });
});

describe('its crash points', () => {
  it.each([
    ['an even length', 'abcdefgh', 'abcd'],
    ['an odd length', 'abcdefghi', 'abcd'],
  ])('half-written has exactly the first half of the bytes on disk (%s)', (_, content, firstHalf) => {
    const onDisk: string[] = [];
    armCrashPoints({ [CRASH_AT_ENV]: 'atomic-write.half-written' }, () => {
      const [temporary] = readdirSync(dir).filter((name) => name.endsWith('.tmp'));
      onDisk.push(readFileSync(join(dir, temporary), 'utf8'));
    });
    try {
      writeFileAtomic(join(dir, 'state.json'), content);
    } finally {
      armCrashPoints({});
    }
    expect(onDisk).toEqual([firstHalf]);
    expect(readFileSync(join(dir, 'state.json'), 'utf8')).toBe(content);
  });

  it.each(['atomic-write.half-written', 'atomic-write.before-rename'])(
    '%s is reached once per write, the file still whole',
    (point) => {
      let kills = 0;
      armCrashPoints({ [CRASH_AT_ENV]: point }, () => kills++);
      try {
        writeFileAtomic(join(dir, 'state.json'), 'content');
      } finally {
        armCrashPoints({});
      }
      expect(kills).toBe(1);
      expect(readFileSync(join(dir, 'state.json'), 'utf8')).toBe('content');
    },
  );
});
