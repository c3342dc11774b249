/**
 * ProfileStore behaviour that mutation testing showed no other test would notice breaking:
 * ids, copies handed out, the key-change mark, no-op changes, listeners, the lock's failures,
 * the files it refuses and the sentences it says. Real files in a temp folder, real SQLite lock.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, memorySink } from '../../electron/core/log';
import { ProfileStore, profilesLockFile } from '../../electron/core/profiles/profileStore';
import { AppFailure, type AppError } from '../../shared/errors';
import { skipWhen } from '../helpers/skip';
import { profileInput, tempProfilesFile } from '../helpers/profilesFile';

let dir: string;
let file: string;
beforeEach(() => ({ dir, file } = tempProfilesFile('report-desk-profilestore-b-')));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const input = profileInput;

function failureOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppFailure);
    return (error as AppFailure).error;
  }
  throw new Error('expected an AppFailure');
}

function loggedStore(options: { lockWaitMs?: number } = {}) {
  const sink = memorySink();
  const store = new ProfileStore(file, { ...options, logger: createLogger('test', sink) });
  return { store, log: () => sink.lines.join('\n') };
}

const asideFiles = () =>
  readdirSync(join(dir, 'data')).filter((name) => name.startsWith('profiles.json.corrupt-'));

describe('ids and copies', () => {
  it('makes new ids of 16 URL-safe characters, each one different', () => {
    const ids = new Set(Array.from({ length: 50 }, () => ProfileStore.newId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('keeps an id given by the caller, and refuses one that is taken without saving anything', () => {
    const store = new ProfileStore(file);
    const given = ProfileStore.newId();
    expect(store.add({ ...input('First'), id: given }).id).toBe(given);
    const error = failureOf(() => store.add({ ...input('Second'), id: given }));
    expect(error).toMatchObject({ kind: 'internal', message: 'A profile with that id already exists.' });
    expect(new ProfileStore(file).list().map((profile) => profile.name)).toEqual(['First']);
  });

  it('hands out copies: changing what list, get, findByName, add or update answered changes nothing stored', () => {
    const store = new ProfileStore(file);
    const added = store.add(input('Work'));
    added.name = 'changed by add';
    store.list()[0].name = 'changed by list';
    const got = store.get(added.id);
    if (got) got.name = 'changed by get';
    const found = store.findByName('work');
    if (found) found.name = 'changed by findByName';
    const updated = store.update(added.id, { baseUrl: 'https://other.example.com' });
    updated.name = 'changed by update';
    expect(store.get(added.id)?.name).toBe('Work');
    expect(store.requireProfile(added.id).name).toBe('Work');
  });
});

describe('finding a profile', () => {
  it('finds by name whatever the case and surrounding spaces, and answers undefined for no match', () => {
    const store = new ProfileStore(file);
    store.add(input('Alpha'));
    const beta = store.add(input('Beta'));
    expect(store.findByName('  bEtA ')?.id).toBe(beta.id);
    expect(store.findByName('Gamma')).toBeUndefined();
    expect(store.findByName('Bet')).toBeUndefined();
  });

  it('requireProfile answers the stored profile, and not_found with a sentence once it is gone', () => {
    const store = new ProfileStore(file);
    const work = store.add(input('Work'));
    expect(store.requireProfile(work.id)).toEqual(work);
    new ProfileStore(file).remove(work.id);
    expect(failureOf(() => store.requireProfile(work.id))).toMatchObject({
      kind: 'not_found',
      message: 'That profile no longer exists.',
    });
    expect(store.get(work.id)).toBeUndefined();
  });
});

describe('recording a key change', () => {
  it('stamps that profile only, saves it, and refuses an unknown profile', () => {
    const store = new ProfileStore(file);
    const work = store.add(input('Work'));
    const home = store.add(input('Home'));
    const before = Date.now();
    const marked = store.markKeyChanged(home.id);
    expect(Date.parse(marked.keySetAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(marked).toMatchObject({ id: home.id, name: 'Home' });
    const reread = new ProfileStore(file);
    expect(reread.get(home.id)?.keySetAt).toBe(marked.keySetAt);
    expect(reread.get(work.id)).toEqual(work);
    expect(reread.get(work.id)).not.toHaveProperty('keySetAt');
    expect(failureOf(() => store.markKeyChanged('nope')).kind).toBe('not_found');
  });
});

describe('changes that change nothing', () => {
  it('choosing the profile that is already active does not rewrite the file', () => {
    const store = new ProfileStore(file);
    const work = store.add(input('Work'));
    const before = statSync(file);
    store.setActive(work.id);
    const after = statSync(file);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  it('removing a profile that is not active keeps the active one', () => {
    const store = new ProfileStore(file);
    const a = store.add(input('A'));
    const b = store.add(input('B'));
    store.remove(b.id);
    expect(new ProfileStore(file).activeId()).toBe(a.id);
  });

  it('removing the active profile makes the first remaining one active, saved', () => {
    const store = new ProfileStore(file);
    const a = store.add(input('A'));
    const b = store.add(input('B'));
    const c = store.add(input('C'));
    store.setActive(b.id);
    store.remove(b.id);
    expect(new ProfileStore(file).activeId()).toBe(a.id);
    store.setActive(c.id);
    expect(new ProfileStore(file).activeId()).toBe(c.id);
  });

  it('keeps a stored active id that names a profile', () => {
    const store = new ProfileStore(file);
    store.add(input('A'));
    const b = store.add(input('B'));
    store.setActive(b.id);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ activeId: b.id });
    expect(new ProfileStore(file).activeId()).toBe(b.id);
  });
});

describe('listeners', () => {
  it('hear a change by another handle on the next read, until they unsubscribe', () => {
    const store = new ProfileStore(file);
    store.add(input('Mine'));
    let heard = 0;
    const unsubscribe = store.onExternalChange(() => heard++);
    new ProfileStore(file).add(input('Theirs'));
    expect(store.list().map((profile) => profile.name)).toEqual(['Mine', 'Theirs']);
    expect(heard).toBe(1);
    unsubscribe();
    new ProfileStore(file).add(input('More'));
    expect(store.list()).toHaveLength(3);
    expect(heard).toBe(1);
  });

  it('do not hear a rewrite by another handle that leaves the profiles as they were', () => {
    const store = new ProfileStore(file);
    const work = store.add(input('Work'));
    let heard = 0;
    store.onExternalChange(() => heard++);
    const before = statSync(file).ino;
    // Rewrites the file (a new inode) with the same content.
    new ProfileStore(file).update(work.id, { name: 'Work' });
    expect(statSync(file).ino).not.toBe(before);
    expect(store.list()).toEqual([work]);
    expect(heard).toBe(0);
  });

  it('a failing listener is logged as a warning and the others still hear', () => {
    const { store, log } = loggedStore();
    store.add(input('Mine'));
    let heard = 0;
    store.onExternalChange(() => {
      throw new Error('listener broke');
    });
    store.onExternalChange(() => {
      throw 'a thrown string';
    });
    store.onExternalChange(() => heard++);
    new ProfileStore(file).add(input('Theirs'));
    expect(store.list()).toHaveLength(2);
    expect(heard).toBe(1);
    expect(log()).toMatch(/WARN \[test:profiles\] A profile change listener failed\..*listener broke/);
    expect(log()).toMatch(/WARN .*A profile change listener failed\..*a thrown string/);
  });

  it('hear the file being removed by another process, after which there are no profiles', () => {
    const store = new ProfileStore(file);
    store.add(input('Work'));
    let heard = 0;
    store.onExternalChange(() => heard++);
    rmSync(file);
    expect(store.list()).toEqual([]);
    expect(store.activeId()).toBeNull();
    expect(heard).toBe(1);
    // Still gone: no news.
    expect(store.list()).toEqual([]);
    expect(heard).toBe(1);
    // A new file written by another handle is read again.
    new ProfileStore(file).add(input('Again'));
    expect(store.list().map((profile) => profile.name)).toEqual(['Again']);
    expect(heard).toBe(2);
  });

  it('hear a change by another handle through the folder watch, without a read', async () => {
    const store = new ProfileStore(file);
    store.add(input('Mine'));
    let heard = 0;
    store.onExternalChange(() => heard++);
    const keepingAlive = () =>
      process.getActiveResourcesInfo().filter((kind) => kind === 'FSEventWrap').length;
    const before = keepingAlive();
    store.watch();
    try {
      // The watcher never keeps the process alive: a CLI run that watched still ends.
      expect(keepingAlive()).toBe(before);
      new ProfileStore(file).add(input('Theirs'));
      await expect.poll(() => heard, { timeout: 10_000 }).toBe(1);
    } finally {
      store.close();
    }
  });

  it('hear nothing once the store is closed, even when it was asked to watch twice', async () => {
    const closed = new ProfileStore(file);
    closed.add(input('Mine'));
    let heardAfterClose = 0;
    closed.onExternalChange(() => heardAfterClose++);
    closed.watch();
    closed.watch();
    closed.close();
    // A second watcher on the same folder: once it has heard the change, the closed store's
    // watchers (had any stayed open) would have been told in the same turn of the event loop.
    const open = new ProfileStore(file);
    open.list();
    let heard = 0;
    open.onExternalChange(() => heard++);
    open.watch();
    try {
      new ProfileStore(file).add(input('Theirs'));
      await expect.poll(() => heard, { timeout: 10_000 }).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(heardAfterClose).toBe(0);
    } finally {
      open.close();
    }
  });

  it('watching a folder that does not exist logs a warning naming the error, and reads still work', () => {
    const { store, log } = loggedStore();
    store.watch();
    expect(log()).toMatch(
      /WARN .*Watching the profiles file failed; changes by other processes show on the next read\..*ENOENT/,
    );
    store.add(input('Work'));
    expect(store.list()).toHaveLength(1);
    store.close();
  });
});

describe('the lock', () => {
  it('says how many seconds it waited for another holder', () => {
    const store = new ProfileStore(file, { lockWaitMs: 1200 });
    store.add(input('Before'));
    const holder = new Database(profilesLockFile(file));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const error = failureOf(() => store.remove(store.list()[0].id));
      expect(error).toMatchObject({
        kind: 'busy',
        message:
          'The profiles are being changed by another ReportDesk window or command, which has not finished within 2 seconds. Nothing was changed; try again in a moment.',
      });
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    expect(new ProfileStore(file).list()).toHaveLength(1);
  });

  it('that cannot be opened is a sentence naming the file and the error, logged, and nothing is saved', () => {
    mkdirSync(profilesLockFile(file), { recursive: true });
    const { store, log } = loggedStore();
    const error = failureOf(() => store.add(input('Work')));
    expect(error).toMatchObject({
      kind: 'internal',
      message: `The profiles could not be saved to ${file} (EISDIR). Check that the disk has space and the folder is writable, then try again.`,
    });
    expect(log()).toMatch(/ERROR \[test:profiles\] Locking the profiles failed\..*EISDIR/);
    expect(readdirSync(join(dir, 'data'))).toEqual(['profiles.lock']);
  });

  it('is released after a change that failed, so the next change goes through', () => {
    const store = new ProfileStore(file, { lockWaitMs: 50 });
    store.add(input('Work'));
    expect(failureOf(() => store.add(input('work'))).kind).toBe('invalid_input');
    // Another handle gets the lock at once (it would wait 50 ms and fail if it were still held).
    new ProfileStore(file, { lockWaitMs: 50 }).add(input('Home'));
    expect(store.list().map((profile) => profile.name)).toEqual(['Work', 'Home']);
  });

  it('is opened again after the store was closed', () => {
    const store = new ProfileStore(file);
    store.add(input('Work'));
    store.close();
    store.add(input('Home'));
    expect(new ProfileStore(file).list()).toHaveLength(2);
    store.close();
  });
});

describe('saving', () => {
  it('writes the file as indented JSON ending with a newline', () => {
    const store = new ProfileStore(file);
    const work = store.add(input('Work'));
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(JSON.stringify({ version: 1, activeId: work.id, profiles: [work] }, null, 2) + '\n');
  });

  it('a failed save names the file and the error, logs it, and leaves no temporary file', () => {
    const { store, log } = loggedStore();
    store.add(input('A'));
    rmSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'data'), 'a file where the folder was');
    const error = failureOf(() => store.add(input('B')));
    expect(error.kind).toBe('internal');
    expect(error.message).toMatch(
      new RegExp(
        `^The profiles could not be saved to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\((EEXIST|ENOTDIR)\\)\\. Check that the disk has space and the folder is writable, then try again\\.$`,
      ),
    );
    expect(log()).toMatch(/ERROR \[test:profiles\] Saving the profiles failed\..*(EEXIST|ENOTDIR)/);
    expect(store.list().map((profile) => profile.name)).toEqual(['A']);
  });
});

describe('files it does not understand', () => {
  const saved = (profiles: unknown[], extra: Record<string, unknown> = {}) => {
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(file, JSON.stringify({ version: 1, activeId: null, profiles, ...extra }));
  };
  const good = {
    id: 'abc_DEF-123',
    name: 'Work',
    baseUrl: 'https://reports.example.com',
    allowInsecureHttp: false,
    demo: false,
    createdAt: '2026-01-01T00:00:00.000Z',
  };

  it('reads a well-formed file, a key time included', () => {
    saved([{ ...good, keySetAt: '2026-01-02T00:00:00.000Z' }]);
    expect(new ProfileStore(file).list()).toEqual([{ ...good, keySetAt: '2026-01-02T00:00:00.000Z' }]);
    expect(asideFiles()).toEqual([]);
  });

  it.each([
    ['an id with a slash', [{ ...good, id: 'a/b' }], {}],
    ['an empty id', [{ ...good, id: '' }], {}],
    ['an id of 65 characters', [{ ...good, id: 'a'.repeat(65) }], {}],
    ['an empty name', [{ ...good, name: '' }], {}],
    ['a number as URL', [{ ...good, baseUrl: 5 }], {}],
    ['a string as insecure flag', [{ ...good, allowInsecureHttp: 'no' }], {}],
    ['a missing demo flag', [{ ...good, demo: undefined }], {}],
    ['a number as creation time', [{ ...good, createdAt: 1 }], {}],
    ['a number as key time', [{ ...good, keySetAt: 1 }], {}],
    ['a number as active id', [good], { activeId: 3 }],
    ['no profile list', [good], { profiles: 'none' }],
  ])(
    'keeps a copy of a file with %s aside, and never reads it as "no profiles"',
    (_what, profiles, extra) => {
      saved(profiles, extra);
      const { store, log } = loggedStore();
      expect(failureOf(() => store.list())).toMatchObject({ kind: 'damaged', reason: 'profiles_damaged' });
      expect(asideFiles()).toHaveLength(1);
      expect(log()).toMatch(
        /ERROR \[test:profiles\] The profiles file .* could not be used because its content is not a profile list ReportDesk understands, and there is no backup to restore\. A copy is kept as .*corrupt-.*; nothing is written over it until you agree to start a new list of profiles\./,
      );
    },
  );

  it('never touches a file a newer ReportDesk wrote: every read and change says so', () => {
    saved([good], { version: 2 });
    const original = readFileSync(file, 'utf8');
    const { store } = loggedStore();
    for (const run of [() => store.list(), () => store.add(input('New'))]) {
      expect(failureOf(run)).toEqual({
        kind: 'internal',
        code: 'profiles.newer_version',
        values: { file, version: 2 },
        message: `The profiles file ${file} was written by a newer version of ReportDesk (file format version 2). Update ReportDesk; nothing was changed.`,
      });
    }
    expect(store.damage()).toBeNull();
    expect(asideFiles()).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('accepts an id of 64 characters', () => {
    saved([{ ...good, id: 'a'.repeat(64) }]);
    expect(new ProfileStore(file).list()).toHaveLength(1);
  });

  it('says "not valid JSON" for a file that is not JSON, and names where its copy was kept (once)', () => {
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(file, 'not json');
    const { log } = loggedStore();
    const [aside] = asideFiles();
    expect(aside).toMatch(/^profiles\.json\.corrupt-\d{4}-\d{2}-\d{2}T\d{9}Z$/);
    expect(log()).toContain(
      'could not be used because it is not valid JSON, and there is no backup to restore.',
    );
    expect(log()).toContain(aside);
    // Another process (or the next run) finds the same damaged file: its copy is not made twice.
    new ProfileStore(file).damage();
    expect(asideFiles()).toEqual([aside]);
  });
});

describe('more edges', () => {
  it('closes a store that never watched nor changed anything', () => {
    const store = new ProfileStore(file);
    expect(store.list()).toEqual([]);
    expect(() => store.close()).not.toThrow();
    expect(() => store.close()).not.toThrow();
  });

  it('a lock that fails without an error code says "unknown error"', () => {
    // better-sqlite3 refuses a negative busy time-out with a TypeError that has no code.
    const { store, log } = loggedStore({ lockWaitMs: -1 });
    const error = failureOf(() => store.add(input('Work')));
    expect(error).toMatchObject({
      kind: 'internal',
      message: `The profiles could not be saved to ${file} (unknown error). Check that the disk has space and the folder is writable, then try again.`,
    });
    expect(log()).toMatch(/ERROR .*Locking the profiles failed\..*unknown error/);
  });

  it('does not retry nor log again a file it could not use, until it changes', () => {
    // A folder (EISDIR on read) where the file should be.
    mkdirSync(file, { recursive: true });
    const sink = memorySink();
    const store = new ProfileStore(file, { logger: createLogger('test', sink) });
    const errors = () => sink.lines.filter((line) => line.includes(' ERROR ')).length;
    expect(failureOf(() => store.list()).kind).toBe('damaged');
    const logged = errors();
    expect(logged).toBe(1);
    expect(failureOf(() => store.activeId()).kind).toBe('damaged');
    expect(failureOf(() => store.add(input('New'))).kind).toBe('damaged');
    expect(errors()).toBe(logged);
  });

  it('compares names by their lower case, so "Straße" and "STRASSE" are different names', () => {
    const store = new ProfileStore(file);
    store.add(input('Straße'));
    expect(store.add(input('STRASSE')).name).toBe('STRASSE');
    expect(store.findByName('strasse')?.name).toBe('STRASSE');
    expect(store.findByName('STRAßE')?.name).toBe('Straße');
  });

  it.skipIf(
    skipWhen(
      process.platform !== 'linux',
      'open file handles are counted in /proc/self/fd, which only Linux has',
    ),
  )('leaves no file handle open after reading and saving, however often (Linux: /proc/self/fd)', () => {
    const store = new ProfileStore(file);
    const other = new ProfileStore(file);
    store.add(input('Start'));
    const openHandles = () => readdirSync('/proc/self/fd').length;
    const before = openHandles();
    for (let round = 0; round < 30; round++) {
      other.update(store.list()[0].id, { baseUrl: `https://r${round}.example.com` });
      // A read after another handle's save re-reads the file.
      expect(store.list()[0].baseUrl).toBe(`https://r${round}.example.com`);
    }
    // A leak would be one handle per read or save (60 here); a few may come and go meanwhile.
    expect(openHandles() - before).toBeLessThan(10);
    store.close();
    other.close();
  });
});
