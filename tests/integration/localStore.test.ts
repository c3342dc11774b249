/**
 * local.sqlite (electron/core/local/localStore.ts, notices.ts, repairNotes.ts): what only this
 * computer knows, durable (synchronous=FULL), backed up once a day, restored from its backup
 * when damaged (or started afresh without one, saying so), refused in a read-only folder, and
 * the repair notices the front ends show until they are dismissed.
 */
import Database from 'better-sqlite3';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RepairNotice } from '../../shared/contract';
import { AppFailure } from '../../shared/errors';
import { LocalStore } from '../../electron/core/local/localStore';
import { RepairNotes } from '../../electron/core/local/repairNotes';
import { createLogger, memorySink, silentLogger } from '../../electron/core/log';
import { failureOf } from '../helpers/failures';
import { overwriteMiddle } from '../helpers/damage';
import { onTmpfs } from '../helpers/tmpfs';
import { skipWhen } from '../helpers/skip';

let dir: string;
let file: string;
const stores: LocalStore[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-local-'));
  file = join(dir, 'local.sqlite');
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

const T0 = '2026-11-01T00:00:00.000Z';
const DAY = 86_400_000;

function open(options: { check?: boolean; now?: () => Date; target?: string } = {}) {
  const sink = memorySink();
  const store = LocalStore.open(options.target ?? file, {
    check: options.check,
    now: options.now,
    logger: createLogger('test', sink),
  });
  stores.push(store);
  return { store, log: () => sink.lines.join('\n') };
}

function logSome(store: LocalStore, scope: string, count: number): void {
  store.transaction(() =>
    store.changes.record(
      scope,
      Array.from({ length: count }, (_, i) => ({
        id: String(i),
        kind: 'added' as const,
        at: T0,
        fields: {},
      })),
    ),
  );
}

describe('what it keeps', () => {
  it('the change log, the seen marks and the notices, across opens; every commit on the disk (synchronous=FULL)', () => {
    const { store } = open();
    logSome(store, 'p', 3);
    store.transaction(() => store.changes.setSince('p', T0));
    store.close();
    const again = open().store;
    expect(again.read(() => again.changes.list('p')).map((c) => c.id)).toEqual(['2', '1', '0']);
    expect(again.changes.since('p')).toBe(T0);
    const raw = new Database(file, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
    // synchronous is per connection: FULL (2) on the store's own.
    expect(
      (again as unknown as { guarded: { db: Database.Database } }).guarded.db.pragma('synchronous', {
        simple: true,
      }),
    ).toBe(2);
  });

  it('an entry whose origin it has is not recorded twice', () => {
    const { store } = open();
    const entry = {
      id: '1',
      kind: 'added' as const,
      at: T0,
      fields: {},
      origin: { source: 'cache-a', seq: 7 },
    };
    store.transaction(() => store.changes.record('p', [entry]));
    store.transaction(() =>
      store.changes.record('p', [entry, { ...entry, id: '2', origin: { source: 'cache-b', seq: 7 } }]),
    );
    expect(store.changes.list('p').map((c) => c.id)).toEqual(['2', '1']);
  });

  it('clears one scope or all, and names the scopes it has', () => {
    const { store } = open();
    logSome(store, 'p', 1);
    store.transaction(() => store.changes.setSince('q', T0));
    expect(store.changes.scopes().sort()).toEqual(['p', 'q']);
    store.transaction(() => store.changes.clear('p'));
    expect(store.changes.scopes()).toEqual(['q']);
    store.transaction(() => store.changes.clear());
    expect(store.changes.scopes()).toEqual([]);
    expect(store.changes.since('q')).toBeNull();
  });
});

describe('writes and other processes', () => {
  const damage = () => Object.assign(new Error('damaged'), { code: 'SQLITE_CORRUPT' });
  const guardOf = (store: LocalStore) =>
    (store as unknown as { guarded: { recover(e: unknown): void } }).guarded;

  it('a write follows a file another process restored meanwhile, even right after a read', () => {
    const a = open().store;
    const b = open().store;
    logSome(b, 'p', 1);
    expect(b.read(() => b.changes.list('p'))).toHaveLength(1);
    guardOf(a).recover(damage());
    logSome(b, 'q', 2);
    // b wrote into the file a now has.
    expect(a.read(() => a.changes.list('q'))).toHaveLength(2);
  });

  it('inside a transaction, a nested one never reopens the file under it', () => {
    const a = open().store;
    const b = open().store;
    b.transaction(() => {
      guardOf(a).recover(damage());
      b.transaction(() => b.changes.setSince('p', T0));
    });
    expect(b.changes.since('p')).toBe(T0);
  });

  it('a write that meets damage: the file is restored for the next write, which works; a notice says so', () => {
    const first = open().store;
    logSome(first, 'p', 600);
    first.close();
    overwriteMiddle(file, 16_384);
    const { store } = open();
    let failed: unknown;
    try {
      // Trimming reads the scope's entries: it meets the damage.
      logSome(store, 'p', 1);
    } catch (error) {
      failed = error;
    }
    expect(failed).toBeDefined();
    expect(store.notices.list().map((notice) => notice.kind)).toEqual(['local_restored']);
    logSome(store, 'p', 1);
    expect(store.changes.list('p').length).toBeGreaterThan(0);
  });

  it('a file a newer ReportDesk wrote is refused, not read', () => {
    const raw = new Database(file);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => open()).toThrow(`${file} was written by a newer version of ReportDesk.`);
  });
});

describe('its backup', () => {
  it('is looked at most once a minute (exactly a minute after, again), and never in a transaction', () => {
    let now = Date.parse(T0);
    const { store, log } = open({ now: () => new Date(now) });
    const backup = `${file}.backup`;
    // Two days old on the store's clock.
    const old = (now - 2 * DAY) / 1000;
    utimesSync(backup, old, old);
    now += 30_000;
    logSome(store, 'p', 1);
    expect(statSync(backup).mtimeMs).toBe(old * 1000);
    now += 30_000;
    store.transaction(() => store.transaction(() => store.changes.setSince('p', T0)));
    expect(statSync(backup).mtimeMs).toBeGreaterThan(Date.now() - DAY);
    expect(log()).not.toMatch(/could not be made/);
  });

  it('is made again once a day old to the millisecond, on the store’s clock, and not a millisecond before', () => {
    // The backup's time in whole seconds, so that its age in ms is exact.
    const madeAt = Math.floor(Date.parse(T0) / 1000) * 1000;
    let now = madeAt;
    const { store } = open({ now: () => new Date(now) });
    const backup = `${file}.backup`;
    utimesSync(backup, madeAt / 1000, madeAt / 1000);
    now = madeAt + DAY - 1;
    logSome(store, 'p', 1);
    expect(statSync(backup).mtimeMs).toBe(madeAt);
    // The next look comes a minute later: a backup a minute newer, and the clock a day after it exactly.
    const newer = madeAt + 60_000;
    utimesSync(backup, newer / 1000, newer / 1000);
    now = newer + DAY;
    logSome(store, 'p', 1);
    expect(statSync(backup).mtimeMs).not.toBe(newer);
  });

  it('that cannot be made (a folder where it goes) is said in the log, leaves no temporary file, and is tried again later', () => {
    mkdirSync(join(`${file}.backup`, 'inside'), { recursive: true });
    const old = (Date.now() - 2 * DAY) / 1000;
    utimesSync(`${file}.backup`, old, old);
    const { log } = open();
    expect(log()).toMatch(
      /WARN \[test:local\] The backup of the local file could not be made; the next write tries again\. \{"code":"E[A-Z]+"\}/,
    );
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
  it('is made at open, again only once it is a day old, and never leaves a temporary file', () => {
    let now = Date.parse(T0);
    const clock = () => new Date(now);
    const { store } = open({ now: clock });
    const backup = `${file}.backup`;
    expect(existsSync(backup)).toBe(true);
    logSome(store, 'p', 2);
    const made = statSync(backup).mtimeMs;
    // Within the day: not made again.
    now += 2 * 60_000;
    logSome(store, 'p', 1);
    expect(statSync(backup).mtimeMs).toBe(made);
    // A day after the backup's own time (on the store's clock): made again at the next write,
    // with what is there now.
    utimesSync(backup, (now - 2 * DAY) / 1000, (now - 2 * DAY) / 1000);
    now += 2 * 60_000;
    logSome(store, 'p', 1);
    expect(statSync(backup).mtimeMs).toBeGreaterThan(Date.now() - DAY);
    const copy = new Database(backup, { readonly: true });
    try {
      expect(copy.prepare('SELECT count(*) AS n FROM change_log').get()).toEqual({ n: 4 });
    } finally {
      copy.close();
    }
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('takes the place of a damaged file, says since when, and the damaged file is kept aside', () => {
    const { store } = open();
    logSome(store, 'p', 300);
    store.close();
    overwriteMiddle(file, 16_384);
    const { store: restored, log } = open({ check: true });
    const notices = restored.notices.list();
    expect(notices).toEqual([
      expect.objectContaining({
        kind: 'local_restored',
        details: {
          asideAs: expect.stringContaining('local.sqlite.corrupt-'),
          entriesLost: expect.anything(),
          backupSavedAt: expect.stringMatching(/^\d{4}-/),
        },
      }),
    ]);
    expect(restored.repairsMadeHere).toEqual(notices);
    // What the store repaired while it opened counts as made by this process.
    expect(new RepairNotes(restored, silentLogger).madeHere).toEqual(notices);
    // The backup was made at the first open: before the 300 entries.
    expect(restored.changes.list('p')).toEqual([]);
    expect(log()).toMatch(
      /WARN \[test:local\] The local file \(change log, seen marks\) is damaged; keeping it aside and restoring its backup\./,
    );
  });

  it.skipIf(
    skipWhen(process.platform !== 'linux', 'open files are counted in /proc/self/fd, which only Linux has'),
  )('restoring leaves no file open behind it (the backup it checked is closed)', () => {
    const { store } = open();
    logSome(store, 'p', 30);
    store.close();
    stores.length = 0;
    overwriteMiddle(file, 16_384);
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    const { store: restored } = open({ check: true });
    expect(restored.notices.list()).toHaveLength(1);
    restored.close();
    stores.length = 0;
    expect(openFiles()).toBe(before);
  });

  it('without a good backup, a new file is started and the notice says nothing could be restored', () => {
    writeFileSync(file, 'not a database at all, only some text of a decent length for a file');
    writeFileSync(`${file}.backup`, 'a damaged backup is no backup either, and it is not used');
    const { store } = open();
    expect(store.notices.list()).toEqual([
      expect.objectContaining({
        kind: 'local_restored',
        details: expect.objectContaining({ backupSavedAt: null, entriesLost: null }),
      }),
    ]);
  });

  it('damage found by a read is repaired and the read answered from the restored file', () => {
    const { store } = open();
    logSome(store, 'p', 500);
    store.close();
    const reopened = open().store;
    overwriteMiddle(file, 16_384);
    const listed = reopened.read(() => reopened.changes.list('p'));
    expect(Array.isArray(listed)).toBe(true);
    expect(reopened.notices.list().map((n) => n.kind)).toContain('local_restored');
  });
});

describe('notices', () => {
  it('are kept until dismissed, oldest first, at most twenty', () => {
    let now = Date.parse(T0);
    const { store } = open({ now: () => new Date((now += 1000)) });
    const notes = new RepairNotes(store, silentLogger);
    const heard: RepairNotice[] = [];
    const stop = notes.onNote((notice) => heard.push(notice));
    for (let i = 0; i < 22; i++) {
      notes.note({
        kind: 'cache_set_aside',
        details: {
          asideAs: `aside-${i}`,
          reportsLost: i,
          during: 'use',
          kept: ['profiles'],
          refillProfileIds: [],
        },
      });
    }
    stop();
    notes.note({ kind: 'profiles_restored', details: { file: 'f', asideAs: 'a', backupSavedAt: T0 } });
    expect(heard).toHaveLength(22);
    expect(notes.madeHere).toHaveLength(23);
    const listed = notes.list();
    expect(listed).toHaveLength(20);
    expect(listed[0].details).toMatchObject({ asideAs: 'aside-3' });
    expect(notes.dismiss(listed[0].id)).toBe(true);
    expect(notes.dismiss(listed[0].id)).toBe(false);
    expect(notes.list()).toHaveLength(19);
  });

  onTmpfs(
    'in a read-only folder: reads work from a copy, writes are refused in a sentence, a notice is kept for the run',
    1024 * 1024,
    (disk) => {
      try {
        const target = join(disk.dir, 'local.sqlite');
        const first = open({ target }).store;
        logSome(first, 'p', 2);
        first.close();
        disk.remount('ro');
        const { store, log } = open({ target });
        expect(store.readOnly).toEqual({ folder: disk.dir, code: 'EROFS' });
        // No backup is tried where nothing can be written.
        expect(log()).toBe('');
        expect(store.read(() => store.changes.list('p'))).toHaveLength(2);
        expect(failureOf(() => store.transaction(() => store.changes.markSeen('p')))).toMatchObject({
          kind: 'read_only',
          details: { folder: disk.dir, code: 'EROFS' },
        });
        const sink = memorySink();
        const notes = new RepairNotes(store, createLogger('test', sink));
        const details = { file: 'f', asideAs: 'a', backupSavedAt: T0 };
        const one = notes.note({ kind: 'profiles_restored', details });
        const two = notes.note({ kind: 'profiles_restored', details });
        expect(notes.list()).toEqual([one, two]);
        expect(sink.lines.join('\n')).toMatch(
          /WARN \[test\] A repair notice could not be recorded; it is shown for this run only\. \{"code":"EROFS"\}/,
        );
        expect(notes.dismiss(two.id)).toBe(true);
        expect(notes.list()).toEqual([one]);
        expect(notes.dismiss(one.id)).toBe(true);
        expect(notes.list()).toEqual([]);
      } finally {
        for (const store of stores.splice(0)) store.close();
      }
    },
  );
});

describe('a full disk', () => {
  onTmpfs('is told as disk_full, and what was committed stays', 192 * 1024, (disk) => {
    try {
      const target = join(disk.dir, 'local.sqlite');
      const { store } = open({ target });
      let failure: unknown;
      let written = 0;
      try {
        for (; written < 10_000; written += 50) logSome(store, `s${written}`, 50);
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(AppFailure);
      expect((failure as AppFailure).error).toMatchObject({
        kind: 'disk_full',
        details: { folder: disk.dir, place: 'data_folder' },
      });
      expect(store.read(() => store.changes.scopes())).toHaveLength(written / 50);
    } finally {
      for (const store of stores.splice(0)) store.close();
    }
  });
});
