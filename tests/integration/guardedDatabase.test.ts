/**
 * A SQLite file kept usable whatever happens to it (electron/core/guardedDatabase.ts, with
 * sqliteFile.ts and runMarkers.ts): damage found at open, by the check after an unclean end,
 * or by a statement later is set aside (with its -wal and -shm, a few kept) and a new file
 * opened; another handle follows a file set aside meanwhile; a read-only folder is read from a
 * private copy; a run killed before it closed is noticed by the next one.
 */
import Database from 'better-sqlite3';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GuardedDatabase, type SetAsideEvent } from '../../electron/core/guardedDatabase';
import { createLogger, memorySink } from '../../electron/core/log';
import { ownerToken } from '../../electron/core/processOwner';
import { RUN_FOLDER, startRun } from '../../electron/core/runMarkers';
import { isDamage, pruneSetAside, quickCheck, setAside } from '../../electron/core/sqliteFile';
import { failureOf } from '../helpers/failures';
import { overwriteMiddle } from '../helpers/damage';
import { deadOwnerToken } from '../helpers/deadOwner';
import { onTmpfs } from '../helpers/tmpfs';

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

  it('a check that lists findings (rather than failing) sets the file aside too, naming its first finding', () => {
    // A table with an index (no WAL): a page of its tree overwritten is listed, not thrown.
    const raw = new Database(file);
    raw.exec('CREATE TABLE rows (text TEXT); CREATE INDEX rows_text ON rows (text)');
    const insert = raw.prepare('INSERT INTO rows VALUES (?)');
    raw.transaction(() => {
      for (let i = 0; i < 3000; i++) insert.run(`${i}`.padEnd(300, 'y'));
    })();
    const pages = raw.pragma('page_count', { simple: true }) as number;
    raw.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x41), 0, 4096, Math.floor(pages * 0.3) * 4096);
    closeSync(fd);
    const { events } = guarded({ check: true });
    expect(events).toEqual([expect.objectContaining({ during: 'open', code: '*** in database main ***' })]);
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

describe('statements', () => {
  it('each SQL is prepared once per file: the same statement again, a new one on a new file', () => {
    filled(10);
    const { db } = guarded();
    const sql = 'SELECT count(*) AS n FROM rows';
    const first = db.statement(sql);
    expect(db.statement(sql)).toBe(first);
    expect(first.get()).toEqual({ n: 10 });
    db.recover(Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' }));
    const second = db.statement(sql);
    expect(second).not.toBe(first);
    expect(db.statement(sql)).toBe(second);
    expect(second.get()).toEqual({ n: 0 });
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

  it('the whole-file check finds damage in pages no statement read, and passes a healthy file', () => {
    const healthy = join(dir, 'healthy.sqlite');
    filled(2000, healthy);
    expect(() => guarded({ file: healthy }).db.assertIntact()).not.toThrow();
    filled(2000);
    const { db, events } = guarded();
    overwriteMiddle(file);
    let thrown: unknown;
    try {
      db.assertIntact();
    } catch (error) {
      thrown = error;
    }
    expect(isDamage(thrown)).toBe(true);
    // Only the owner's recover sets it aside.
    expect(events).toEqual([]);
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
    const old = first.db.db;
    first.db.recover(Object.assign(new Error('damaged'), { code: 'SQLITE_CORRUPT' }));
    // What it held, counted before it was set aside; its connection closed.
    expect(first.events).toEqual([
      expect.objectContaining({ lost: 10, during: 'use', code: 'SQLITE_CORRUPT' }),
    ]);
    expect(old.open).toBe(false);
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

describe('following and reading', () => {
  const damage = () => Object.assign(new Error('damaged'), { code: 'SQLITE_CORRUPT' });

  it('looks before a read at most once a second: at 999 ms not, at 1000 ms again', () => {
    filled(3);
    const first = guarded();
    const second = guarded();
    const start = Date.now() + 60_000;
    expect(second.db.follow(false, start)).toBe(false);
    first.db.recover(damage());
    expect(second.db.follow(false, start + 999)).toBe(false);
    expect(second.db.follow(false, start + 1000)).toBe(true);
  });

  it('a read looks (throttled): right after a look, another read stays on the file it has', () => {
    filled(3);
    const first = guarded();
    const second = guarded();
    const count = () => second.db.read(() => second.db.statement('SELECT count(*) AS n FROM rows').get());
    expect(count()).toEqual({ n: 3 });
    first.db.recover(damage());
    expect(count()).toEqual({ n: 3 });
    expect(second.db.generation).toBe(0);
    expect(second.db.follow(true)).toBe(true);
    expect(count()).toEqual({ n: 0 });
  });

  it('inside a transaction a read never reopens the file under it', () => {
    filled(3);
    const first = guarded();
    const second = guarded();
    first.db.recover(damage());
    second.db.db.transaction(() => {
      expect(second.db.read(() => second.db.statement('SELECT count(*) AS n FROM rows').get())).toEqual({
        n: 3,
      });
    })();
    expect(second.db.generation).toBe(0);
  });

  it('a read that meets damage is answered again from the new file; anything else is thrown as it is', () => {
    filled(3);
    const { db } = guarded();
    let calls = 0;
    expect(
      db.read(() => {
        calls++;
        if (calls === 1) throw damage();
        return 'again';
      }),
    ).toBe('again');
    const other = new Error('not damage');
    expect(() =>
      db.read(() => {
        throw other;
      }),
    ).toThrow(other);
  });

  it('a file removed from under it: the next write opens a new one, and nothing is set aside', () => {
    filled(3);
    const { db, events } = guarded();
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    expect(db.follow(true)).toBe(true);
    expect(existsSync(file)).toBe(true);
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    db.recover(damage());
    expect(events).toEqual([]);
    expect(asides()).toEqual([]);
    expect(db.generation).toBe(2);
  });

  it('a repair that cannot take its lock says so in a sentence, and sets nothing aside', () => {
    filled(3);
    const { db } = guarded();
    mkdirSync(join(dir, 'repair.lock', 'inside'), { recursive: true });
    expect(failureOf(() => db.recover(damage()))).toEqual({
      kind: 'internal',
      code: 'storage.set_aside_failed',
      values: { file, code: expect.stringMatching(/^\w+$/) },
      message: expect.stringMatching(
        new RegExp(
          `^The damaged file ${file} could not be set aside \\(\\w+\\)\\. Check that the folder is writable, then try again\\.$`,
        ),
      ),
    });
    expect(asides()).toEqual([]);
    // The file it had is still in use.
    expect(db.db.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 3 });
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
  onTmpfs(
    'is read from a private copy; nothing is set aside there, and the copy goes at close',
    1024 * 1024,
    (disk) => {
      try {
        const target = join(disk.dir, 'data.sqlite');
        filled(30, target);
        writeFileSync(join(disk.dir, 'garbage.sqlite'), 'not a database, long enough to be taken for a file');
        disk.remount('ro');
        const { db, events } = guarded({ file: target });
        expect(db.readOnly).toEqual({ folder: disk.dir, code: 'EROFS' });
        expect(failureOf(() => db.assertWritable())).toMatchObject({
          kind: 'read_only',
          details: { folder: disk.dir, place: 'data_folder', code: 'EROFS' },
        });
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
        // No file at all: an empty one in memory, with its schema, and nothing to warn about.
        const empty = guarded({ file: join(disk.dir, 'none.sqlite') });
        expect(empty.db.db.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 0 });
        expect(empty.log()).toBe('');
        // A file that is no database: its copy cannot be opened; empty too, said in the log.
        const garbage = guarded({ file: join(disk.dir, 'garbage.sqlite') });
        expect(garbage.db.db.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 0 });
        expect(garbage.log()).toMatch(
          /WARN \[test\] The read-only copy could not be opened; starting empty\. \{"code":"SQLITE_NOTADB"\}/,
        );
      } finally {
        for (const db of opened.splice(0)) db.close();
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
    // Only its own marker goes.
    expect(readdirSync(join(dir, RUN_FOLDER))).toHaveLength(1);
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
