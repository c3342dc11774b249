/**
 * The first screen's one round trip (issue 22): with the profile whose list the window showed
 * last remembered, `app:firstScreen` brings the profiles, connectivity and that list before
 * React renders, and no screen asks for them again — not even for a list that failed. A wrong
 * or missing guess falls back to asking for the list once the profiles are known.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FirstScreen, ProfilesState, ReportPageResult } from '../../shared/contract';
import { appError } from '../../shared/errors';
import type { Report } from '../../shared/model';
import { App } from '../../renderer/src/App';
import { prefetchFirstScreen } from '../../renderer/src/lib/firstScreen';
import { showLanguage } from '../../renderer/src/lib/i18n';
import { createQueryClient, queryKeys } from '../../renderer/src/lib/queries';
import { OFFLINE, ONLINE, PROFILE, installFakeBridge, type FakeHandlers, SYSTEM_LANGUAGE } from './helpers';

const LAST_PROFILE_KEY = 'reportdesk.firstScreen.profile';
const REPORTS: Report[] = [
  { id: '1', url: 'https://one.example.com/', result: 'good', privacy: 0 },
  { id: '2', url: 'https://two.example.com/', result: 'bad', privacy: 1 },
];
const OTHER = { ...PROFILE, id: 'p2', name: 'Home' };
const ACTIVE: ProfilesState = { profiles: [PROFILE, OTHER], activeId: PROFILE.id };

function page(reports: Report[]): ReportPageResult {
  return {
    reports,
    page: 1,
    perPage: 50,
    total: reports.length,
    lastPage: 1,
    source: 'cache',
    fetchedAt: new Date().toISOString(),
  };
}

/** The handlers the list screen reads beside its rows (suggestions, overview). */
const LIST_EXTRAS: FakeHandlers = { 'cache:projects': () => [], 'cache:overview': () => null };

function start(handlers: FakeHandlers) {
  const bridge = installFakeBridge({ ...LIST_EXTRAS, ...handlers });
  const client = createQueryClient();
  prefetchFirstScreen(client, true);
  render(<App client={client} />);
  return { bridge, client };
}

const FIRST_CALLS = ['app:firstScreen', 'profiles:list', 'reports:list', 'connectivity:status'];

beforeEach(() => {
  window.location.hash = '#/reports';
  // The list as the user left it on their last start, with Work active.
  localStorage.setItem(LAST_PROFILE_KEY, PROFILE.id);
  localStorage.setItem(
    `reportdesk.list.${PROFILE.id}`,
    JSON.stringify({ perPage: 50, sortBy: 'url', sort: 'asc' }),
  );
});
afterEach(async () => {
  cleanup();
  localStorage.clear();
  // A read waiting for a frame (the project suggestions) goes out before the next test's bridge.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
});

describe('the first screen', () => {
  it('shows its rows, connectivity and profiles from one round trip', async () => {
    const { bridge } = start({
      'app:firstScreen': (): FirstScreen => ({
        language: SYSTEM_LANGUAGE,
        profiles: ACTIVE,
        connectivity: OFFLINE,
        list: { ok: true, value: page(REPORTS) },
      }),
    });
    await screen.findByText('https://two.example.com/');
    expect(await screen.findByText(/Offline since/)).toBeTruthy();
    expect((screen.getByLabelText('Active profile') as HTMLSelectElement).value).toBe(PROFILE.id);
    const first = bridge.calls.filter((c) => FIRST_CALLS.includes(c.channel));
    expect(first).toEqual([
      {
        channel: 'app:firstScreen',
        input: { list: { profileId: PROFILE.id, query: { per_page: 50, sort_by: 'url', sort: 'asc' } } },
      },
    ]);
  });

  it('asks for the project suggestions only once the list is on screen', async () => {
    // Frames are held back: nothing the first frame does not show may be asked before it.
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    try {
      const { bridge } = start({
        'app:firstScreen': (): FirstScreen => ({
          language: SYSTEM_LANGUAGE,
          profiles: ACTIVE,
          connectivity: ONLINE,
          list: { ok: true, value: page(REPORTS) },
        }),
        'cache:projects': () => ['blog'],
      });
      await screen.findByText('https://two.example.com/');
      expect(bridge.callsTo('cache:projects')).toEqual([]);
      frames.splice(0).forEach((frame) => frame(performance.now()));
      await waitFor(() => expect(bridge.callsTo('cache:projects')).toHaveLength(1));
      await waitFor(() => expect(document.querySelectorAll('#project-suggestions option')).toHaveLength(1));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('shows the list’s failure that came with the answer, without asking again', async () => {
    const { bridge } = start({
      'app:firstScreen': (): FirstScreen => ({
        language: SYSTEM_LANGUAGE,
        profiles: ACTIVE,
        connectivity: OFFLINE,
        list: {
          ok: false,
          error: appError('http.unreachable', { host: 'reports.example.com', cause: 'refused' }),
        },
      }),
    });
    expect(await screen.findByText('The reports could not be loaded.')).toBeTruthy();
    expect(
      screen.getByText(/reports\.example\.com could not be reached: the connection was refused/),
    ).toBeTruthy();
    expect(bridge.callsTo('reports:list')).toEqual([]);
  });

  it('asks for the list once the profiles are known when another profile is active', async () => {
    const { bridge, client } = start({
      'app:firstScreen': (): FirstScreen => ({
        language: SYSTEM_LANGUAGE,
        profiles: { ...ACTIVE, activeId: OTHER.id },
        connectivity: ONLINE,
        list: null,
      }),
      'reports:list': () => page([REPORTS[0]]),
    });
    await screen.findByText('https://one.example.com/');
    // Home's own list as it was left (nothing saved: the defaults), asked once.
    expect(bridge.callsTo('reports:list')).toEqual([{}]);
    expect(bridge.callsTo('profiles:list')).toEqual([]);
    // Nothing is kept under Work's key: Work's list was never answered.
    await waitFor(() =>
      expect(client.getQueryCache().findAll({ queryKey: queryKeys.reportsOf(PROFILE.id) })).toEqual([]),
    );
    await waitFor(() => expect(localStorage.getItem(LAST_PROFILE_KEY)).toBe(OTHER.id));
  });

  it('asks for the list after the profiles on a first start, and remembers the profile for the next', async () => {
    localStorage.clear();
    const { bridge } = start({
      'app:firstScreen': (): FirstScreen => ({
        profiles: ACTIVE,
        connectivity: ONLINE,
        list: null,
        language: SYSTEM_LANGUAGE,
      }),
      'reports:list': () => page(REPORTS),
    });
    await screen.findByText('https://one.example.com/');
    expect(bridge.callsTo('app:firstScreen')).toEqual([{}]);
    expect(bridge.callsTo('reports:list')).toHaveLength(1);
    expect(localStorage.getItem(LAST_PROFILE_KEY)).toBe(PROFILE.id);
  });

  it('asks for no list with a remembered id the contract would refuse', async () => {
    localStorage.setItem(LAST_PROFILE_KEY, 'not an id');
    const { bridge } = start({
      'app:firstScreen': (): FirstScreen => ({
        profiles: ACTIVE,
        connectivity: ONLINE,
        list: null,
        language: SYSTEM_LANGUAGE,
      }),
      'reports:list': () => page(REPORTS),
    });
    await screen.findByText('https://one.example.com/');
    expect(bridge.callsTo('app:firstScreen')).toEqual([{}]);
  });

  it('asks for the list itself when the profile became active again while the answer was made', async () => {
    const { bridge } = start({
      'app:firstScreen': (): FirstScreen => ({
        profiles: ACTIVE,
        connectivity: ONLINE,
        list: null,
        language: SYSTEM_LANGUAGE,
      }),
      'reports:list': () => page(REPORTS),
    });
    await screen.findByText('https://one.example.com/');
    expect(bridge.callsTo('reports:list')).toEqual([{ per_page: 50, sort_by: 'url', sort: 'asc' }]);
  });

  it('when the answer fails, says so and starts over on Retry with the ordinary reads', async () => {
    let failing = true;
    const { bridge } = start({
      'app:firstScreen': () => {
        throw new Error('bridge broke');
      },
      'profiles:list': () => {
        if (failing) throw new Error('still broken');
        return ACTIVE;
      },
      'connectivity:status': () => ONLINE,
      'reports:list': () => page(REPORTS),
    });
    expect(await screen.findByText('ReportDesk could not start')).toBeTruthy();
    failing = false;
    screen.getByRole('button', { name: 'Retry' }).click();
    await screen.findByText('https://one.example.com/');
    expect(bridge.callsTo('profiles:list').length).toBeGreaterThan(0);
  });

  it('when the answer fails, words the error in the language the app is set to (here --lang en-XA)', async () => {
    start({
      'app:firstScreen': () => {
        throw new Error('bridge broke');
      },
      'settings:language': () => ({ ...SYSTEM_LANGUAGE, runLanguage: 'en-XA' }),
    });
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(document.documentElement.lang).toBe('en-XA');
    expect(heading.textContent).toMatch(/^\[ŔéƥöŕţÐéšķ çöûļð ñöţ šţáŕţ ~+/);
    await act(() => showLanguage('en'));
  });
});
