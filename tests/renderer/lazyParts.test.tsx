/**
 * Screens and dialogs loaded when first used (issue 22): while a screen's code loads, an
 * announced skeleton stands in (no heading, so the focus waits for the real one); once it is
 * there the focus is on its heading and the screen is announced, as for every screen. A part
 * needed later (the bulk actions) is not there before it is needed, and stays once it was.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { lazy, type ComponentType } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProfilesState, ReportPageResult } from '../../shared/contract';
import { App } from '../../renderer/src/App';
import { LazyScreen, OnceNeeded, later } from '../../renderer/src/lazyParts';
import { createQueryClient } from '../../renderer/src/lib/queries';
import { LanguageProvider } from '../../renderer/src/lib/i18n';
import { ONLINE, PROFILE, installFakeBridge } from './helpers';

const ACTIVE: ProfilesState = { profiles: [PROFILE], activeId: PROFILE.id };
const PAGE: ReportPageResult = {
  reports: [{ id: '1', url: 'https://one.example.com/', result: 'good', privacy: 0 }],
  page: 1,
  perPage: 10,
  total: 1,
  lastPage: 1,
  source: 'network',
  fetchedAt: new Date().toISOString(),
};

/** The bridge the app's list screen reads, and what a test adds. */
const listBridge = (handlers: Parameters<typeof installFakeBridge>[0] = {}) =>
  installFakeBridge({
    'profiles:list': () => ACTIVE,
    'connectivity:status': () => ONLINE,
    'cache:projects': () => [],
    'reports:list': () => PAGE,
    ...handlers,
  });

const liveRegion = () => document.querySelector('[data-live-region]')?.textContent?.trim();

beforeEach(() => {
  window.location.hash = '#/reports';
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('parts loaded when first used', () => {
  it('a screen’s stand-in says it is loading and holds no heading to take the focus', () => {
    const Never = lazy(() => new Promise<{ default: () => null }>(() => {}));
    render(
      <main id="main">
        <LazyScreen>
          <Never />
        </LazyScreen>
      </main>,
      { wrapper: LanguageProvider },
    );
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(document.querySelector('#main h1')).toBeNull();
  });

  /** A later part whose code arrives when the test says; its screen is a heading. */
  function heldPart() {
    let arrive: (component: ComponentType) => void = () => {};
    const code = new Promise<ComponentType>((resolve) => (arrive = resolve));
    const Part = later(() => code);
    const Screen = () => <h1>Part’s screen</h1>;
    const show = () =>
      render(
        <main id="main">
          <LazyScreen>
            <Part />
          </LazyScreen>
        </main>,
        { wrapper: LanguageProvider },
      );
    return { Part, show, arrive: () => arrive(Screen) };
  }
  const partHeading = () => screen.queryByRole('heading', { level: 1, name: 'Part’s screen' });

  // React.lazy would suspend here (its first mount always does) and hold the part back 300 ms.
  it('a part whose code is here renders in the same frame, with no stand-in', async () => {
    const held = heldPart();
    held.arrive();
    await held.Part.preload();
    held.show();
    expect(partHeading()).not.toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a part whose code arrives after it was shown: the stand-in, then the part', async () => {
    const held = heldPart();
    held.show();
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(partHeading()).toBeNull();
    await act(async () => {
      held.arrive();
      await held.Part.preload();
    });
    expect(partHeading()).not.toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a screen opened from the menu takes the focus on its heading and is announced', async () => {
    listBridge({
      'cache:status': () => ({
        profileId: PROFILE.id,
        reportCount: 1,
        sizeBytes: 4096,
        lastFullSyncAt: null,
        lastQuickRefreshAt: null,
        syncing: false,
      }),
    });
    render(<App client={createQueryClient()} />);
    await screen.findByText('https://one.example.com/');
    act(() => {
      window.location.hash = '#/settings';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Settings' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(liveRegion()).toBe('Settings screen');
  });

  it('a part needed later is not there before, and stays once it was', () => {
    function Parts({ when }: { when: boolean }) {
      return (
        <OnceNeeded when={when}>
          <p>bulk actions</p>
        </OnceNeeded>
      );
    }
    const { rerender } = render(<Parts when={false} />, { wrapper: LanguageProvider });
    expect(screen.queryByText('bulk actions')).toBeNull();
    rerender(<Parts when />);
    expect(screen.getByText('bulk actions')).toBeTruthy();
    rerender(<Parts when={false} />);
    expect(screen.getByText('bulk actions')).toBeTruthy();
  });

  it('the list’s bulk actions appear with the first selected row', async () => {
    listBridge();
    render(<App client={createQueryClient()} />);
    await screen.findByText('https://one.example.com/');
    expect(screen.queryByRole('group', { name: 'Bulk actions on the selected reports' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select report 1' }));
    expect(await screen.findByRole('group', { name: 'Bulk actions on the selected reports' })).toBeTruthy();
  });
});
