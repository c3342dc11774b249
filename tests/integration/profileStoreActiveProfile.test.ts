/**
 * ProfileStore.activeProfile (issue 22): the active profile with one look at the file, for every
 * request the gateway sends — the same profile `get(activeId())` gives, as another process left
 * it, and a copy (changing it changes nothing stored).
 */
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileStore } from '../../electron/core/profiles/profileStore';
import { profileInput, tempProfilesFile } from '../helpers/profilesFile';

let dir: string;
let file: string;
beforeEach(() => ({ dir, file } = tempProfilesFile('report-desk-active-profile-')));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('activeProfile', () => {
  it('is the profile get(activeId()) gives, also after another process switched', () => {
    const store = new ProfileStore(file);
    const first = store.add(profileInput('First'));
    const second = store.add(profileInput('Second'));
    store.setActive(second.id);
    expect(store.activeProfile()).toEqual(store.get(second.id));
    // Another process (another store on the same file) switches back.
    new ProfileStore(file).setActive(first.id);
    expect(store.activeProfile()).toEqual(first);
    expect(store.activeProfile()?.id).toBe(store.activeId());
  });

  it('is a copy', () => {
    const store = new ProfileStore(file);
    const only = store.add(profileInput('Only'));
    const copy = store.activeProfile()!;
    copy.name = 'Changed';
    expect(store.activeProfile()).toEqual(only);
  });

  it('is undefined when there is no profile', () => {
    expect(new ProfileStore(file).activeProfile()).toBeUndefined();
  });
});
