/** The Settings screen's "Make available offline": a sync refused because another runs, and one that kept rows. */
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CacheStatus, SyncSummary } from '../../shared/contract';
import { SettingsScreen } from '../../renderer/src/screens/Settings';
import { ONLINE, PROFILE, failWith, installFakeBridge, renderWithApp } from './helpers';

const STATUS: CacheStatus = {
  profileId: PROFILE.id,
  reportCount: 120,
  sizeBytes: 4096,
  lastFullSyncAt: null,
  syncing: false,
};

afterEach(cleanup);

describe('Settings: Make available offline', () => {
  it('shows the refusal sentence when a sync of the profile runs in another window or command', async () => {
    const bridge = installFakeBridge({
      'cache:status': () => STATUS,
      'connectivity:status': () => ONLINE,
      'profiles:list': () => ({ profiles: [PROFILE], activeId: PROFILE.id }),
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
    const summary: SyncSummary = {
      fetched: 119,
      removed: 0,
      pages: 2,
      completedAt: '2025-01-01T10:00:00.000Z',
      pruned: false,
      reason: 'listing_changed',
    };
    installFakeBridge({
      'cache:status': () => STATUS,
      'connectivity:status': () => ONLINE,
      'profiles:list': () => ({ profiles: [PROFILE], activeId: PROFILE.id }),
      'cache:sync': () => summary,
    });
    renderWithApp(<SettingsScreen profileId={PROFILE.id} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Make available offline' }));
    const status = await screen.findByText(/119 reports are available offline/);
    expect(status.textContent).toBe(
      '119 reports are available offline (0 removed that no longer exist). The reports on the service changed during the download, so nothing was removed from the offline copy; download again to settle it.',
    );
  });
});
