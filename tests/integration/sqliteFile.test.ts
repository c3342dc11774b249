/**
 * The helpers behind a damaged or read-only SQLite file (electron/core/sqliteFile.ts): what
 * counts as damage, the check's findings, a damaged file set aside with its -wal and -shm (a
 * few kept, the newest), and the private copy a read-only folder is read from.
 */
import Database from 'better-sqlite3';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asideName } from '../../electron/core/asideName';
import { armCrashPoints, CRASH_AT_ENV } from '../../electron/core/crashPoints';
import { isDamage, pruneSetAside, quickCheck, setAside, temporaryCopy } from '../../electron/core/sqliteFile';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-sqlitefile-'));
  file = join(dir, 'data.sqlite');
});
afterEach(() => {
  armCrashPoints({});
  rmSync(dir, { recursive: true, force: true });
});

const coded = (code: string) => Object.assign(new Error(code), { code });

function filled(rows: number): void {
  const db = new Database(file);
  db.exec('CREATE TABLE rows (text TEXT); CREATE INDEX rows_text ON rows (text)');
  const insert = db.prepare('INSERT INTO rows VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`${i}`.padEnd(300, 'y'));
  })();
  db.close();
}

describe('damage', () => {
  it.each([
    ['SQLITE_CORRUPT', true],
    ['SQLITE_CORRUPT_VTAB', true],
    ['SQLITE_CORRUPT_INDEX', true],
    ['SQLITE_NOTADB', true],
    ['X_SQLITE_CORRUPT', false],
    ['SQLITE_NOTADB_X', false],
    ['SQLITE_BUSY', false],
  ])('%s is damage: %s', (code, damage) => {
    expect(isDamage(coded(code))).toBe(damage);
  });

  it('the check says ok for a sound file, and each finding on a line of its own for a damaged one', () => {
    filled(3000);
    const sound = new Database(file, { readonly: true });
    expect(quickCheck(sound)).toBe('ok');
    const pages = sound.pragma('page_count', { simple: true }) as number;
    sound.close();
    // One whole page of the table's tree, a third of the way in: the check lists what it finds.
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x41), 0, 4096, Math.floor(pages * 0.3) * 4096);
    closeSync(fd);
    const damaged = new Database(file, { readonly: true });
    try {
      const rows = (damaged.pragma('quick_check') as { quick_check: string }[]).map((row) => row.quick_check);
      expect(rows.length).toBeGreaterThan(1);
      expect(quickCheck(damaged)).toBe(rows.join('\n'));
    } finally {
      damaged.close();
    }
  });
});

describe('setting a damaged file aside', () => {
  it('moves the file, and its -wal and -shm when there are, under a name that says when; none is left for the new file', () => {
    writeFileSync(file, 'main');
    writeFileSync(`${file}-wal`, 'wal');
    const aside = setAside(file, 'SQLITE_CORRUPT');
    expect(aside).toEqual({
      asideAs: expect.stringMatching(/data\.sqlite\.corrupt-\d{4}-\d{2}-\d{2}T\d{9}Z$/),
      code: 'SQLITE_CORRUPT',
    });
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(existsSync(`${aside.asideAs}-wal`)).toBe(true);
    expect(existsSync(`${aside.asideAs}-shm`)).toBe(false);
  });

  it('two set aside in the same millisecond keep both: the second name is numbered', () => {
    const at = new Date('2026-11-28T01:02:03.456Z');
    const first = asideName(file, at);
    expect(first).toBe(`${file}.corrupt-2026-11-28T010203456Z`);
    writeFileSync(first, 'one');
    expect(asideName(file, at)).toBe(`${first}-2`);
    writeFileSync(`${first}-2`, 'two');
    expect(asideName(file, at)).toBe(`${first}-3`);
  });

  it('a -shm that cannot be moved beside it (a folder of that name there) is removed instead', () => {
    writeFileSync(file, 'main');
    writeFileSync(`${file}-shm`, 'shm');
    const at = new Date('2026-11-28T01:02:03.456Z');
    // The name its -shm would take is a non-empty folder: that rename fails.
    mkdirSync(join(dir, 'data.sqlite.corrupt-2026-11-28T010203456Z-shm', 'inside'), { recursive: true });
    const aside = setAside(file, 'SQLITE_NOTADB', at);
    expect(aside.asideAs).toBe(join(dir, 'data.sqlite.corrupt-2026-11-28T010203456Z'));
    expect(existsSync(`${file}-shm`)).toBe(false);
  });

  it('is a crash point: a test process may stop right after the rename', () => {
    writeFileSync(file, 'main');
    let kills = 0;
    armCrashPoints({ [CRASH_AT_ENV]: 'file.set-aside' }, () => kills++);
    setAside(file, 'SQLITE_CORRUPT');
    expect(kills).toBe(1);
  });

  it('keeps the newest copies, each with its -wal and -shm, and removes the rest', () => {
    const stamps = ['2026-01-03', '2026-01-01', '2026-01-05', '2026-01-02', '2026-01-04'];
    for (const stamp of stamps) {
      const name = join(dir, `data.sqlite.corrupt-${stamp}T000000000Z`);
      writeFileSync(name, 'x');
      if (stamp !== '2026-01-02') writeFileSync(`${name}-wal`, 'x');
      if (stamp !== '2026-01-01') writeFileSync(`${name}-shm`, 'x');
    }
    writeFileSync(join(dir, 'other.sqlite.corrupt-2026-01-01T000000000Z'), 'not this file’s');
    pruneSetAside(file, 2);
    expect(readdirSync(dir).sort()).toEqual([
      'data.sqlite.corrupt-2026-01-04T000000000Z',
      'data.sqlite.corrupt-2026-01-04T000000000Z-shm',
      'data.sqlite.corrupt-2026-01-04T000000000Z-wal',
      'data.sqlite.corrupt-2026-01-05T000000000Z',
      'data.sqlite.corrupt-2026-01-05T000000000Z-shm',
      'data.sqlite.corrupt-2026-01-05T000000000Z-wal',
      'other.sqlite.corrupt-2026-01-01T000000000Z',
    ]);
    // A folder that cannot be read has nothing to prune.
    expect(() => pruneSetAside(join(dir, 'missing', 'data.sqlite'))).not.toThrow();
  });

  it('tells a copy’s -wal and -shm by their end only: a file named with -wal or -shm inside is pruned too', () => {
    const named = join(dir, 'my-wal-shm.sqlite');
    for (const day of ['2026-01-01', '2026-01-02', '2026-01-03']) {
      const name = `${named}.corrupt-${day}T000000000Z`;
      writeFileSync(name, 'x');
      writeFileSync(`${name}-wal`, 'x');
    }
    pruneSetAside(named, 1);
    expect(readdirSync(dir).sort()).toEqual([
      'my-wal-shm.sqlite.corrupt-2026-01-03T000000000Z',
      'my-wal-shm.sqlite.corrupt-2026-01-03T000000000Z-wal',
    ]);
  });
});

describe('the private copy of a read-only folder’s file', () => {
  it('copies the file and its -wal into a folder of its own, removed by discard', () => {
    writeFileSync(file, 'main');
    writeFileSync(`${file}-wal`, 'wal');
    const parent = join(dir, 'tmp');
    mkdirSync(parent);
    const copy = temporaryCopy(file, parent)!;
    const [made] = readdirSync(parent);
    expect(made).toMatch(/^reportdesk-read-only-/);
    expect(copy.file).toBe(join(parent, made, 'data.sqlite'));
    expect(readFileSync(copy.file, 'utf8')).toBe('main');
    expect(readFileSync(`${copy.file}-wal`, 'utf8')).toBe('wal');
    copy.discard();
    expect(readdirSync(parent)).toEqual([]);
  });

  it('copies a file without a -wal alone; discarding a copy the system already cleaned away is no error', () => {
    writeFileSync(file, 'main');
    const parent = join(dir, 'tmp');
    mkdirSync(parent);
    const copy = temporaryCopy(file, parent)!;
    expect(copy).not.toBeNull();
    expect(readdirSync(dirname(copy.file))).toEqual(['data.sqlite']);
    rmSync(dirname(copy.file), { recursive: true });
    expect(() => copy.discard()).not.toThrow();
  });

  it('is none for no file, an empty file, or a file that cannot be copied (and leaves nothing)', () => {
    const parent = join(dir, 'tmp');
    mkdirSync(parent);
    expect(temporaryCopy(file, parent)).toBeNull();
    writeFileSync(file, '');
    expect(temporaryCopy(file, parent)).toBeNull();
    rmSync(file);
    mkdirSync(file);
    expect(temporaryCopy(file, parent)).toBeNull();
    expect(readdirSync(parent)).toEqual([]);
    writeFileSync(join(dir, 'plain'), 'x');
    expect(temporaryCopy(join(dir, 'plain'), join(dir, 'no-such-parent'))).toBeNull();
  });
});
