import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CacheStatus, ProfileView } from '../../shared/contract';
import { ProfilesScreen } from '../../renderer/src/screens/Profiles';
import { SettingsScreen } from '../../renderer/src/screens/Settings';
import { OFFLINE_STATE, ONLINE, PROFILE, installFakeBridge, renderWithApp } from './helpers';

afterEach(cleanup);

const STATUS: CacheStatus = {
  profileId: PROFILE.id,
  reportCount: 3,
  sizeBytes: 4096,
  lastFullSyncAt: null,
  lastQuickRefreshAt: null,
  syncing: false,
};

describe('Settings: another local user reading the data folder', () => {
  it('warns, naming the folder and how to make it private, when the core reports it open', async () => {
    installFakeBridge({
      'cache:status': () => ({ ...STATUS, exposedDataDir: '/home/ann/.config/ReportDesk' }),
      'connectivity:status': () => ONLINE,
      'offline:get': () => OFFLINE_STATE,
    });
    renderWithApp(<SettingsScreen profileId={PROFILE.id} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Other users of this computer can read ReportDesk’s data folder');
    expect(alert.textContent).toContain('/home/ann/.config/ReportDesk');
    expect(alert.textContent).toContain('chmod 700');
  });

  it('says nothing when the folder is private', async () => {
    installFakeBridge({
      'cache:status': () => STATUS,
      'connectivity:status': () => ONLINE,
      'offline:get': () => OFFLINE_STATE,
    });
    renderWithApp(<SettingsScreen profileId={PROFILE.id} />);
    await screen.findByText('Reports saved for this profile');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('Profiles: a new address for a stored key', () => {
  function open() {
    const profile: ProfileView = { ...PROFILE };
    const bridge = installFakeBridge({
      'profiles:list': () => ({ profiles: [profile], activeId: profile.id }),
      'profiles:update': (input) => ({ ...profile, ...input }),
      'connectivity:status': () => ONLINE,
    });
    renderWithApp(<ProfilesScreen />);
    return bridge;
  }

  async function editDialog() {
    fireEvent.click(await screen.findByRole('button', { name: 'Rename' }));
    return screen.getByRole('dialog', { name: `Rename ${PROFILE.name}` });
  }

  it('asks for the key in the same form when the host changes, and sends nothing without it', async () => {
    const bridge = open();
    const dialog = await editDialog();
    expect(within(dialog).queryByLabelText('API key for the new address')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Base URL'), {
      target: { value: 'https://elsewhere.example.net' },
    });
    const key = within(dialog).getByLabelText('API key for the new address');
    expect(key.getAttribute('type')).toBe('password');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByText('Enter the API key.');
    expect(bridge.callsTo('profiles:update')).toEqual([]);

    fireEvent.change(key, { target: { value: 'key-for-elsewhere-42' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(bridge.callsTo('profiles:update')).toEqual([
        {
          id: PROFILE.id,
          name: PROFILE.name,
          baseUrl: 'https://elsewhere.example.net',
          apiKey: 'key-for-elsewhere-42',
        },
      ]),
    );
  });

  it.each([
    ['a new port', 'https://reports.example.com:8443'],
    ['a new scheme', 'http://reports.example.com'],
  ])('counts %s as a new address', async (_what, url) => {
    open();
    const dialog = await editDialog();
    fireEvent.change(within(dialog).getByLabelText('Base URL'), { target: { value: url } });
    expect(within(dialog).getByLabelText('API key for the new address')).toBeTruthy();
  });

  it('keeps the stored key for a new path on the same address', async () => {
    const bridge = open();
    const dialog = await editDialog();
    fireEvent.change(within(dialog).getByLabelText('Base URL'), {
      target: { value: 'https://reports.example.com/reports' },
    });
    expect(within(dialog).queryByLabelText('API key for the new address')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(bridge.callsTo('profiles:update')).toHaveLength(1));
    expect(bridge.callsTo('profiles:update')[0]).not.toHaveProperty('apiKey');
  });
});
