import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectivityState, ProfilesState, ReportPageResult } from '../../shared/contract';
import type { Report } from '../../shared/model';
import { App } from '../../renderer/src/App';
import { createQueryClient, queryKeys } from '../../renderer/src/lib/queries';
import { OFFLINE, ONLINE, PROFILE, installFakeBridge } from './helpers';

const REPORTS: Report[] = [
  { id: '1', url: 'https://one.example.com/', result: 'good', privacy: 0 },
  { id: '2', url: 'https://two.example.com/', result: 'bad', privacy: 1, score: { total: 40 } },
];
const ACTIVE: ProfilesState = { profiles: [PROFILE], activeId: PROFILE.id };

function page(reports: Report[], source: 'network' | 'cache' = 'network'): ReportPageResult {
  return {
    reports,
    page: 1,
    perPage: 10,
    total: reports.length,
    lastPage: 1,
    source,
    fetchedAt: new Date(Date.now() - 12 * 60_000).toISOString(),
  };
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});
beforeEach(() => {
  window.location.hash = '#/reports';
});

describe('App', () => {
  it('opens the welcome screen on first run, and the demo makes it usable at once', async () => {
    let profiles: ProfilesState = { profiles: [], activeId: null };
    const bridge = installFakeBridge({
      'profiles:list': () => profiles,
      'profiles:startDemo': () => {
        profiles = { profiles: [{ ...PROFILE, id: 'demo', name: 'Demo', demo: true }], activeId: 'demo' };
        return profiles;
      },
      'connectivity:status': () => ONLINE,
      'cache:projects': () => [],
      'reports:list': () => page(REPORTS),
    });
    render(<App client={createQueryClient()} />);
    await waitFor(() => expect(window.location.hash).toBe('#/welcome'));
    fireEvent.click(await screen.findByRole('button', { name: 'Try with a local demo service' }));
    await screen.findByText('https://one.example.com/');
    expect(window.location.hash).toBe('#/reports');
    expect(bridge.callsTo('profiles:startDemo')).toHaveLength(1);
    expect((screen.getByLabelText('Active profile') as HTMLSelectElement).value).toBe('demo');
  });

  it('while offline: says since when and how old the data is, disables writes, and recovers on the event', async () => {
    // The core's current state, which its events announce.
    let coreState = OFFLINE as ConnectivityState;
    const bridge = installFakeBridge({
      'profiles:list': () => ACTIVE,
      'connectivity:status': () => coreState,
      'connectivity:check': () => coreState,
      'cache:projects': () => [],
      'reports:list': () => page(REPORTS, 'cache'),
    });
    render(<App client={createQueryClient()} />);
    await screen.findByText('https://one.example.com/');
    const banner = await screen.findByText(/Offline since/);
    const bannerBox = banner.closest('.banner') as HTMLElement;
    expect(bannerBox.textContent).toContain('Showing reports saved 12 minutes ago.');
    const newReport = screen.getByRole('button', { name: 'New report' }) as HTMLButtonElement;
    expect(newReport.disabled).toBe(true);
    // Why it is off is a sentence in the banner, which the button names as its description.
    const reason = document.getElementById(newReport.getAttribute('aria-describedby')!);
    expect(reason?.textContent).toBe('Changes are disabled until the Report Service can be reached.');
    expect(bannerBox.contains(reason)).toBe(true);

    fireEvent.click(within(bannerBox).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(bridge.callsTo('connectivity:check')).toHaveLength(1));

    // The service came back after we went offline; the event may overtake the check's answer.
    coreState = { ...ONLINE, since: '2025-01-01T10:05:00.000Z' };
    act(() => bridge.emit('connectivity:changed', coreState));
    await waitFor(() => expect(screen.queryByText(/Offline since/)).toBeNull());
    expect((screen.getByRole('button', { name: 'New report' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('keeps a newer online event when an older "Try again" answer arrives after it', async () => {
    let answerCheck: (state: ConnectivityState) => void = () => {};
    // The core's current state, which its events announce.
    let coreState = OFFLINE as ConnectivityState;
    const bridge = installFakeBridge({
      'profiles:list': () => ACTIVE,
      'connectivity:status': () => coreState,
      'connectivity:check': () => new Promise<ConnectivityState>((resolve) => (answerCheck = resolve)),
      'cache:projects': () => [],
      'reports:list': () => page(REPORTS, 'cache'),
    });
    render(<App client={createQueryClient()} />);
    const banner = (await screen.findByText(/Offline since/)).closest('.banner') as HTMLElement;
    fireEvent.click(within(banner).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(bridge.callsTo('connectivity:check')).toHaveLength(1));

    coreState = { ...ONLINE, since: '2025-01-01T10:05:00.000Z' };
    act(() => bridge.emit('connectivity:changed', coreState));
    await waitFor(() => expect(screen.queryByText(/Offline since/)).toBeNull());
    // The check had started while still offline and answers with that older state.
    await act(async () => answerCheck(OFFLINE as ConnectivityState));
    expect(screen.queryByText(/Offline since/)).toBeNull();
    expect((screen.getByRole('button', { name: 'New report' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('keeps a newer offline event when a refresh’s older status answer arrives after it', async () => {
    let answerStatus: ((state: ConnectivityState) => void) | null = null;
    const bridge = installFakeBridge({
      'profiles:list': () => ACTIVE,
      // The first read answers at once; the refresh's read is still on its way when the event comes.
      'connectivity:status': () =>
        bridge.callsTo('connectivity:status').length === 1
          ? (ONLINE as ConnectivityState)
          : new Promise<ConnectivityState>((resolve) => (answerStatus = resolve)),
      'cache:projects': () => [],
      'reports:list': () => page(REPORTS),
    });
    const client = createQueryClient();
    render(<App client={client} />);
    await screen.findByText('https://one.example.com/');

    fireEvent.keyDown(window, { key: 'r', ctrlKey: true });
    await waitFor(() => expect(answerStatus).not.toBeNull());
    act(() => bridge.emit('connectivity:changed', { ...OFFLINE, since: '2025-01-01T10:05:00.000Z' }));
    await screen.findByText(/Offline since/);

    await act(async () => answerStatus!(ONLINE as ConnectivityState));
    await waitFor(() => expect(client.isFetching({ queryKey: queryKeys.connectivity })).toBe(0));
    expect(screen.getByText(/Offline since/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'New report' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('deletes a report after a confirmation naming its URL, and removes it from the list without a reload', async () => {
    let stored = [...REPORTS];
    const bridge = installFakeBridge({
      'profiles:list': () => ACTIVE,
      'connectivity:status': () => ONLINE,
      'cache:projects': () => [],
      'cache:status': () => ({
        profileId: 'p1',
        reportCount: 2,
        sizeBytes: 1,
        lastFullSyncAt: null,
        lastQuickRefreshAt: null,
        syncing: false,
      }),
      'reports:list': () => page(stored),
      'reports:get': ({ id }) => ({
        report: stored.find((r) => r.id === id)!,
        source: 'network',
        fetchedAt: new Date().toISOString(),
      }),
      'reports:delete': ({ id }) => {
        stored = stored.filter((r) => r.id !== String(id));
        return { deleted: String(id) };
      },
    });
    render(<App client={createQueryClient()} />);
    fireEvent.click(await screen.findByText('https://two.example.com/'));
    await screen.findByRole('heading', { name: 'https://two.example.com/' });
    // Unknown fields are shown readably on the detail screen.
    expect(screen.getByText('Total')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    let dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('https://two.example.com/');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(bridge.callsTo('reports:delete')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    dialog = screen.getByRole('alertdialog');
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete report' }));
    await waitFor(() => expect(window.location.hash).toBe('#/reports'));
    await screen.findByText('https://one.example.com/');
    expect(screen.queryByText('https://two.example.com/')).toBeNull();
    expect(bridge.callsTo('reports:delete')).toEqual([{ id: '2' }]);
  });

  it('follows navigate and command events from the main process, and Ctrl+N', async () => {
    const bridge = installFakeBridge({
      'profiles:list': () => ACTIVE,
      'connectivity:status': () => ONLINE,
      'cache:projects': () => [],
      'reports:list': () => page(REPORTS),
      'account:get': () => ({
        account: { name: 'Ann' },
        source: 'cache',
        fetchedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
      }),
    });
    render(<App client={createQueryClient()} />);
    await screen.findByText('https://one.example.com/');
    act(() => bridge.emit('app:navigate', { path: '/account' }));
    expect(await screen.findByText('From the offline copy, saved 5 minutes ago')).toBeTruthy();
    expect(screen.getByText('Ann')).toBeTruthy();
    act(() => bridge.emit('app:command', { command: 'new-report' }));
    await screen.findByRole('heading', { name: 'New report' });
    window.location.hash = '#/account';
    await screen.findByRole('heading', { name: 'Account' });
    fireEvent.keyDown(window, { key: 'n', ctrlKey: true });
    await screen.findByRole('heading', { name: 'New report' });
    act(() => bridge.emit('app:command', { command: 'focus-search' }));
    await waitFor(() => expect(document.activeElement?.id).toBe('report-search'));
    // Ctrl+F from another screen: the list opens, then the cursor goes into its search box.
    window.location.hash = '#/account';
    await screen.findByRole('heading', { name: 'Account' });
    fireEvent.keyDown(window, { key: 'f', ctrlKey: true });
    await screen.findByRole('heading', { name: 'Reports' });
    await waitFor(() => expect(document.activeElement?.id).toBe('report-search'));
  });
});
