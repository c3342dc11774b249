/**
 * "Keep available offline" in the screens, with the contract faked at the bridge: the Settings
 * section, "Changes since …" above the list with its filter, marks and "Mark all as seen", the
 * new-row marks in the list, and the sentences (lib/offlineWords.ts).
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangesSummary, OfflineState, ReportPageResult, SyncSummary } from '../../shared/contract';
import { ChangesPanel } from '../../renderer/src/components/ChangesPanel';
import { KeepOfflineSettings } from '../../renderer/src/components/KeepOfflineSettings';
import {
  countsText,
  lastCheckedText,
  quickRefreshText,
  whatChangedText,
} from '../../renderer/src/lib/offlineWords';
import { currentWords } from '../../renderer/src/lib/i18n';
import { ReportsList } from '../../renderer/src/screens/ReportsList';
import { appError } from '../../shared/errors';
import { OFFLINE_STATE, ONLINE, failWith, installFakeBridge, renderWithApp } from './helpers';

afterEach(cleanup);

const NOW = Date.parse('2026-11-23T12:00:00Z');
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const announced = () => document.querySelector('[data-live-region]')!.textContent ?? '';

const STATE: OfflineState = OFFLINE_STATE;

const EMPTY_COUNTS = { added: 0, addedBad: 0, changed: 0, turnedBad: 0, removed: 0 };

const SUMMARY: ChangesSummary = {
  profileId: 'p1',
  since: '2026-11-22T09:00:00.000Z',
  counts: { added: 2, addedBad: 1, changed: 1, turnedBad: 1, removed: 1 },
  items: [
    {
      id: '31',
      kind: 'added',
      at: '2026-11-23T10:00:00.000Z',
      fields: { result: { before: null, after: 'bad' } },
      bad: true,
      report: { id: '31', url: 'https://new.example/', result: 'bad' },
    },
    {
      id: '7',
      kind: 'changed',
      at: '2026-11-23T09:00:00.000Z',
      fields: { result: { before: 'good', after: 'bad' }, privacy: { before: 0, after: 1 } },
      bad: true,
      report: { id: '7', url: 'https://seven.example/', result: 'bad' },
    },
    {
      id: '3',
      kind: 'removed',
      at: '2026-11-23T08:00:00.000Z',
      fields: { url: { before: 'https://gone.example/', after: null } },
      bad: false,
      report: null,
    },
  ],
  more: 0,
};

describe('the sentences', () => {
  const words = currentWords();
  it('when the copy was last checked', () => {
    expect(lastCheckedText(words, { lastQuickRefreshAt: null, lastFullSyncAt: null }, NOW)).toBe(
      'Not checked yet',
    );
    const at = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();
    expect(lastCheckedText(words, { lastQuickRefreshAt: at(2), lastFullSyncAt: at(300) }, NOW)).toBe(
      'New reports checked 2 minutes ago · everything checked 5 hours ago',
    );
    // A full sync checks the newest reports too.
    expect(lastCheckedText(words, { lastQuickRefreshAt: at(30), lastFullSyncAt: at(3) }, NOW)).toBe(
      'New reports checked 3 minutes ago · everything checked 3 minutes ago',
    );
    expect(lastCheckedText(words, { lastQuickRefreshAt: at(1), lastFullSyncAt: null }, NOW)).toBe(
      'New reports checked 1 minute ago · everything not checked yet',
    );
  });

  it('the counts, what changed, what a quick refresh found', () => {
    expect(countsText(words, SUMMARY.counts)).toBe(
      '2 new, 1 of them bad · 1 changed, 1 turned bad · 1 removed',
    );
    expect(countsText(words, { ...EMPTY_COUNTS, added: 1, addedBad: 1 })).toBe('1 new, bad');
    expect(countsText(words, { ...EMPTY_COUNTS, added: 12, addedBad: 0, changed: 2 })).toBe(
      '12 new · 2 changed',
    );
    expect(countsText(words, EMPTY_COUNTS)).toBe('');
    expect(whatChangedText(words, SUMMARY.items[1])).toBe('Result good → bad; privacy Public → Private');
    expect(
      whatChangedText(words, { kind: 'changed', fields: { project: { before: null, after: 'web' } } }),
    ).toBe('Project none → web');
    expect(whatChangedText(words, SUMMARY.items[0])).toBe('');
    expect(quickRefreshText(words, { added: 0, changed: 0 })).toBe('Checked for new reports: nothing new.');
    expect(quickRefreshText(words, { added: 1, changed: 2 })).toBe(
      'Checked for new reports: 1 new report and 2 changed reports.',
    );
  });
});

describe('Settings › Keep available offline', () => {
  it('saves each choice at once for this profile and says so', async () => {
    let state = STATE;
    const bridge = installFakeBridge({
      'connectivity:status': () => ONLINE,
      'offline:get': () => state,
      'offline:set': (input) => (state = { ...state, ...input, keepOfflineChosen: true }),
    });
    renderWithApp(<KeepOfflineSettings profileId="p1" />);
    const keep = await screen.findByRole('checkbox', {
      name: 'Keep this profile’s reports available offline',
    });
    expect((keep as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText('Not checked yet')).toBeTruthy();
    fireEvent.click(keep);
    await waitFor(() => expect((keep as HTMLInputElement).checked).toBe(true));
    expect(bridge.callsTo('offline:set')).toEqual([{ profileId: 'p1', keepOffline: true }]);
    expect(announced()).toMatch(/^Keep available offline is on: ReportDesk keeps this copy current\./);

    fireEvent.change(screen.getByLabelText('Check for new reports'), { target: { value: 'manual' } });
    await waitFor(() => expect(bridge.callsTo('offline:set')).toHaveLength(2));
    expect(bridge.callsTo('offline:set')[1]).toEqual({ profileId: 'p1', refreshMinutes: null });
    fireEvent.change(screen.getByLabelText('Check for new reports'), { target: { value: '60' } });
    await waitFor(() =>
      expect(bridge.callsTo('offline:set')[2]).toEqual({ profileId: 'p1', refreshMinutes: 60 }),
    );
    fireEvent.click(
      screen.getByRole('checkbox', { name: 'Notify me when new reports are bad or reports turn bad' }),
    );
    await waitFor(() =>
      expect(bridge.callsTo('offline:set')[3]).toEqual({ profileId: 'p1', notifyBad: true }),
    );
  });

  it('"Check for new reports now" runs the quick refresh and says what it found; failures are shown', async () => {
    let state: OfflineState = {
      ...STATE,
      keepOffline: true,
      lastQuickRefreshAt: ago(2),
      lastFullSyncAt: ago(300),
    };
    const bridge = installFakeBridge({
      'connectivity:status': () => ONLINE,
      'offline:get': () => state,
      'cache:sync': () => ({ mode: 'quick', added: 3, changed: 0 }) as SyncSummary,
    });
    renderWithApp(<KeepOfflineSettings profileId="p1" />);
    expect(
      await screen.findByText('New reports checked 2 minutes ago · everything checked 5 hours ago'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Check for new reports now' }));
    await waitFor(() => expect(announced()).toMatch(/^Checked for new reports: 3 new reports\./));
    expect(bridge.callsTo('cache:sync')).toEqual([{ quick: true }]);

    // The core says a run started: the status follows the event.
    bridge.emit('offline:changed', { ...state, running: 'quick' });
    expect(await screen.findByText('Checking for new reports…')).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Check for new reports now' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    state = {
      ...state,
      waitingForPower: true,
      lastError: appError('network'),
    };
    bridge.emit('offline:changed', state);
    expect(await screen.findByText(/Today’s full read waits for mains power/)).toBeTruthy();
    expect(screen.getByText('The last automatic check did not work.')).toBeTruthy();
  });

  it('an error reading the state is shown with a way to try again', async () => {
    installFakeBridge({
      'connectivity:status': () => ONLINE,
      'offline:get': () => failWith(appError('profile.not_found')),
    });
    renderWithApp(<KeepOfflineSettings profileId="p1" />);
    expect(await screen.findByText('That profile no longer exists.')).toBeTruthy();
  });
});

describe('Changes since …', () => {
  it('says nothing before the first full sync of a profile that keeps nothing offline', async () => {
    const bridge = installFakeBridge({
      'offline:get': () => STATE,
      'changes:summary': () => ({ ...SUMMARY, since: null, counts: EMPTY_COUNTS, items: [] }),
    });
    renderWithApp(<ChangesPanel profileId="p1" />);
    await waitFor(() => expect(bridge.callsTo('changes:summary')).toHaveLength(1));
    await waitFor(() => expect(bridge.callsTo('offline:get')).toHaveLength(1));
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('counts per report, "Show changed reports" lists them with what changed, "Mark all as seen" empties it', async () => {
    let summary = SUMMARY;
    const bridge = installFakeBridge({
      'offline:get': () => ({
        ...STATE,
        keepOffline: true,
        lastQuickRefreshAt: ago(2),
        lastFullSyncAt: ago(300),
      }),
      'changes:summary': () => summary,
      'changes:markSeen': () =>
        (summary = { ...SUMMARY, since: new Date().toISOString(), counts: EMPTY_COUNTS, items: [] }),
    });
    renderWithApp(<ChangesPanel profileId="p1" />);
    const panel = await screen.findByRole('region', { name: /^Changes since / });
    expect(
      within(panel).getByText('2 new, 1 of them bad · 1 changed, 1 turned bad · 1 removed'),
    ).toBeTruthy();
    expect(
      within(panel).getByText('New reports checked 2 minutes ago · everything checked 5 hours ago'),
    ).toBeTruthy();

    const show = within(panel).getByRole('button', { name: 'Show changed reports' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(show);
    const table = within(panel).getByRole('table', { name: 'Changed reports' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'New (bad)31https://new.example/Bad—',
      'Changed (bad)7https://seven.example/BadResult good → bad; privacy Public → Private',
      'Removed3https://gone.example/——',
    ]);
    expect(within(rows[0]).getByRole('link', { name: '31' }).getAttribute('href')).toBe('#/reports/31');
    expect(
      within(panel).getByRole('button', { name: 'Hide changed reports' }).getAttribute('aria-expanded'),
    ).toBe('true');

    fireEvent.click(within(panel).getByRole('button', { name: 'Mark all as seen' }));
    expect(await within(panel).findByText('Nothing new.')).toBeTruthy();
    expect(bridge.callsTo('changes:markSeen')).toEqual([undefined]);
    expect(announced()).toMatch(/^All changes are marked as seen\./);
    expect(within(panel).queryByRole('table')).toBeNull();
  });

  it('a refresh that found something is asked for again and announced once', async () => {
    let summary: ChangesSummary = { ...SUMMARY, counts: EMPTY_COUNTS, items: [] };
    const bridge = installFakeBridge({
      'offline:get': () => ({ ...STATE, keepOffline: true }),
      'changes:summary': () => summary,
    });
    renderWithApp(<ChangesPanel profileId="p1" />);
    expect(await screen.findByText('Nothing new.')).toBeTruthy();
    summary = SUMMARY;
    bridge.emit('offline:refreshed', {
      profileId: 'other',
      profileName: 'Other',
      notifyBad: false,
      summary: { added: 2 } as SyncSummary,
    });
    bridge.emit('offline:refreshed', {
      profileId: 'p1',
      profileName: 'Work',
      notifyBad: false,
      summary: { added: 2, changed: 1, removed: 1 } as SyncSummary,
    });
    expect(
      await screen.findByText('2 new, 1 of them bad · 1 changed, 1 turned bad · 1 removed'),
    ).toBeTruthy();
    expect(bridge.callsTo('changes:summary')).toHaveLength(2);
    expect(announced()).toMatch(/^Changes: 2 new, 1 of them bad/);
  });

  it('the switch beside it turns Keep available offline off for this profile', async () => {
    const bridge = installFakeBridge({
      'offline:get': () => ({ ...STATE, keepOffline: true }),
      'offline:set': (input) => ({ ...STATE, ...input }),
      'changes:summary': () => ({ ...SUMMARY, counts: EMPTY_COUNTS, items: [] }),
    });
    renderWithApp(<ChangesPanel profileId="p1" />);
    const keep = await screen.findByRole('checkbox', { name: 'Keep available offline' });
    fireEvent.click(keep);
    await waitFor(() =>
      expect(bridge.callsTo('offline:set')).toEqual([{ profileId: 'p1', keepOffline: false }]),
    );
    expect(announced()).toMatch(/^Keep available offline is off\./);
  });
});

describe('the list marks new rows', () => {
  it('rows with unseen "added" changes carry a New mark, asked for with the page’s ids', async () => {
    const page: ReportPageResult = {
      reports: [
        { id: '31', url: 'https://new.example/', result: 'bad' },
        { id: '30', url: 'https://old.example/', result: 'good' },
      ],
      page: 1,
      perPage: 10,
      total: 2,
      lastPage: 1,
      source: 'network',
      fetchedAt: new Date().toISOString(),
    };
    const bridge = installFakeBridge({
      'connectivity:status': () => ONLINE,
      'cache:projects': () => [],
      'cache:overview': () => null,
      'reports:list': () => page,
      'offline:get': () => STATE,
      'changes:summary': () => ({ ...SUMMARY, since: null, counts: EMPTY_COUNTS, items: [] }),
      'changes:marks': ({ ids }) => ({ newIds: ids.filter((id) => id === '31') }),
    });
    renderWithApp(<ReportsList profileId="p1" />);
    await waitFor(() => expect(screen.getAllByText('New')).toHaveLength(1));
    const row = screen.getByText('https://new.example/').closest('tr')!;
    expect(within(row).getByText('New')).toBeTruthy();
    expect(bridge.callsTo('changes:marks')).toEqual([{ ids: ['31', '30'] }]);
  });
});
