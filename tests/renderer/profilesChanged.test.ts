import { describe, expect, it } from 'vitest';
import type { ProfilesState, ProfileView } from '../../shared/contract';
import { applyProfilesChanged, createQueryClient, queryKeys } from '../../renderer/src/lib/queries';

const profile = (id: string, changes: Partial<ProfileView> = {}): ProfileView => ({
  id,
  name: id,
  baseUrl: 'https://reports.example.com',
  allowInsecureHttp: false,
  keyHint: 'abcd',
  hasKey: true,
  keyStorage: 'keychain',
  demo: false,
  ...changes,
});

describe('applyProfilesChanged (a profiles:changed event, possibly from another process)', () => {
  it('replaces the list, marks stale the data of a profile whose key changed, drops a removed one', () => {
    const client = createQueryClient();
    const before: ProfilesState = { profiles: [profile('a'), profile('b'), profile('c')], activeId: 'a' };
    client.setQueryData(queryKeys.profiles, before);
    for (const id of ['a', 'b', 'c']) client.setQueryData(queryKeys.account(id), { account: { id } });

    const after: ProfilesState = {
      profiles: [profile('a'), profile('b', { keyHint: 'wxyz' })],
      activeId: 'b',
    };
    applyProfilesChanged(client, after);

    expect(client.getQueryData(queryKeys.profiles)).toEqual(after);
    expect(client.getQueryState(queryKeys.account('a'))?.isInvalidated).toBe(false);
    expect(client.getQueryState(queryKeys.account('b'))?.isInvalidated).toBe(true);
    expect(client.getQueryData(queryKeys.account('c'))).toBeUndefined();
  });
});
