/**
 * The repair banners and screens (issue 30) against a fake window.reportDesk answering the
 * `repairs:*` channels with the statuses the core's RepairsService gives: one banner per
 * notice (each named by its heading, announced once, dismissed through `repairs:dismiss`), the
 * damaged profiles file with its confirmed fresh start, orphaned keys restored or removed, and
 * a full disk or read-only folder said in its own sentence where the app used to say
 * "Something went wrong".
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrphanedKey, ProfilesState, RepairNotice, RepairsStatus } from '../../shared/contract';
import { App } from '../../renderer/src/App';
import { Repairs, Toasts } from '../../renderer/src/components/Shell';
import { createQueryClient } from '../../renderer/src/lib/queries';
import {
  failWith,
  installFakeBridge,
  NO_REPAIRS,
  ONLINE,
  PROFILE,
  renderWithApp,
  type FakeHandlers,
} from './helpers';

afterEach(() => {
  cleanup();
  localStorage.clear();
});
beforeEach(() => {
  window.location.hash = '#/reports';
});

const ACTIVE: ProfilesState = { profiles: [PROFILE], activeId: PROFILE.id };
const CACHE_ASIDE: RepairNotice = {
  id: 'n1',
  at: '2026-11-28T10:00:00.000Z',
  kind: 'cache_set_aside',
  details: {
    asideAs: '/data/cache.sqlite.corrupt-2026-11-28T100000000Z',
    reportsLost: 500,
    during: 'use',
    kept: ['profiles', 'settings', 'changes'],
    refillProfileIds: [PROFILE.id],
  },
};
const PROFILES_RESTORED: RepairNotice = {
  id: 'n2',
  at: '2026-11-28T10:01:00.000Z',
  kind: 'profiles_restored',
  details: {
    file: '/data/profiles.json',
    asideAs: '/data/profiles.json.corrupt-2026-11-28T100100000Z',
    backupSavedAt: '2026-11-27T09:30:00.000Z',
  },
};
const LOCAL_AFRESH: RepairNotice = {
  id: 'n3',
  at: '2026-11-28T10:02:00.000Z',
  kind: 'local_restored',
  details: { asideAs: '/data/local.sqlite.corrupt-x', entriesLost: 12, backupSavedAt: null },
};
const ORPHANS: OrphanedKey[] = [
  {
    account: 'acc-home',
    keyHint: 'wxyz',
    profile: { name: 'Home', baseUrl: 'https://home.example.com' },
    foundIn: 'backup',
  },
  { account: 'acc-unknown', keyHint: null, profile: null, foundIn: null },
];

const status = (changes: Partial<RepairsStatus>): RepairsStatus => ({ ...NO_REPAIRS, ...changes });
const announced = () => document.querySelector('[data-live-region]')?.textContent ?? '';
const region = (name: string | RegExp) => screen.findByRole('region', { name });

/** The banners as the shell shows them, with the profiles they name and the toasts. */
function renderBanners(first: RepairsStatus, handlers: FakeHandlers = {}) {
  let current = first;
  const bridge = installFakeBridge({
    'repairs:status': () => current,
    'profiles:list': () => ACTIVE,
    ...handlers,
  });
  renderWithApp(
    <>
      <Repairs />
      <Toasts />
    </>,
  );
  return {
    bridge,
    /** The core's status changes (as another process's repair would) and it says so. */
    change(next: RepairsStatus) {
      current = next;
      act(() => bridge.emit('repairs:changed', next));
    },
    set(next: RepairsStatus) {
      current = next;
    },
  };
}

describe('repair notices', () => {
  it('the offline copy set aside: what was lost, what was kept, the refill and where the file is; announced once', async () => {
    renderBanners(status({ notices: [CACHE_ASIDE] }));
    const banner = await region('The offline copy was damaged, so it was set aside and a new one started');
    expect(banner.textContent).toContain('The 500 reports it held will be fetched again from the service.');
    expect(banner.textContent).toContain(
      'Nothing else was lost, because these are kept apart from the copy: your profiles, the settings of your profiles, and the change log with what you have seen of it.',
    );
    expect(banner.textContent).toContain(
      'It is being filled again for the profile kept available offline: Work.',
    );
    const path = within(banner).getByText(CACHE_ASIDE.details.asideAs);
    expect(path.getAttribute('dir')).toBe('ltr');
    await waitFor(() => expect(announced()).toBe(within(banner).getByRole('heading').textContent));
  });

  it('an unknown count and no profile kept offline are said as such', async () => {
    const notice: RepairNotice = {
      ...CACHE_ASIDE,
      details: { ...CACHE_ASIDE.details, reportsLost: null, refillProfileIds: [] },
    } as RepairNotice;
    renderBanners(status({ notices: [notice] }));
    const banner = await region(/^The offline copy was damaged/);
    expect(banner.textContent).toContain('The reports it held will be fetched again from the service.');
    expect(banner.textContent).toContain('No profile keeps its reports available offline');
  });

  it('profiles restored from a backup and the change log started afresh: one banner each, with their facts', async () => {
    renderBanners(status({ notices: [PROFILES_RESTORED, LOCAL_AFRESH] }));
    const restored = await region('The profiles file was damaged, so its backup was restored');
    expect(restored.textContent).toMatch(
      /Your profiles are as they were on .*2026.*A change made after that may be missing/,
    );
    expect(within(restored).getByRole('link', { name: 'Check profiles' }).getAttribute('href')).toBe(
      '#/profiles',
    );
    expect(within(restored).getByText(PROFILES_RESTORED.details.asideAs)).toBeTruthy();
    const local = screen.getByRole('region', {
      name: 'The change log was damaged, so a new one was started',
    });
    expect(local.textContent).toContain('There was no backup to restore');
    expect(local.textContent).toContain('12 entries of the change log were lost.');
    // Both headings in one announcement, and not again on the next render.
    await waitFor(() => expect(announced()).toContain('The change log was damaged'));
    expect(announced()).toContain('The profiles file was damaged');
  });

  it('Dismiss sends repairs:dismiss with the notice id and the banner goes; others stay', async () => {
    const { bridge } = renderBanners(status({ notices: [CACHE_ASIDE, PROFILES_RESTORED] }), {
      'repairs:dismiss': ({ id }) =>
        status({ notices: [CACHE_ASIDE, PROFILES_RESTORED].filter((n) => n.id !== id) }),
    });
    const banner = await region(/^The offline copy was damaged/);
    fireEvent.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /^The offline copy/ })).toBeNull());
    expect(bridge.callsTo('repairs:dismiss')).toEqual([{ id: 'n1' }]);
    expect(screen.getByRole('region', { name: /^The profiles file was damaged/ })).toBeTruthy();
  });

  it('follows repairs:changed: a repair made meanwhile appears, a dismissal elsewhere takes it away', async () => {
    const banners = renderBanners(status({}));
    await waitFor(() => expect(banners.bridge.callsTo('repairs:status')).toHaveLength(1));
    expect(screen.queryByRole('region')).toBeNull();
    banners.change(status({ notices: [LOCAL_AFRESH] }));
    await region(/^The change log was damaged/);
    banners.change(status({}));
    await waitFor(() => expect(screen.queryByRole('region')).toBeNull());
  });
});

describe('orphaned keys', () => {
  it('lists each key with its profile and where it was found, or says it can only be removed', async () => {
    renderBanners(status({ orphanedKeys: ORPHANS }));
    const banner = await region('2 keys in the system keychain belong to no profile');
    const [home, unknown] = within(banner).getAllByRole('listitem');
    expect(home.textContent).toContain('Key ending in wxyz');
    expect(home.textContent).toContain(
      'It belonged to the profile Home at https://home.example.com (found in the profiles backup).',
    );
    expect(within(home).getByText('https://home.example.com').getAttribute('dir')).toBe('ltr');
    expect(unknown.textContent).toContain('A short key');
    expect(unknown.textContent).toContain('can only be removed');
    expect(within(unknown).queryByRole('button', { name: 'Restore profile' })).toBeNull();
    // Each key's buttons are a group named by the key.
    expect(within(banner).getByRole('group', { name: 'Key ending in wxyz' })).toBeTruthy();
  });

  it('restores one profile (its account) or all that are known (none named)', async () => {
    const restored: unknown[] = [];
    const { bridge } = renderBanners(status({ orphanedKeys: ORPHANS }), {
      'repairs:restoreKeys': (input) => {
        restored.push(input);
        return status({ orphanedKeys: ORPHANS.filter((key) => key.profile === null) });
      },
    });
    const banner = await region(/belong to no profile$/);
    fireEvent.click(within(banner).getByRole('button', { name: 'Restore profile' }));
    await screen.findByText('1 profile was restored.');
    expect(restored).toEqual([{ accounts: ['acc-home'] }]);
    // The profiles are asked again: the restored one is on the list now.
    expect(bridge.callsTo('profiles:list').length).toBeGreaterThanOrEqual(2);
    await region('1 key in the system keychain belongs to no profile');
  });

  it('"Restore all" names no account when every key is restorable', async () => {
    const both = [ORPHANS[0], { ...ORPHANS[0], account: 'acc-work', keyHint: '1234' }];
    const { bridge } = renderBanners(status({ orphanedKeys: both }), {
      'repairs:restoreKeys': () => status({}),
    });
    const banner = await region(/belong to no profile$/);
    fireEvent.click(within(banner).getByRole('button', { name: 'Restore all profiles (2)' }));
    await screen.findByText('2 profiles were restored.');
    expect(bridge.callsTo('repairs:restoreKeys')).toEqual([undefined]);
    await waitFor(() => expect(screen.queryByRole('region')).toBeNull());
  });

  it('removes a key only once confirmed; Cancel removes nothing', async () => {
    const { bridge } = renderBanners(status({ orphanedKeys: ORPHANS }), {
      'repairs:removeKeys': () => status({ orphanedKeys: [ORPHANS[0]] }),
    });
    const banner = await region(/belong to no profile$/);
    const unknown = within(banner).getAllByRole('listitem')[1];
    fireEvent.click(within(unknown).getByRole('button', { name: 'Remove key' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Remove 1 key from the system keychain?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(bridge.callsTo('repairs:removeKeys')).toEqual([]);

    fireEvent.click(within(unknown).getByRole('button', { name: 'Remove key' }));
    dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('The key is deleted for good');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove key' }));
    await screen.findByText('1 key was removed from the system keychain.');
    expect(bridge.callsTo('repairs:removeKeys')).toEqual([{ accounts: ['acc-unknown'] }]);
    await region('1 key in the system keychain belongs to no profile');
  });

  it('"Remove all" asks once for every key and a failure is shown in the dialog in its sentence', async () => {
    renderBanners(status({ orphanedKeys: ORPHANS }), {
      'repairs:removeKeys': () =>
        failWith({
          kind: 'keychain_unavailable',
          code: 'keychain.unavailable',
          values: { platform: 'linux' },
        }),
    });
    const banner = await region(/belong to no profile$/);
    fireEvent.click(within(banner).getByRole('button', { name: 'Remove all keys (2)' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Remove 2 keys from the system keychain?',
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove keys' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).not.toContain('Something went wrong');
    expect(alert.getAttribute('data-kind')).toBe('keychain_unavailable');
  });
});

const DAMAGE = { file: '/data/profiles.json', asideAs: '/data/profiles.json.corrupt-2026-11-28T100300000Z' };
const damagedError = () =>
  failWith({
    kind: 'damaged',
    code: 'profiles.damaged',
    values: { ...DAMAGE, kept: 'copy', moveCode: '', reason: 'not_json', readCode: '' },
    reason: 'profiles_damaged',
    details: DAMAGE,
  });

describe('a damaged profiles file without a backup', () => {
  it('at start: a screen saying where the copy is, and a new list only once confirmed', async () => {
    let damaged = true;
    const bridge = installFakeBridge({
      'profiles:list': () => (damaged ? damagedError() : { profiles: [], activeId: null }),
      'connectivity:status': () => ONLINE,
      'profiles:startAfresh': () => {
        damaged = false;
        return { profiles: [], activeId: null };
      },
    });
    render(<App client={createQueryClient()} />);
    const heading = await screen.findByRole('heading', { level: 1, name: 'The profiles file is damaged' });
    const screenPart = heading.closest('section')!;
    expect(screenPart.textContent).not.toContain('Something went wrong');
    expect(screenPart.textContent).not.toContain('could not start');
    expect(within(screenPart).getByText(DAMAGE.file).getAttribute('dir')).toBe('ltr');
    expect(within(screenPart).getByText(DAMAGE.asideAs)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Start a new list of profiles' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Start a new list of profiles?' });
    expect(dialog.textContent).toContain(`The old list stays in the copy ${DAMAGE.asideAs}`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(bridge.callsTo('profiles:startAfresh')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Start a new list of profiles' }));
    dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start a new list' }));
    // The first-run screen follows, and the start is said.
    await waitFor(() => expect(window.location.hash).toBe('#/welcome'));
    await screen.findByRole('button', { name: 'Try with a local demo service' });
    expect(bridge.callsTo('profiles:startAfresh')).toHaveLength(1);
    await waitFor(() => expect(announced()).toContain('A new list of profiles was started.'));
  });

  it('found while the app runs: a banner with the same choice', async () => {
    const { bridge } = renderBanners(status({ profilesDamaged: DAMAGE }), {
      'profiles:startAfresh': () => ({ profiles: [], activeId: null }),
    });
    const banner = await region('The profiles file is damaged');
    expect(within(banner).getByText(DAMAGE.asideAs)).toBeTruthy();
    fireEvent.click(within(banner).getByRole('button', { name: 'Start a new list of profiles' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Start a new list' }),
    );
    await waitFor(() => expect(screen.queryByRole('region')).toBeNull());
    expect(bridge.callsTo('profiles:startAfresh')).toHaveLength(1);
  });
});

describe('a full disk and a read-only data folder', () => {
  const FULL = {
    kind: 'disk_full' as const,
    code: 'storage.disk_full' as const,
    values: {
      place: 'data_folder',
      folder: '/data',
      freeKnown: 'yes',
      freeMegabytes: 0.2,
      offlineKnown: 'yes',
      offlineReports: 600,
    },
  };

  it('a failed "Make available offline" started from the list says it in a banner, with retry and dismiss', async () => {
    const bridge = installFakeBridge({
      'profiles:list': () => ACTIVE,
      'connectivity:status': () => ONLINE,
      'reports:list': () => ({
        reports: [],
        page: 1,
        perPage: 50,
        total: 0,
        lastPage: 1,
        source: 'network',
        fetchedAt: new Date().toISOString(),
      }),
      'cache:projects': () => [],
      'cache:sync': () => failWith(FULL),
    });
    render(<App client={createQueryClient()} />);
    await screen.findByRole('heading', { level: 1, name: 'Reports' });
    act(() => bridge.emit('app:command', { command: 'sync' }));
    const alert = await screen.findByText(/^The disk that holds the data folder/);
    expect(alert.textContent).toBe(
      'The disk that holds the data folder /data is full (0.2 MB free). Nothing was lost: 600 reports are available offline; free some space and try again.',
    );
    const banner = alert.closest('.banner')!;
    expect(banner.textContent).toContain('Making reports available offline failed.');
    fireEvent.click(within(banner as HTMLElement).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(bridge.callsTo('cache:sync')).toHaveLength(2));
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(document.querySelector('.banner-sync-failed')).toBeNull());
  });

  it('a first screen that fails on a read-only data folder says so, with Try again', async () => {
    let readOnly = true;
    installFakeBridge({
      'profiles:list': () =>
        readOnly
          ? failWith({
              kind: 'read_only',
              code: 'storage.read_only',
              values: { place: 'data_folder', folder: '/data', code: 'EROFS' },
            })
          : { profiles: [], activeId: null },
      'connectivity:status': () => ONLINE,
    });
    render(<App client={createQueryClient()} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'The data folder /data cannot be written to (EROFS), so nothing was saved; reading still works.',
    );
    expect(alert.textContent).not.toContain('Something went wrong');
    readOnly = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(window.location.hash).toBe('#/welcome'));
  });
});
