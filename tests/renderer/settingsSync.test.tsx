/**
 * The Settings screen's "Make available offline": a sync refused because another runs, one that
 * kept rows, and a sync running in another window or command shown before anyone tries.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CacheStatus } from '../../shared/contract';
import { CACHE_STATUS_POLL_MS, queryKeys } from '../../renderer/src/lib/queries';
import { SettingsScreen } from '../../renderer/src/screens/Settings';
import {
  OFFLINE_STATE,
  ONLINE,
  PROFILE,
  failWith,
  finishedSync,
  installFakeBridge,
  renderWithApp,
} from './helpers';

const STATUS: CacheStatus = {
  profileId: PROFILE.id,
  reportCount: 120,
  sizeBytes: 4096,
  lastFullSyncAt: null,
  lastQuickRefreshAt: null,
  syncing: false,
};

afterEach(cleanup);

/** The bridge as Settings sees it: online, one active profile, and the calls a test gives. */
const settingsBridge = (handlers: Parameters<typeof installFakeBridge>[0]) =>
  installFakeBridge({
    'connectivity:status': () => ONLINE,
    'profiles:list': () => ({ profiles: [PROFILE], activeId: PROFILE.id }),
    'offline:get': () => OFFLINE_STATE,
    ...handlers,
  });

describe('Settings: Make available offline', () => {
  it('shows the refusal sentence when a sync of the profile runs in another window or command', async () => {
    const bridge = settingsBridge({
      'cache:status': () => STATUS,
      'cache:sync': () => failWith({ kind: 'busy', reason: 'sync_running' }),
    });
    renderWithApp(<SettingsScreen profileId={PROFILE.id} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Make available offline' }));
    expect(
      await screen.findByText('Reports are already being made available offline elsewhere.'),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'A sync of this profile is already running in another ReportDesk window or command; wait for it to finish, then try again.',
      ),
    ).toBeTruthy();
    expect(bridge.callsTo('cache:sync')).toHaveLength(1);
  });

  it('says so when the sync kept cached reports because the list changed while it was read', async () => {
    const summary = finishedSync({
      fetched: 119,
      pruned: false,
      reason: 'listing_changed',
      added: 119,
      complete: false,
      passes: 3,
      requests: 6,
    });
    settingsBridge({
      'cache:status': () => STATUS,
      'cache:sync': () => summary,
    });
    renderWithApp(<SettingsScreen profileId={PROFILE.id} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Make available offline' }));
    const status = await screen.findByText(/119 reports are available offline/);
    expect(status.textContent).toBe(
      '119 reports are available offline. The reports on the service changed during the download, so nothing was removed from the offline copy; download again to settle it.',
    );
  });
});

describe('Settings: a sync running in another window or command', () => {
  it('says so and keeps "Make available offline" off until that sync ends, then turns it back on', async () => {
    let statusCalls = 0;
    // The first two answers say a sync runs (another process holds it), then it has ended.
    const bridge = settingsBridge({
      'cache:status': () => ({ ...STATUS, syncing: ++statusCalls <= 2 }),
    });
    renderWithApp(<SettingsScreen profileId={PROFILE.id} />);
    const note = await screen.findByText(
      'Reports are being made available offline by another ReportDesk window or command. This page updates when it finishes.',
    );
    expect(note.getAttribute('role')).toBe('status');
    const start = screen.getByRole('button', { name: 'Make available offline' });
    expect((start as HTMLButtonElement).disabled).toBe(true);
    // The status is asked again while the sync runs, and the button comes back when it ends.
    await waitFor(() => expect((start as HTMLButtonElement).disabled).toBe(false), {
      timeout: 3 * CACHE_STATUS_POLL_MS,
    });
    expect(screen.queryByText(/by another ReportDesk window or command/)).toBeNull();
    expect(bridge.callsTo('cache:status').length).toBeGreaterThanOrEqual(3);
    expect(bridge.callsTo('cache:sync')).toHaveLength(0);
  });
});

describe('Settings: what this window learns from its own sync', () => {
  /** A status that answers once (no sync running), then never again: only the window's own knowledge can change it. */
  const statusOnce = () => {
    let asked = 0;
    return () => (++asked === 1 ? STATUS : new Promise<CacheStatus>(() => {}));
  };

  /** As the app shows Settings: once the active profile is known (the sync belongs to it). */
  const renderWithActiveProfile = async () => {
    const { client } = renderWithApp(<SettingsScreen profileId={PROFILE.id} />);
    await waitFor(() => expect(client.getQueryData(queryKeys.profiles)).toBeDefined());
  };

  it('a refusal because another sync runs shows that sync at once, before the status is asked again', async () => {
    settingsBridge({
      'cache:status': statusOnce(),
      'cache:sync': () => failWith({ kind: 'busy', reason: 'sync_running' }),
    });
    await renderWithActiveProfile();
    fireEvent.click(await screen.findByRole('button', { name: 'Make available offline' }));
    expect(await screen.findByText(/by another ReportDesk window or command/)).toBeTruthy();
    const start = screen.getByRole('button', { name: 'Make available offline' }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
  });

  it('its own finished sync leaves the button on, before the status is asked again', async () => {
    const summary = finishedSync();
    settingsBridge({
      'cache:status': statusOnce(),
      'cache:sync': () => summary,
    });
    await renderWithActiveProfile();
    fireEvent.click(await screen.findByRole('button', { name: 'Make available offline' }));
    await screen.findByText(/120 reports are available offline/);
    const start = screen.getByRole('button', { name: 'Make available offline' }) as HTMLButtonElement;
    expect(start.disabled).toBe(false);
    expect(screen.queryByText(/by another ReportDesk window or command/)).toBeNull();
  });
});
