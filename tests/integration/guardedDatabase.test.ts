/**
 * A SQLite file kept usable whatever happens to it (electron/core/guardedDatabase.ts, with
 * sqliteFile.ts and runMarkers.ts): damage found at open, by the check after an unclean end,
 * or by a statement later is set aside (with its -wal and -shm, a few kept) and a new file
 * opened; another handle follows a file set aside meanwhile; a read-only folder is read from a
 * private copy; a run killed before it closed is noticed by the next one.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GuardedDatabase, type SetAsideEvent } from '../../electron/core/guardedDatabase';
import { createLogger, memorySink } from '../../electron/core/log';
import { ownerToken } from '../../electron/core/processOwner';
import { RUN_FOLDER, startRun } from '../../electron/core/runMarkers';
import { isDamage, pruneSetAside, quickCheck, setAside } from '../../electron/core/sqliteFile';
import { overwriteMiddle } from '../helpers/damage';
import { deadOwnerToken } from '../helpers/deadOwner';
import { skipWhen } from '../helpers/skip';
import { mountTmpfs, tmpfsUnavailable } from '../helpers/tmpfs';

let dir: string;
let file: string;
const opened: GuardedDatabase[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-guarded-'));
  file = join(dir, 'data.sqlite');
});
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const migrate = (db: Database.Database) => db.exec('CREATE TABLE IF NOT EXISTS rows (text TEXT)');

function guarded(options: { check?: boolean; file?: string } = {}) {
  const events: SetAsideEvent[] = [];
  const sink = memorySink();
  const db = new GuardedDatabase({
    file: options.file ?? file,
    label: 'The test file',
    migrate,
    synchronous: 'NORMAL',
    check: options.check ?? false,
    countLost: (handle) => (handle.prepare('SELECT count(*) AS n FROM rows').get() as { n: number }).n,
    onSetAside: (event) => events.push(event),
    logger: createLogger('test', sink),
  });
  opened.push(db);
  return { db, events, log: () => sink.lines.join('\n') };
}

/** A file with `count` rows of 200 bytes (about 10 pages per 200 rows), closed. */
function filled(count: number, target = file): void {
  const db = new Database(target);
  db.pragma('journal_mode = WAL');
  migrate(db);
  const insert = db.prepare('INSERT INTO rows VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(`${i}`.padEnd(200, 'x'));
  })();
  db.close();
}

/** The damaged files set aside (without their -wal and -shm). */
const asides = () =>
  readdirSync(dir).filter((name) => name.includes('.corrupt-') && !/-(wal|shm)$/.test(name));

describe('damage at open', () => {
  it('a file that is no database is set aside and a new one opened, told once', () => {
    writeFileSync(file, 'not a database, only text long enough to look like a file of some size at all');
    const { db, events, log } = guarded();
    expect(db.db.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 0 });
    expect(events).toEqual([
      {
        file,
        asideAs: expect.stringMatching(/\.corrupt-\d{4}-\d{2}-\d{2}T\d{9}Z$/),
        code: 'SQLITE_NOTADB',
        lost: null,
        during: 'open',
        restoredFrom: null,
      },
    ]);
    expect(asides()).toHaveLength(1);
    expect(log()).toMatch(
      /WARN \[test\] The test file is damaged; keeping it aside and starting a new one\..*SQLITE_NOTADB/,
    );
    expect(db.generation).toBe(0);
  });

  it('damaged pages are found by the check after an unclean end, not when the last run closed cleanly', () => {
    filled(2000);
    overwriteMiddle(file);
    const clean = guarded();
    expect(clean.events).toEqual([]);
    clean.db.close();
    const checked = guarded({ check: true });
    expect(checked.events).toHaveLength(1);
    expect(checked.events[0]).toMatchObject({ during: 'open', code: expect.stringMatching(/\S/) });
    expect(checked.events[0].code).not.toBe('ok');
    expect(quickCheck(checked.db.db)).toBe('ok');
    expect(asides()).toHaveLength(1);
  });

  it('a healthy file passes the check and is kept', () => {
    filled(50);
    const { db, events } = guarded({ check: true });
    expect(events).toEqual([]);
    expect(db.db.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 50 });
  });

  it('a failure that is no damage is the caller’s, and nothing is set aside', () => {
    mkdirSync(file);
    expect(() => guarded()).toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(asides()).toEqual([]);
  });
});

describe('damage found while in use', () => {
  it('is set aside with what it still held, and the next statement runs on a new file', () => {
    filled(2000);
    const { db, events } = guarded();
    overwriteMiddle(file);
    let thrown: unknown;
    try {
      db.db.prepare('SELECT count(*), max(text) FROM rows').get();
    } catch (error) {
      thrown = error;
    }
    expect(isDamage(thrown)).toBe(true);
    db.recover(thrown);
    expect(db.generation).toBe(1);
    expect(events).toEqual([
      expect.objectContaining({ during: 'use', code: expect.stringMatching(/^SQLITE_CORRUPT/) }),
    ]);
    expect(db.db.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 0 });
    expect(asides()).toHaveLength(1);
  });

  it('anything that is not damage is thrown back untouched', () => {
    const { db, events } = guarded();
    const busy = Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' });
    expect(() => db.recover(busy)).toThrow(busy);
    expect(events).toEqual([]);
    expect(db.generation).toBe(0);
  });

  it('another handle follows the new file before a write, and before a read at most once a second', () => {
    filled(10);
    const first = guarded();
    const second = guarded();
    first.db.recover(Object.assign(new Error('damaged'), { code: 'SQLITE_CORRUPT' }));
    const now = Date.now() + 10_000;
    expect(second.db.follow(false, now)).toBe(true);
    expect(second.db.generation).toBe(1);
    second.db.db.prepare("INSERT INTO rows VALUES ('seen by both')").run();
    expect(first.db.db.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 1 });
    // Nothing changed: no reopen. A read right after a look does not look again.
    expect(second.db.follow(true, now)).toBe(false);
    first.db.recover(Object.assign(new Error('damaged'), { code: 'SQLITE_NOTADB' }));
    expect(second.db.follow(false, now + 500)).toBe(false);
    expect(second.db.follow(true, now + 500)).toBe(true);
    // The second handle never set anything aside itself.
    expect(second.events).toEqual([]);
    expect(asides()).toHaveLength(2);
  });

  it('a handle whose file another one already set aside does not set the new file aside too', () => {
    filled(10);
    const first = guarded();
    const second = guarded();
    const damage = Object.assign(new Error('damaged'), { code: 'SQLITE_CORRUPT' });
    first.db.recover(damage);
    second.db.recover(damage);
    expect(asides()).toHaveLength(1);
    expect(second.events).toEqual([]);
    expect(second.db.generation).toBe(1);
  });
});

describe('sets aside', () => {
  it('the file with its -wal and -shm, and keeps only the newest two', () => {
    for (let round = 0; round < 3; round++) {
      filled(5);
      const open = new Database(file);
      open.prepare("INSERT INTO rows VALUES ('in the wal')").run();
      // Killed without closing: the -wal and -shm stay beside the file.
      const aside = setAside(file, 'SQLITE_CORRUPT');
      open.close();
      expect(existsSync(`${aside.asideAs}-wal`) || round > 0).toBe(true);
      expect(existsSync(file)).toBe(false);
      // Names are by the millisecond: wait for the next one rather than sleep.
      const until = Date.now() + 2;
      while (Date.now() < until) {
        /* spin */
      }
    }
    expect(asides()).toHaveLength(2);
    pruneSetAside(file, 1);
    expect(asides()).toHaveLength(1);
    expect(readdirSync(dir).filter((name) => name.includes('.corrupt-'))).toHaveLength(3);
  });
});

describe('a read-only folder', () => {
  it.skipIf(skipWhen(tmpfsUnavailable() !== null, tmpfsUnavailable() ?? ''))(
    'is read from a private copy; nothing is set aside there, and the copy goes at close',
    () => {
      const disk = mountTmpfs(1024 * 1024);
      try {
        const target = join(disk.dir, 'data.sqlite');
        filled(30, target);
        disk.remount('ro');
        const { db, events } = guarded({ file: target });
        expect(db.readOnly).toEqual({ folder: disk.dir, code: 'EROFS' });
        expect(db.db.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 30 });
        expect(db.db.name).not.toBe(target);
        const copy = db.db.name;
        expect(() => db.recover(Object.assign(new Error('damaged'), { code: 'SQLITE_CORRUPT' }))).toThrow(
          'damaged',
        );
        expect(db.follow(true)).toBe(false);
        db.close();
        expect(existsSync(copy)).toBe(false);
        expect(events).toEqual([]);
        // No file at all: an empty one in memory, with its schema.
        const empty = guarded({ file: join(disk.dir, 'none.sqlite') });
        expect(empty.db.db.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 0 });
      } finally {
        for (const db of opened.splice(0)) db.close();
        disk.unmount();
      }
    },
  );
});

describe('run markers', () => {
  it('a run that ended cleanly leaves nothing; one whose process is gone is noticed once and removed', () => {
    const first = startRun(dir);
    expect(first.uncleanEnd).toBe(false);
    expect(readdirSync(join(dir, RUN_FOLDER))).toHaveLength(1);
    // A second core of a live process (the app beside a CLI command) is no unclean end.
    const second = startRun(dir);
    expect(second.uncleanEnd).toBe(false);
    first.end();
    // Its marker removed by someone else meanwhile: ending still works.
    rmSync(join(dir, RUN_FOLDER), { recursive: true });
    second.end();
    second.end();
    expect(existsSync(join(dir, RUN_FOLDER))).toBe(false);
    mkdirSync(join(dir, RUN_FOLDER));
    writeFileSync(join(dir, RUN_FOLDER, `${deadOwnerToken()}.abcd1234`), '');
    const third = startRun(dir);
    expect(third.uncleanEnd).toBe(true);
    expect(readdirSync(join(dir, RUN_FOLDER))).toEqual([
      expect.stringMatching(new RegExp(`^${ownerToken()}\\.`)),
    ]);
    third.end();
    expect(startRun(dir).uncleanEnd).toBe(false);
  });

  it('a folder that cannot hold markers keeps none, and says nothing was unclean', () => {
    writeFileSync(join(dir, RUN_FOLDER), 'a file where the folder should be');
    const run = startRun(dir);
    expect(run.uncleanEnd).toBe(false);
    expect(() => run.end()).not.toThrow();
  });
});
