import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, memorySink } from '../../electron/core/log';
import Database from 'better-sqlite3';
import { ProfileStore, profilesLockFile } from '../../electron/core/profiles/profileStore';
import { failureOf } from '../helpers/failures';
import { profileInput, tempProfilesFile } from '../helpers/profilesFile';

let dir: string;
let file: string;
beforeEach(() => ({ dir, file } = tempProfilesFile('report-desk-profiles-')));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const input = profileInput;

describe('ProfileStore', () => {
  it('persists profiles in creation order across instances, in the documented format', () => {
    const store = new ProfileStore(file);
    const work = store.add(input('Work'));
    const home = store.add({ ...input('  Home '), allowInsecureHttp: true });
    expect(work.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(home.name).toBe('Home');

    const reopened = new ProfileStore(file);
    expect(reopened.list().map((p) => p.name)).toEqual(['Work', 'Home']);
    expect(reopened.get(home.id)).toEqual(home);
    expect(reopened.findByName('hOmE')?.id).toBe(home.id);
    expect(reopened.activeId()).toBe(work.id);

    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved).toEqual({ version: 1, activeId: work.id, profiles: [work, home] });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('writes atomically: no temporary file is left behind', () => {
    const store = new ProfileStore(file);
    const a = store.add(input('A'));
    store.update(a.id, { baseUrl: 'https://other.example.com' });
    store.add(input('B'));
    // profiles.lock is the cross-process lock (an empty SQLite file), kept for the next change;
    // profiles.json.backup is the previous good file (issue 30).
    expect(readdirSync(join(dir, 'data')).sort()).toEqual([
      'profiles.json',
      'profiles.json.backup',
      'profiles.lock',
    ]);
    // The backup is the list as it was before the last change, whole.
    expect(
      JSON.parse(readFileSync(`${file}.backup`, 'utf8')).profiles.map((p: { name: string }) => p.name),
    ).toEqual(['A']);
  });

  it('refuses a duplicate name, whatever its case, on add and on rename', () => {
    const store = new ProfileStore(file);
    const work = store.add(input('Work'));
    const other = store.add(input('Other'));
    const onAdd = failureOf(() => store.add(input(' WORK ')));
    expect(onAdd.kind).toBe('invalid_input');
    expect(onAdd.fieldErrors?.name).toEqual(['A profile named "Work" already exists. Choose another name.']);
    expect(failureOf(() => store.update(other.id, { name: 'work' })).fieldErrors?.name).toBeDefined();
    // Renaming a profile to its own name in another case is fine.
    expect(store.update(work.id, { name: 'WORK' }).name).toBe('WORK');
    expect(new ProfileStore(file).list().map((p) => p.name)).toEqual(['WORK', 'Other']);
  });

  it('follows the active-profile rules', () => {
    const store = new ProfileStore(file);
    expect(store.activeId()).toBeNull();
    const a = store.add(input('A'));
    const b = store.add(input('B'));
    const c = store.add(input('C'));
    expect(store.activeId()).toBe(a.id);
    store.setActive(c.id);
    expect(new ProfileStore(file).activeId()).toBe(c.id);
    store.remove(b.id);
    expect(store.activeId()).toBe(c.id);
    store.remove(c.id);
    expect(store.activeId()).toBe(a.id);
    store.remove(a.id);
    expect(store.activeId()).toBeNull();
    expect(new ProfileStore(file).list()).toEqual([]);
  });

  it('answers not_found for an unknown profile', () => {
    const store = new ProfileStore(file);
    for (const run of [
      () => store.update('nope', { name: 'x' }),
      () => store.remove('nope'),
      () => store.setActive('nope'),
    ]) {
      expect(failureOf(run)).toMatchObject({ kind: 'not_found', message: 'That profile no longer exists.' });
    }
  });

  it('restores the backup of a damaged file, keeps the damaged one aside, says so, and never reads it as "no profiles"', () => {
    const sink = memorySink();
    const first = new ProfileStore(file);
    first.add(input('Old'));
    first.add(input('Newer'));
    writeFileSync(file, '{"version": 1, "profiles": [trunc');
    const restored: unknown[] = [];
    const store = new ProfileStore(file, {
      logger: createLogger('test', sink),
      onRestored: (event) => restored.push(event),
    });
    // The backup is the list before the last change: "Newer" came after it.
    expect(store.list().map((p) => p.name)).toEqual(['Old']);
    const aside = readdirSync(join(dir, 'data')).filter((name) => name.startsWith('profiles.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, 'data', aside[0]), 'utf8')).toBe('{"version": 1, "profiles": [trunc');
    expect(restored).toEqual([
      { file, asideAs: join(dir, 'data', aside[0]), backupSavedAt: expect.stringMatching(/^\d{4}-/) },
    ]);
    expect(sink.lines.join('\n')).toMatch(/WARN .*not valid JSON; its backup of .* was restored/);
    store.add(input('New'));
    expect(new ProfileStore(file).list().map((p) => p.name)).toEqual(['Old', 'New']);
  });

  it('without a backup, a file of the wrong shape blocks every read and change until the user starts afresh', () => {
    new ProfileStore(file).add(input('Old'));
    const wrong = JSON.stringify({ version: 1, activeId: null, profiles: [{ id: 'x' }] });
    writeFileSync(file, wrong);
    const store = new ProfileStore(file);
    for (const run of [() => store.list(), () => store.activeId(), () => store.add(input('New'))]) {
      expect(failureOf(run)).toMatchObject({
        kind: 'damaged',
        reason: 'profiles_damaged',
        details: { file },
      });
    }
    expect(readFileSync(file, 'utf8')).toBe(wrong);
    const aside = store.damage()!.asideAs;
    expect(readFileSync(aside, 'utf8')).toBe(wrong);
    store.startAfresh();
    expect(store.list()).toEqual([]);
    expect(readFileSync(aside, 'utf8')).toBe(wrong);
    store.add(input('New'));
    expect(new ProfileStore(file).list().map((p) => p.name)).toEqual(['New']);
  });

  // A file that can be neither read nor moved aside: profileStore.test.ts (runs as root too).

  it('reports a save failure as a sentence and keeps the previous state', () => {
    const store = new ProfileStore(file);
    store.add(input('A'));
    rmSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'data'), 'a file where the folder was');
    const error = failureOf(() => store.add(input('B')));
    expect(error.kind).toBe('internal');
    expect(error.message).toMatch(/could not be saved/);
    expect(store.list().map((p) => p.name)).toEqual(['A']);
  });

  it('applies every change to the file as it is now, not to an older copy in memory', () => {
    const app = new ProfileStore(file);
    const cli = new ProfileStore(file);
    const kept = app.add(input('Kept'));
    const doomed = app.add(input('Doomed'));
    // Another handle (another process, in effect) removes one and adds one…
    cli.remove(doomed.id);
    cli.add(input('FromCli'));
    // …and a rename through the first handle keeps both changes.
    app.update(kept.id, { name: 'Renamed' });
    expect(new ProfileStore(file).list().map((p) => p.name)).toEqual(['Renamed', 'FromCli']);
    expect(app.get(doomed.id)).toBeUndefined();
    expect(failureOf(() => app.setActive(doomed.id)).kind).toBe('not_found');
    // A name taken by the other handle is refused, though this one never saw it being added.
    expect(failureOf(() => app.add(input('fromcli'))).kind).toBe('invalid_input');
  });

  it('tells listeners about changes made through another handle, not about its own', async () => {
    const app = new ProfileStore(file);
    app.add(input('Mine'));
    const heard: string[][] = [];
    app.onExternalChange(() => heard.push(app.list().map((p) => p.name)));
    app.watch();
    try {
      app.add(input('AlsoMine'));
      new ProfileStore(file).add(input('Theirs'));
      // Heard through the folder watch, without any read of ours.
      await expect.poll(() => heard.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(heard.at(-1)).toEqual(['Mine', 'AlsoMine', 'Theirs']);
      // Its own writes are no news: every call came with the other handle's profile in it.
      expect(heard.every((names) => names.includes('Theirs'))).toBe(true);
    } finally {
      app.close();
    }
  });

  it('refuses a change while another holder keeps the lock, with a sentence, and changes nothing', () => {
    const store = new ProfileStore(file, { lockWaitMs: 50 });
    store.add(input('Before'));
    const holder = new Database(profilesLockFile(file));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const error = failureOf(() => store.add(input('During')));
      expect(error.kind).toBe('busy');
      expect(error.message).toMatch(
        /being changed by another ReportDesk window or command.*Nothing was changed/,
      );
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    expect(new ProfileStore(file).list().map((p) => p.name)).toEqual(['Before']);
    store.add(input('After'));
    expect(new ProfileStore(file).list().map((p) => p.name)).toEqual(['Before', 'After']);
  });
});
