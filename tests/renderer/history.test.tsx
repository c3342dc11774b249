/**
 * The History screen and "This URL over time" with the contract faked at the bridge (the real
 * numbers against the CLI's are checked in Chromium: tests/e2e/history.spec.ts): the chart's keys
 * and what they announce, the table view, a period's URLs page by page, Compare and its export,
 * the not-synced state and its "Make available offline", and the shortcut.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  HistoryCompare,
  HistoryPeriod,
  HistoryPeriods,
  HistoryTimeline,
  HistoryUrls,
} from '../../shared/contract';
import { formatInstant, runtimeTimeZone, startOfLocalDay } from '../../shared/calendar';
import { App } from '../../renderer/src/App';
import { UrlTimeline } from '../../renderer/src/components/UrlTimeline';
import { createQueryClient } from '../../renderer/src/lib/queries';
import { HistoryScreen } from '../../renderer/src/screens/History';
import {
  ONLINE,
  PROFILE,
  finishedSync,
  installFakeBridge,
  renderWithApp,
  type FakeHandlers,
} from './helpers';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const zone = runtimeTimeZone();
/** Local midnight of a day, as the core answers instants (with the window's offset). */
const midnight = (year: number, month: number, day: number) =>
  formatInstant(startOfLocalDay({ year, month, day }, zone), zone);
const announced = () => document.querySelector('[data-live-region]')!.textContent ?? '';

const period = (
  start: string,
  end: string,
  urls: [number, number, number],
  generated: [number, number, number],
): HistoryPeriod => ({
  start,
  end,
  urls: { good: urls[0], decent: urls[1], bad: urls[2] },
  generated: { good: generated[0], decent: generated[1], bad: generated[2] },
});

const ANSWER = {
  available: true as const,
  profileId: PROFILE.id,
  lastFullSyncAt: new Date(Date.now() - 2 * 3_600_000).toISOString(),
  timeZone: zone,
};

const WEEKS: HistoryPeriods = {
  ...ANSWER,
  by: 'week',
  project: null,
  since: midnight(2025, 11, 3),
  until: midnight(2025, 11, 24),
  periods: [
    period(midnight(2025, 11, 3), midnight(2025, 11, 10), [120, 30, 12], [10, 3, 1]),
    period(midnight(2025, 11, 10), midnight(2025, 11, 17), [118, 31, 1], [4, 0, 0]),
    period(midnight(2025, 11, 17), midnight(2025, 11, 24), [121, 29, 14], [7, 1, 2]),
  ],
};

function urlsPage(after: string): HistoryUrls {
  const first = after === '';
  return {
    ...ANSWER,
    project: null,
    at: WEEKS.periods[1].end,
    result: null,
    counts: { good: 118, decent: 31, bad: 1 },
    urls: first
      ? [{ url: 'https://a.example.com/', id: '41', result: 'good', generatedAt: '2025-11-12T10:00:00.000Z' }]
      : [{ url: 'https://b.example.com/', id: '57', result: 'bad', generatedAt: '2025-11-13T10:00:00.000Z' }],
    next: first ? 'https://a.example.com/' : null,
  };
}

const COMPARE: HistoryCompare = {
  ...ANSWER,
  project: null,
  from: midnight(2025, 11, 10),
  to: midnight(2025, 11, 24),
  changes: [
    { url: 'https://a.example.com/', before: 'good', after: 'bad', beforeId: '41', afterId: '90' },
    { url: 'https://b.example.com/', before: 'bad', after: 'decent', beforeId: '57', afterId: '91' },
    { url: 'https://c.example.com/', before: null, after: 'good', beforeId: null, afterId: '92' },
  ],
  counts: { new: 1, better: 1, worse: 1 },
};

function renderHistory(handlers: FakeHandlers) {
  const bridge = installFakeBridge({
    'connectivity:status': () => ONLINE,
    'cache:projects': () => ['shop', ''],
    // The sync's end refreshes the active profile's queries.
    'profiles:list': () => ({ profiles: [PROFILE], activeId: PROFILE.id }),
    ...handlers,
  });
  renderWithApp(<HistoryScreen profileId={PROFILE.id} />);
  return bridge;
}

const chart = () => screen.findByRole('group', { name: 'URLs by result at the end of each period' });

describe('History chart', () => {
  it('moves between periods with the arrows, Home and End, announcing each in words', async () => {
    const bridge = renderHistory({ 'history:periods': () => WEEKS });
    const figure = await chart();
    // The latest period is chosen first, written out under the chart.
    expect(
      screen.getByText('Week of Nov 17, 2025: 121 good, 29 decent, 14 bad; 10 reports generated'),
    ).toBeTruthy();
    figure.focus();
    fireEvent.keyDown(figure, { key: 'Home' });
    expect(announced()).toBe('Week of Nov 3, 2025: 120 good, 30 decent, 12 bad; 14 reports generated');
    fireEvent.keyDown(figure, { key: 'ArrowRight' });
    expect(announced()).toBe('Week of Nov 10, 2025: 118 good, 31 decent, 1 bad; 4 reports generated');
    fireEvent.keyDown(figure, { key: 'ArrowLeft' });
    expect(announced()).toMatch(/^Week of Nov 3, 2025:/);
    // At the first period ← stays there, and says so again.
    fireEvent.keyDown(figure, { key: 'ArrowLeft' });
    expect(announced()).toMatch(/^Week of Nov 3, 2025:/);
    fireEvent.keyDown(figure, { key: 'End' });
    expect(announced()).toMatch(/^Week of Nov 17, 2025: 121 good/);
    // The column drawn for the chosen period is outlined, not only coloured.
    const columns = figure.querySelectorAll('.history-columns:not(.history-generated-row) .history-column');
    expect([...columns].map((c) => c.classList.contains('selected'))).toEqual([false, false, true]);
    // Without a kind chosen the core picks it, and the choice says which.
    expect(bridge.callsTo('history:periods')[0]).toEqual({ project: null, timeZone: zone });
    expect(screen.getByRole('option', { name: 'Automatic (weeks)' })).toBeTruthy();
  });

  it('a legend names each result beside its pattern', async () => {
    renderHistory({ 'history:periods': () => WEEKS });
    await chart();
    const legend = screen.getByRole('list', { name: 'Legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => [li.textContent, li.querySelector('.history-swatch')?.className]),
    ).toEqual([
      ['Bad', 'history-swatch history-bad'],
      ['Decent', 'history-swatch history-decent'],
      ['Good', 'history-swatch history-good'],
      ['Reports generated', 'history-swatch history-generated'],
    ]);
  });

  it('Enter opens the URLs as they stood at the period’s end, a page at a time, each leading to its report', async () => {
    const bridge = renderHistory({
      'history:periods': () => WEEKS,
      'history:urls': (input) => urlsPage(input.after ?? ''),
    });
    const figure = await chart();
    fireEvent.keyDown(figure, { key: 'ArrowLeft' });
    fireEvent.keyDown(figure, { key: 'Enter' });
    const panel = await screen.findByRole('region', { name: 'URLs at the end of Week of Nov 10, 2025' });
    await within(panel).findByText('https://a.example.com/');
    expect(bridge.callsTo('history:urls')[0]).toMatchObject({
      at: WEEKS.periods[1].end,
      after: '',
      result: null,
    });
    expect(within(panel).getByRole('link', { name: 'Report 41' }).getAttribute('href')).toBe('#/reports/41');
    expect(within(panel).getByText('118 good, 31 decent, 1 bad')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Show more (1 shown)' }));
    await within(panel).findByText('https://b.example.com/');
    expect(bridge.callsTo('history:urls')[1]).toMatchObject({ after: 'https://a.example.com/' });
    // The last page: no more to ask for.
    expect(within(panel).queryByRole('button', { name: /Show more/ })).toBeNull();
  });

  it('the table view holds the same numbers, in a table with a caption and headers', async () => {
    renderHistory({ 'history:periods': () => WEEKS });
    await chart();
    fireEvent.click(screen.getByRole('button', { name: 'Table' }));
    const table = screen.getByRole('table', {
      name: 'URLs by result at the end of each week, and reports generated',
    });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Period', 'Good', 'Decent', 'Bad', 'Reports generated', 'Actions']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [
        within(row).getByRole('rowheader').textContent,
        ...within(row)
          .getAllByRole('cell')
          .slice(0, 4)
          .map((td) => Number(td.textContent)),
      ]);
    expect(rows).toEqual(
      WEEKS.periods.map((p, i) => [
        `Week of Nov ${[3, 10, 17][i]}, 2025`,
        p.urls.good,
        p.urls.decent,
        p.urls.bad,
        p.generated.good + p.generated.decent + p.generated.bad,
      ]),
    );
    // The choice is kept for the next visit.
    expect(localStorage.getItem('reportdesk:history-view')).toBe('table');
  });

  it('asks again with the filters chosen: a project, a range of local days, a kind', async () => {
    const bridge = renderHistory({ 'history:periods': () => WEEKS });
    await chart();
    await screen.findByRole('option', { name: 'shop' });
    expect(screen.getByRole('option', { name: 'No project' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Project'), { target: { value: 'project:shop' } });
    fireEvent.change(screen.getByLabelText('Since'), { target: { value: '2025-11-03' } });
    fireEvent.change(screen.getByLabelText('Until'), { target: { value: '2025-11-24' } });
    fireEvent.change(screen.getByLabelText('Periods'), { target: { value: 'day' } });
    await waitFor(() =>
      expect(bridge.callsTo('history:periods').at(-1)).toEqual({
        project: 'shop',
        by: 'day',
        since: midnight(2025, 11, 3),
        until: midnight(2025, 11, 24),
        timeZone: zone,
      }),
    );
    fireEvent.change(screen.getByLabelText('Project'), { target: { value: 'project:' } });
    await waitFor(() => expect(bridge.callsTo('history:periods').at(-1)).toMatchObject({ project: '' }));
  });
});

describe('Compare', () => {
  it('compares two dates, groups the URLs by how they moved, links both reports, and exports', async () => {
    const saved: unknown[] = [];
    const bridge = renderHistory({
      'history:periods': () => WEEKS,
      'history:compare': () => COMPARE,
      'history:export': (input) => ({
        format: input.format,
        content: 'url,before,after\n',
        fileName: 'history-compare.csv',
        count: 3,
        pages: 1,
        saveBy: 'dialog',
        source: 'cache',
        fetchedAt: ANSWER.lastFullSyncAt,
      }),
      'export:save': (input) => {
        saved.push(input);
        return { saved: true, path: '/home/ann/history-compare.csv', download: false };
      },
    });
    const figure = await chart();
    // Two periods from the chart: the second's end, then the last's.
    fireEvent.keyDown(figure, { key: 'ArrowLeft' });
    fireEvent.click(screen.getByRole('button', { name: 'Compare from this period' }));
    fireEvent.keyDown(figure, { key: 'End' });
    fireEvent.click(screen.getByRole('button', { name: 'Compare to this period' }));
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2025-11-17');
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe('2025-11-24');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-11-10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Compare' }));
    await screen.findByText('3 URLs have a different result: 1 got worse, 1 got better, 1 new.');
    expect(bridge.callsTo('history:compare')[0]).toEqual({
      from: midnight(2025, 11, 10),
      to: midnight(2025, 11, 24),
      project: null,
      timeZone: zone,
    });
    const region = screen.getByRole('region', { name: 'Compare two dates' });
    const table = within(region).getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    fireEvent.click(within(region).getByRole('button', { name: 'Got worse (1)' }));
    const worse = within(region).getAllByRole('row').slice(1);
    expect(worse.map((row) => row.textContent)).toEqual([
      'https://a.example.com/Got worseGood Report 41Bad Report 90',
    ]);
    expect(within(worse[0]).getByRole('link', { name: 'Report 90' }).getAttribute('href')).toBe(
      '#/reports/90',
    );
    fireEvent.click(within(region).getByRole('button', { name: 'New (1)' }));
    expect(within(region).getByText('https://c.example.com/')).toBeTruthy();
    expect(within(region).getByText('No result')).toBeTruthy();

    fireEvent.click(within(region).getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(bridge.callsTo('history:export')[0]).toEqual({
      kind: 'compare',
      format: 'csv',
      from: COMPARE.from,
      to: COMPARE.to,
      project: null,
      timeZone: zone,
    });
    expect(saved[0]).toEqual({
      fileName: 'history-compare.csv',
      format: 'csv',
      content: 'url,before,after\n',
    });
  });

  it('refuses dates in the wrong order before asking', async () => {
    const bridge = renderHistory({ 'history:periods': () => WEEKS });
    await chart();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-11-24' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-11-10' } });
    expect(screen.getByRole('alert').textContent).toBe('The first date must not be after the second.');
    expect((screen.getByRole('button', { name: 'Compare' }) as HTMLButtonElement).disabled).toBe(true);
    expect(bridge.callsTo('history:compare')).toHaveLength(0);
  });
});

describe('History before the profile is available offline', () => {
  it('says so, and Make available offline syncs; its end brings the chart', async () => {
    let synced = false;
    const summary = finishedSync({ keepOfflineTurnedOn: true });
    const bridge = renderHistory({
      'history:periods': () => (synced ? WEEKS : { available: false, reason: 'not_synced' }),
      'cache:sync': () => {
        synced = true;
        return summary;
      },
    });
    expect(await screen.findByText(/this profile is not available offline yet/)).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'URLs by result at the end of each period' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Export CSV' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Make available offline' }));
    await chart();
    expect(bridge.callsTo('cache:sync')).toEqual([{ turnOnKeepOffline: true }]);
    expect(screen.queryByText(/not available offline yet/)).toBeNull();
  });
});

describe('This URL over time', () => {
  const TIMELINE: HistoryTimeline = {
    ...ANSWER,
    url: 'https://a.example.com/',
    reports: [
      { id: '12', generatedAt: '2025-03-04T10:20:30.000Z', result: 'good', privacy: 0, project: 'shop' },
      { id: '30', generatedAt: '2025-04-01T10:00:00.000Z', result: 'good', privacy: 0, project: 'shop' },
      { id: '57', generatedAt: '2025-05-01T08:00:00.000Z', result: 'bad', privacy: 1, project: 'shop' },
    ],
    transitions: [{ id: '57', generatedAt: '2025-05-01T08:00:00.000Z', from: 'good', to: 'bad' }],
    changes: [
      {
        id: '57',
        kind: 'changed',
        at: '2025-05-02T08:00:00.000Z',
        fields: { privacy: { before: 0, after: 1 } },
      },
      { id: '9', kind: 'removed', at: '2025-04-20T08:00:00.000Z', fields: {} },
    ],
    skipped: 1,
  };

  it('lists every report oldest first, marks in words where the result changed, and the change log', async () => {
    const bridge = installFakeBridge({
      'connectivity:status': () => ONLINE,
      'history:timeline': () => TIMELINE,
    });
    renderWithApp(<UrlTimeline profileId={PROFILE.id} url="https://a.example.com/" reportId="30" />);
    const region = await screen.findByRole('region', { name: 'This URL over time' });
    await within(region).findByText(/3 reports of this URL, the result changed once\./);
    expect(within(region).getByText(/1 report is left out/)).toBeTruthy();
    expect(bridge.callsTo('history:timeline')).toEqual([{ url: 'https://a.example.com/' }]);
    const items = within(region).getAllByRole('listitem').slice(0, 3);
    expect(items.map((li) => li.querySelector('a')?.getAttribute('href') ?? null)).toEqual([
      '#/reports/12',
      null,
      '#/reports/57',
    ]);
    expect(items[1].textContent).toContain('Report 30 (this one)');
    expect(items.map((li) => li.querySelector('.url-timeline-change')?.textContent ?? null)).toEqual([
      null,
      null,
      'Changed: Good → Bad',
    ]);
    const log = within(region).getAllByRole('listitem').slice(3);
    expect(log.map((li) => li.textContent)).toEqual([
      expect.stringMatching(/ Changed Report 57: Privacy Public → Private$/),
      expect.stringMatching(/ Removed Report 9$/),
    ]);
  });

  it('before the profile is available offline, says so instead of a partial list', async () => {
    installFakeBridge({
      'connectivity:status': () => ONLINE,
      'history:timeline': () => ({ available: false, reason: 'not_synced' }),
    });
    renderWithApp(<UrlTimeline profileId={PROFILE.id} url="https://a.example.com/" reportId="30" />);
    expect(await screen.findByText(/not available offline yet/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Make available offline' })).toBeTruthy();
  });
});

describe('The History shortcut', () => {
  beforeEach(() => {
    window.location.hash = '#/account';
  });

  /** The app on the Account screen, the contract faked; answers the fake bridge. */
  async function onAccount() {
    const bridge = installFakeBridge({
      'profiles:list': () => ({ profiles: [PROFILE], activeId: PROFILE.id }),
      'connectivity:status': () => ONLINE,
      'cache:projects': () => [],
      'account:get': () => ({
        account: { name: 'Ann' },
        source: 'network',
        fetchedAt: new Date().toISOString(),
      }),
      'history:periods': () => WEEKS,
    });
    render(<App client={createQueryClient()} />);
    await screen.findByRole('heading', { name: 'Account' });
    return bridge;
  }

  it('Ctrl+Shift+H opens History from any screen, and the sidebar marks it', async () => {
    await onAccount();
    act(() => {
      fireEvent.keyDown(window, { key: 'H', ctrlKey: true, shiftKey: true });
    });
    await screen.findByRole('heading', { level: 1, name: 'History' });
    expect(window.location.hash).toBe('#/history');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'History' }).getAttribute('aria-current')).toBe('page');
    await chart();
  });

  it('View › History in the application menu opens it too (the menu takes Ctrl+Shift+H first in the app)', async () => {
    const bridge = await onAccount();
    act(() => bridge.emit('app:command', { command: 'show-history' }));
    await screen.findByRole('heading', { level: 1, name: 'History' });
    expect(window.location.hash).toBe('#/history');
  });
});
