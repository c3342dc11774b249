import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReportPageResult } from '../../shared/contract';
import type { ListQuery, Report } from '../../shared/model';
import { saveListState, DEFAULT_LIST_STATE } from '../../renderer/src/lib/listState';
import { ReportsList } from '../../renderer/src/screens/ReportsList';
import { ONLINE, failWith, installFakeBridge, renderWithApp } from './helpers';

const RESULTS = ['good', 'decent', 'bad'] as const;
const ALL: Report[] = Array.from({ length: 30 }, (_, i) => ({
  id: String(i + 1),
  url: `https://site${i + 1}.example.com/`,
  result: RESULTS[i % 3],
  privacy: (i % 3) as 0 | 1 | 2,
  generated_at: '2025-02-01T12:00:00Z',
  project: i % 2 === 0 ? 'shop' : 'blog',
}));

/** A tiny service: filters by result/search, pages, and says the total unless told not to. */
function listReports(query: ListQuery, withTotal = true): ReportPageResult {
  const matching = ALL.filter(
    (r) => (!query.result || r.result === query.result) && (!query.search || r.url.includes(query.search)),
  );
  const perPage = query.per_page ?? 10;
  const page = query.page ?? 1;
  return {
    reports: matching.slice((page - 1) * perPage, page * perPage),
    page,
    perPage,
    total: withTotal ? matching.length : null,
    lastPage: withTotal ? Math.max(1, Math.ceil(matching.length / perPage)) : null,
    source: 'network',
    fetchedAt: new Date().toISOString(),
  };
}

function fakeService(withTotal = true) {
  return installFakeBridge({
    'connectivity:status': () => ONLINE,
    'cache:projects': () => ['blog', 'shop'],
    'reports:list': (q) => listReports((q ?? {}) as ListQuery, withTotal),
  });
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});
beforeEach(() => {
  window.location.hash = '#/reports';
});

const rows = () => screen.getAllByRole('row').slice(1);

describe('Reports list', () => {
  it('asks for the defaults without sending them, and shows readable badges and local dates', async () => {
    const bridge = fakeService();
    renderWithApp(<ReportsList profileId="p1" />);
    await screen.findByText('https://site1.example.com/');
    expect(bridge.callsTo('reports:list')[0]).toEqual({});
    const first = rows()[0];
    expect(within(first).getByText('Good')).toBeTruthy();
    expect(within(first).getByText('Public')).toBeTruthy();
    const time = first.querySelector('time');
    expect(time?.getAttribute('title')).toMatch(/2025/);
    expect(screen.getByText('Showing 1–10 of 30')).toBeTruthy();
    // Project suggestions come from the cache.
    await waitFor(() => expect(document.querySelectorAll('#project-suggestions option')).toHaveLength(2));
  });

  it('restores the saved choices of this profile and goes back to page 1 when a filter changes', async () => {
    saveListState('p1', { ...DEFAULT_LIST_STATE, result: 'bad', page: 2, sortBy: 'url', sort: 'asc' });
    const bridge = fakeService();
    renderWithApp(<ReportsList profileId="p1" />);
    await waitFor(() => expect(bridge.callsTo('reports:list')).toHaveLength(1));
    expect(bridge.callsTo('reports:list')[0]).toEqual({
      result: 'bad',
      page: 2,
      sort_by: 'url',
      sort: 'asc',
    });
    expect((screen.getByLabelText('Result') as HTMLSelectElement).value).toBe('bad');

    fireEvent.change(screen.getByLabelText('Per page'), { target: { value: '25' } });
    await waitFor(() =>
      expect(bridge.callsTo('reports:list').at(-1)).toEqual({
        result: 'bad',
        sort_by: 'url',
        sort: 'asc',
        per_page: 25,
      }),
    );
    expect(JSON.parse(localStorage.getItem('reportdesk.list.p1')!)).toMatchObject({ perPage: 25, page: 1 });
  });

  it('searches only once the user pauses typing', async () => {
    const bridge = fakeService();
    renderWithApp(<ReportsList profileId="p1" />);
    await screen.findByText('https://site1.example.com/');
    const search = screen.getByLabelText('Search URL');
    fireEvent.change(search, { target: { value: 'site2' } });
    fireEvent.change(search, { target: { value: 'site25' } });
    await waitFor(() => expect(bridge.callsTo('reports:list').at(-1)).toEqual({ search: 'site25' }));
    expect(bridge.callsTo('reports:list')).not.toContainEqual({ search: 'site2' });
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('says which filters hide everything, and clears them', async () => {
    saveListState('p1', { ...DEFAULT_LIST_STATE, search: 'nothing-matches', result: 'good' });
    const bridge = fakeService();
    renderWithApp(<ReportsList profileId="p1" />);
    const empty = await screen.findByText(/No reports match/);
    expect(empty.textContent).toContain('URL contains “nothing-matches”');
    expect(empty.textContent).toContain('result is good');
    // A sentence's list in every language (“… and …”), never units glued together.
    expect(empty.textContent).toMatch(
      /URL contains “nothing-matches” and result is good|result is good and URL contains “nothing-matches”/,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await screen.findByText('https://site1.example.com/');
    expect(bridge.callsTo('reports:list').at(-1)).toEqual({});
    expect((screen.getByLabelText('Search URL') as HTMLInputElement).value).toBe('');
  });

  it('shows an error with Retry, and the list once a retry works', async () => {
    let failures = 1;
    installFakeBridge({
      'connectivity:status': () => ONLINE,
      'cache:projects': () => [],
      'reports:list': (q) =>
        failures-- > 0 ? failWith({ kind: 'timeout' }) : listReports((q ?? {}) as ListQuery),
    });
    renderWithApp(<ReportsList profileId="p1" />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('did not answer in time');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByText('https://site1.example.com/');
  });

  it('offers page numbers when the total is known', async () => {
    const bridge = fakeService();
    renderWithApp(<ReportsList profileId="p1" />);
    await screen.findByText('https://site1.example.com/');
    expect(screen.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await screen.findByText('https://site21.example.com/');
    expect(bridge.callsTo('reports:list').at(-1)).toEqual({ page: 3 });
    expect((screen.getByRole('button', { name: /Next/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers only previous and next when the service gives no total', async () => {
    const bridge = fakeService(false);
    renderWithApp(<ReportsList profileId="p1" />);
    await screen.findByText('https://site1.example.com/');
    expect(screen.queryByRole('button', { name: 'Page 1' })).toBeNull();
    expect(screen.getByText('Showing 1–10')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Previous/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    await screen.findByText('https://site11.example.com/');
    expect(bridge.callsTo('reports:list').at(-1)).toEqual({ page: 2 });
  });

  it('sorts from the column headers, toggling the direction', async () => {
    const bridge = fakeService();
    renderWithApp(<ReportsList profileId="p1" />);
    await screen.findByText('https://site1.example.com/');
    fireEvent.click(screen.getByRole('button', { name: /^Result/ }));
    await waitFor(() => expect(bridge.callsTo('reports:list').at(-1)).toEqual({ sort_by: 'result' }));
    fireEvent.click(screen.getByRole('button', { name: /^Result/ }));
    await waitFor(() =>
      expect(bridge.callsTo('reports:list').at(-1)).toEqual({ sort_by: 'result', sort: 'asc' }),
    );
    expect(screen.getByRole('columnheader', { name: /Result/ }).getAttribute('aria-sort')).toBe('ascending');
  });
});
