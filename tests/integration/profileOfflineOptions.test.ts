/**
 * ProfileStore.setOfflineOptions (core/profiles/profileStore.ts): a profile's "Keep available
 * offline" options changed (only those given) in profiles.json under the lock, the other
 * profiles untouched, and what it answers is the profile as stored, a copy. Real files in a
 * temp folder; another store reads them back as another process would.
 */
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileStore } from '../../electron/core/profiles/profileStore';
import { profileInput, tempProfilesFile } from '../helpers/profilesFile';

let dir: string;
let file: string;
beforeEach(() => ({ dir, file } = tempProfilesFile('report-desk-offline-options-')));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("a profile's offline options", () => {
  it('change for that profile only, the options not given kept, as another store reads them', () => {
    const store = new ProfileStore(file);
    const work = store.add(profileInput('Work'));
    const home = store.add(profileInput('Home'));
    store.setOfflineOptions(work.id, { keepOffline: true, refreshMinutes: 60 });
    const answered = store.setOfflineOptions(work.id, { notifyBad: true });
    expect(answered).toMatchObject({
      id: work.id,
      name: 'Work',
      offline: { keepOffline: true, refreshMinutes: 60, notifyBad: true },
    });
    const other = new ProfileStore(file);
    expect(other.get(work.id)).toEqual(answered);
    expect(other.get(home.id)).toEqual(home);
    expect(other.get(home.id)?.offline).toBeUndefined();
  });

  it('answer a copy: changing it changes nothing stored', () => {
    const store = new ProfileStore(file);
    const work = store.add(profileInput('Work'));
    const answered = store.setOfflineOptions(work.id, { keepOffline: true });
    answered.offline = { keepOffline: false };
    answered.name = 'Changed';
    expect(store.get(work.id)).toMatchObject({ name: 'Work', offline: { keepOffline: true } });
  });
});
