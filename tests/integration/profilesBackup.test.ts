/**
 * profiles.json's backup and its damage (electron/core/profiles/profilesFile.ts and
 * profilesOnDisk.ts): every change keeps the previous good file, a damaged file is restored
 * from it once (whichever process finds it first), copies of damaged files are bounded, what a
 * truncated file still says is salvaged, and the records of keychain changes in progress.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownerToken } from '../../electron/core/processOwner';
import { ProfileStore, type ProfilesRestored } from '../../electron/core/profiles/profileStore';
import { knownProfiles, salvageProfiles } from '../../electron/core/profiles/profilesFile';
import { failureOf } from '../helpers/failures';
import { profileInput, tempProfilesFile } from '../helpers/profilesFile';
import { onTmpfs } from '../helpers/tmpfs';

let dir: string;
let file: string;
beforeEach(() => ({ dir, file } = tempProfilesFile('report-desk-profiles-backup-')));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const data = () => join(dir, 'data');
const copies = () => readdirSync(data()).filter((name) => name.startsWith('profiles.json.corrupt-'));
const backupText = () => readFileSync(`${file}.backup`, 'utf8');

describe('the backup', () => {
  it('is the previous good file, word for word, after every change', () => {
    const store = new ProfileStore(file);
    const a = store.add(profileInput('A'));
    const afterFirst = readFileSync(file, 'utf8');
    store.add(profileInput('B'));
    expect(backupText()).toBe(afterFirst);
    const afterSecond = readFileSync(file, 'utf8');
    store.setActive(store.findByName('B')!.id);
    expect(backupText()).toBe(afterSecond);
    // A change that changes nothing writes nothing, the backup included.
    const before = backupText();
    store.setActive(store.findByName('B')!.id);
    expect(backupText()).toBe(before);
    expect(store.get(a.id)?.name).toBe('A');
  });

  it('is restored once, by whichever store finds the damage first; the other reads the restored file', () => {
    const first = new ProfileStore(file);
    first.add(profileInput('A'));
    first.add(profileInput('B'));
    const heard: ProfilesRestored[] = [];
    const one = new ProfileStore(file, { onRestored: (event) => heard.push(event) });
    const two = new ProfileStore(file, { onRestored: (event) => heard.push(event) });
    writeFileSync(file, '{"version": 1, "activeId": "x", "profiles": [{"id": "cut');
    expect(one.list().map((p) => p.name)).toEqual(['A']);
    expect(two.list().map((p) => p.name)).toEqual(['A']);
    expect(heard).toHaveLength(1);
    expect(copies()).toHaveLength(1);
  });

  it('a damaged backup is no backup: the store is blocked, and starting afresh is the way out', () => {
    const store = new ProfileStore(file);
    store.add(profileInput('A'));
    store.add(profileInput('B'));
    writeFileSync(`${file}.backup`, 'garbage');
    writeFileSync(file, 'garbage too');
    const blocked = new ProfileStore(file);
    expect(failureOf(() => blocked.list())).toMatchObject({ kind: 'damaged', reason: 'profiles_damaged' });
    expect(blocked.damage()).toMatchObject({ file, why: { reason: 'not_json' } });
    blocked.startAfresh();
    expect(blocked.list()).toEqual([]);
    expect(blocked.damage()).toBeNull();
    // Nothing to start afresh from now.
    expect(failureOf(() => blocked.startAfresh())).toEqual({
      kind: 'invalid_input',
      code: 'profiles.not_damaged',
      message: 'The profiles file is not damaged, so there is nothing to start afresh.',
    });
  });

  it('copies of damaged files are kept five at most, the newest', () => {
    mkdirSync(data(), { recursive: true });
    for (let i = 0; i < 7; i++)
      writeFileSync(join(data(), `profiles.json.corrupt-2026-01-0${i + 1}T000000000Z`), `old ${i}`);
    const store = new ProfileStore(file);
    store.add(profileInput('A'));
    store.add(profileInput('B'));
    writeFileSync(file, 'damaged');
    expect(new ProfileStore(file).list().map((p) => p.name)).toEqual(['A']);
    const kept = copies().sort();
    expect(kept).toHaveLength(5);
    expect(kept[0]).toBe('profiles.json.corrupt-2026-01-04T000000000Z');
  });

  onTmpfs(
    'in a read-only folder a damaged file cannot be repaired: nothing is written, every read says why',
    256 * 1024,
    (disk) => {
      const target = join(disk.dir, 'profiles.json');
      const store = new ProfileStore(target);
      store.add(profileInput('A'));
      store.add(profileInput('B'));
      store.close();
      writeFileSync(target, 'damaged');
      disk.remount('ro');
      const blocked = new ProfileStore(target);
      const error = failureOf(() => blocked.list());
      expect(error).toMatchObject({ kind: 'damaged', details: { file: target, asideAs: target } });
      expect(error.message).toMatch(/It is kept as it is \(it could not be moved: EROFS\)/);
      blocked.close();
      expect(readFileSync(target, 'utf8')).toBe('damaged');
    },
  );
});

describe('what a damaged file still says', () => {
  const whole = {
    version: 1,
    activeId: 'aaa',
    profiles: [
      {
        id: 'aaa',
        name: 'Work "main"',
        baseUrl: 'https://w.example',
        allowInsecureHttp: true,
        demo: false,
        createdAt: '2026-01-01T00:00:00.000Z',
      },
      {
        id: 'bbb',
        name: 'Home',
        baseUrl: 'https://h.example',
        allowInsecureHttp: false,
        demo: true,
        createdAt: '2026-01-02T00:00:00.000Z',
      },
      { id: 'ccc', name: 'Cut', baseUrl: 'https://c.exa' },
    ],
  };

  it('salvages each profile whose name and address survive, and the ids of the others', () => {
    const text = JSON.stringify(whole, null, 2);
    const cut = text.slice(0, text.indexOf('https://c.exa') + 5);
    expect(salvageProfiles(cut)).toEqual([
      { id: 'aaa', stored: { ...whole.profiles[0] } },
      { id: 'bbb', stored: { ...whole.profiles[1] } },
      { id: 'ccc', stored: null },
    ]);
    expect(salvageProfiles('{"profiles": [{"id": "ddd", "name": "", "baseUrl": "x"}]}')).toEqual([
      { id: 'ddd', stored: null },
    ]);
    expect(salvageProfiles('garbage')).toEqual([]);
  });

  it('the profiles this folder once had: the backup, then every damaged copy (read whole or salvaged)', () => {
    const store = new ProfileStore(file);
    const a = store.add(profileInput('A'));
    store.add(profileInput('B'));
    writeFileSync(
      join(data(), 'profiles.json.corrupt-2026-01-01T000000000Z'),
      JSON.stringify(whole).slice(0, 150),
    );
    writeFileSync(
      join(data(), 'profiles.json.corrupt-2026-01-02T000000000Z'),
      JSON.stringify({ ...whole, profiles: [whole.profiles[1]] }),
    );
    const known = knownProfiles(file);
    expect(known.map((p) => [p.source, p.id])).toEqual([
      ['backup', a.id],
      ['damaged_file', 'bbb'],
      ['damaged_file', 'aaa'],
    ]);
    expect(known[1].stored?.name).toBe('Home');
  });
});

describe('records of keychain changes in progress', () => {
  it('are written before, named after this process, and cleared by the write that completes them', () => {
    const store = new ProfileStore(file);
    store.beginKeyChange({
      id: 'new-id',
      op: 'add',
      profile: { name: 'N', baseUrl: 'https://n.example', allowInsecureHttp: false },
    });
    expect(store.pendingKeyChanges()).toEqual([
      {
        id: 'new-id',
        op: 'add',
        owner: ownerToken(),
        at: expect.any(String),
        profile: { name: 'N', baseUrl: 'https://n.example', allowInsecureHttp: false },
      },
    ]);
    // Another process reads it from the file.
    expect(new ProfileStore(file).pendingKeyChanges()).toHaveLength(1);
    store.add({ ...profileInput('N'), id: 'new-id' });
    expect(store.pendingKeyChanges()).toEqual([]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).not.toHaveProperty('pending');
    store.remove('new-id', { keyPending: true });
    expect(store.pendingKeyChanges()).toMatchObject([{ id: 'new-id', op: 'remove' }]);
    store.endKeyChange('new-id');
    store.endKeyChange('new-id');
    expect(store.pendingKeyChanges()).toEqual([]);
  });

  it('restore brings profiles back with their ids, renaming one whose name is taken, skipping one that is there', () => {
    const store = new ProfileStore(file);
    const work = store.add(profileInput('Work'));
    store.beginKeyChange({ id: 'gone-1', op: 'add' });
    const restored = store.restore([
      { ...profileInput('Work'), id: 'gone-1', createdAt: '2026-01-01T00:00:00.000Z' },
      { ...profileInput('Other'), id: 'gone-2', createdAt: '2026-01-01T00:00:00.000Z' },
      { ...work },
    ]);
    expect(restored.map((p) => [p.id, p.name])).toEqual([
      ['gone-1', 'Work (restored)'],
      ['gone-2', 'Other'],
    ]);
    expect(store.pendingKeyChanges()).toEqual([]);
    expect(store.list().map((p) => p.name)).toEqual(['Work', 'Work (restored)', 'Other']);
    expect(store.restore([{ ...work }])).toEqual([]);
  });
});
