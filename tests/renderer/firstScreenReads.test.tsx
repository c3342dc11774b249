/**
 * The reads that only add to the first screen wait for its first frame (issue 22): before the
 * rows are painted the page asks one thing, `app:firstScreen`; the update status, the changes
 * panel, the offline state, the "new" marks, the overview and the project suggestions follow.
 * A file of its own: `afterFirstScreen()` resolves once per page, so the frames must be held
 * back from the first render of this module on.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type {
  Channel,
  ChangesSummary,
  FirstScreen,
  OfflineState,
  ProfilesState,
} from '../../shared/contract';
import type { Report } from '../../shared/model';
import { App } from '../../renderer/src/App';
import { prefetchFirstScreen } from '../../renderer/src/lib/firstScreen';
import { createQueryClient } from '../../renderer/src/lib/queries';
import { ONLINE, PROFILE, installFakeBridge, SYSTEM_LANGUAGE } from './helpers';

const REPORTS: Report[] = [
  { id: '1', url: 'https://one.example.com/', result: 'good', privacy: 0 },
  { id: '2', url: 'https://two.example.com/', result: 'bad', privacy: 1 },
];
const ACTIVE: ProfilesState = { profiles: [PROFILE], activeId: PROFILE.id };
const STATE: OfflineState = {
  profileId: PROFILE.id,
  keepOffline: true,
  refreshMinutes: 15,
  notifyBad: false,
  keepOfflineChosen: true,
  lastQuickRefreshAt: null,
  lastFullSyncAt: '2026-11-22T09:00:00.000Z',
  running: null,
  waitingForPower: false,
  lastError: null,
};
const SUMMARY: ChangesSummary = {
  profileId: PROFILE.id,
  since: '2026-11-22T09:00:00.000Z',
  counts: { added: 1, addedBad: 0, changed: 0, turnedBad: 0, removed: 0 },
  items: [],
  more: 0,
};
/** Asked after the first frame; each is asked once it is released. */
const LATER: Channel[] = [
  'updates:status',
  'repairs:status',
  'changes:summary',
  'offline:get',
  'changes:marks',
  'cache:overview',
  'cache:projects',
];

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

it('asks only app:firstScreen before the rows are painted, and the reads that add to them after', async () => {
  // Frames are held back: nothing may wait for one until they are released.
  const frames: FrameRequestCallback[] = [];
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
  window.location.hash = '#/reports';
  localStorage.setItem('reportdesk.firstScreen.profile', PROFILE.id);
  const bridge = installFakeBridge({
    'app:firstScreen': (): FirstScreen => ({
      language: SYSTEM_LANGUAGE,
      profiles: ACTIVE,
      connectivity: ONLINE,
      list: {
        ok: true,
        value: {
          reports: REPORTS,
          page: 1,
          perPage: 50,
          total: REPORTS.length,
          lastPage: 1,
          source: 'cache',
          fetchedAt: new Date().toISOString(),
        },
      },
    }),
    'offline:get': () => STATE,
    'changes:summary': () => SUMMARY,
    'changes:marks': () => ({ newIds: ['2'] }),
    'cache:overview': () => null,
    'cache:projects': () => [],
  });
  const client = createQueryClient();
  prefetchFirstScreen(client, true);
  render(<App client={client} />);

  await screen.findByText('https://two.example.com/');
  // A few more turns of the event loop: a read that did not wait would have gone out by now.
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(bridge.calls.map((call) => call.channel)).toEqual(['app:firstScreen']);

  frames.splice(0).forEach((frame) => frame(performance.now()));
  for (const channel of LATER) {
    await waitFor(() => expect(bridge.callsTo(channel)).toHaveLength(1));
  }
  // The marks' answer reaches the rows it is about.
  await waitFor(() => expect(screen.getByText('New')).toBeTruthy());
  expect(bridge.callsTo('app:firstScreen')).toHaveLength(1);
});
