import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReportPageResult } from '../../shared/contract';
import type { ListQuery, Report } from '../../shared/model';
import {
  EMPTY_ROW_SELECTION,
  moveFocus,
  rowKeyAction,
  selectPage,
  toggleRow,
} from '../../renderer/src/lib/rowSelection';
import { ReportsList } from '../../renderer/src/screens/ReportsList';
import { ONLINE, installFakeBridge, renderWithApp } from './helpers';

const IDS = ['a', 'b', 'c', 'd', 'e'];

describe('row selection rules', () => {
  it('maps the list keys and leaves modified keys alone', () => {
    expect(rowKeyAction({ key: 'j' })).toBe('next');
    expect(rowKeyAction({ key: 'ArrowDown' })).toBe('next');
    expect(rowKeyAction({ key: 'k' })).toBe('previous');
    expect(rowKeyAction({ key: 'ArrowUp' })).toBe('previous');
    expect(rowKeyAction({ key: ' ' })).toBe('toggle');
    expect(rowKeyAction({ key: ' ', shiftKey: true })).toBe('toggle-range');
    expect(rowKeyAction({ key: 'Enter' })).toBe('open');
    expect(rowKeyAction({ key: 'j', ctrlKey: true })).toBeNull();
    expect(rowKeyAction({ key: 'x' })).toBeNull();
  });

  it('turns to the page drawn on the side of the arrow: → is the next page left to right, ← right to left', () => {
    expect(rowKeyAction({ key: 'ArrowRight' })).toBe('next-page');
    expect(rowKeyAction({ key: 'ArrowLeft' })).toBe('previous-page');
    expect(rowKeyAction({ key: 'ArrowRight' }, 'ltr')).toBe('next-page');
    expect(rowKeyAction({ key: 'ArrowLeft' }, 'rtl')).toBe('next-page');
    expect(rowKeyAction({ key: 'ArrowRight' }, 'rtl')).toBe('previous-page');
    // With a modifier, the arrows are the browser's (text selection, history).
    expect(rowKeyAction({ key: 'ArrowRight', shiftKey: true })).toBeNull();
    expect(rowKeyAction({ key: 'ArrowLeft', altKey: true }, 'rtl')).toBeNull();
  });

  it('moves the focus within the page, starting at the top', () => {
    let state = moveFocus(EMPTY_ROW_SELECTION, 5, 1);
    expect(state.focus).toBe(0);
    state = moveFocus(state, 5, 1);
    state = moveFocus(state, 5, 10);
    expect(state.focus).toBe(4);
    state = moveFocus(state, 5, -10);
    expect(state.focus).toBe(0);
    expect(moveFocus(state, 0, 1).focus).toBe(-1);
  });

  it('extends a range from the anchor to the new state of the clicked row', () => {
    let state = toggleRow(EMPTY_ROW_SELECTION, IDS, 'b');
    state = toggleRow(state, IDS, 'd', true);
    expect([...state.selected].sort()).toEqual(['b', 'c', 'd']);
    expect(state.anchor).toBe('b');
    expect(state.focus).toBe(3);
    // Shift-click on a selected row clears the range back to the anchor.
    state = toggleRow(state, IDS, 'c', true);
    expect([...state.selected]).toEqual(['d']);
    // Ids not on the page change nothing.
    expect(toggleRow(state, IDS, 'zz')).toBe(state);
  });

  it('selects and clears a page', () => {
    const all = selectPage(EMPTY_ROW_SELECTION, IDS, true);
    expect([...all.selected]).toEqual(IDS);
    expect(selectPage(all, IDS, false).selected.size).toBe(0);
  });
});

const ALL: Report[] = Array.from({ length: 25 }, (_, i) => ({
  id: String(i + 1),
  url: `https://site${i + 1}.example.com/`,
  result: 'good',
  privacy: 0,
  generated_at: '2025-02-01T12:00:00Z',
  project: null,
}));

function fakeService() {
  return installFakeBridge({
    'connectivity:status': () => ONLINE,
    'cache:projects': () => [],
    'reports:list': (q): ReportPageResult => {
      const query = (q ?? {}) as ListQuery;
      const page = query.page ?? 1;
      const matching = ALL.filter((r) => !query.search || r.url.includes(query.search));
      return {
        reports: matching.slice((page - 1) * 10, page * 10),
        page,
        perPage: 10,
        total: matching.length,
        lastPage: Math.max(1, Math.ceil(matching.length / 10)),
        source: 'network',
        fetchedAt: new Date().toISOString(),
      };
    },
  });
}

const rows = () => screen.getAllByRole('row').slice(1);
const checkbox = (id: string) =>
  screen.getByRole('checkbox', { name: `Select report ${id}` }) as HTMLInputElement;

afterEach(() => {
  cleanup();
  localStorage.clear();
});
beforeEach(() => {
  window.location.hash = '#/reports';
});

describe('Reports list row focus and selection', () => {
  it('moves a visible row focus with j/k and the arrows, opens with Enter', async () => {
    fakeService();
    renderWithApp(<ReportsList profileId="p1" />);
    await screen.findByText('https://site1.example.com/');
    // From the screen (not a field), j brings the focus to the first row.
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(document.activeElement).toBe(rows()[0]);
    expect(rows()[0].className).toContain('row-focus');
    expect(rows()[0].getAttribute('tabindex')).toBe('0');
    fireEvent.keyDown(document.activeElement!, { key: 'j' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rows()[2]);
    fireEvent.keyDown(document.activeElement!, { key: 'k' });
    expect(document.activeElement).toBe(rows()[1]);
    expect(rows()[1].className).toContain('row-focus');
    expect(rows()[2].className).not.toContain('row-focus');
    // Only the focused row is a Tab stop.
    expect(rows().filter((row) => row.getAttribute('tabindex') === '0')).toEqual([rows()[1]]);
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement).toBe(rows()[9]);
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(window.location.hash).toBe('#/reports/10');
  });

  it('turns the page with the arrows from a row or the screen, not from a field, and not past the ends', async () => {
    fakeService();
    renderWithApp(<ReportsList profileId="p1" />);
    await screen.findByText('https://site1.example.com/');
    // On the first page there is nothing before it: the key keeps its own job.
    expect(fireEvent.keyDown(document.body, { key: 'ArrowLeft' })).toBe(true);
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' })).toBe(false);
    await screen.findByText('https://site11.example.com/');
    expect(screen.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    await screen.findByText('https://site21.example.com/');
    // The last page: no page after it.
    expect(fireEvent.keyDown(document.body, { key: 'ArrowRight' })).toBe(true);
    fireEvent.keyDown(document.body, { key: 'ArrowLeft' });
    await screen.findByText('https://site11.example.com/');
    // In the search box the arrows move the caret.
    const search = screen.getByLabelText('Search URL');
    search.focus();
    expect(fireEvent.keyDown(search, { key: 'ArrowLeft' })).toBe(true);
    expect(screen.getByText('https://site11.example.com/')).toBeTruthy();
  });

  it('leaves j and k to the search box', async () => {
    fakeService();
    renderWithApp(<ReportsList profileId="p1" />);
    await screen.findByText('https://site1.example.com/');
    const search = screen.getByLabelText('Search URL');
    search.focus();
    fireEvent.keyDown(search, { key: 'j' });
    expect(document.activeElement).toBe(search);
    expect(rows()[0].className).not.toContain('row-focus');
  });

  it('selects with Space and Shift+Space, says how many, and clears', async () => {
    fakeService();
    renderWithApp(<ReportsList profileId="p1" />);
    await screen.findByText('https://site1.example.com/');
    fireEvent.keyDown(document.body, { key: 'j' });
    fireEvent.keyDown(document.activeElement!, { key: ' ' });
    expect(checkbox('1').checked).toBe(true);
    expect(rows()[0].className).toContain('row-selected');
    fireEvent.keyDown(document.activeElement!, { key: 'j' });
    fireEvent.keyDown(document.activeElement!, { key: 'j' });
    fireEvent.keyDown(document.activeElement!, { key: ' ', shiftKey: true });
    expect(['1', '2', '3', '4'].map((id) => checkbox(id).checked)).toEqual([true, true, true, false]);
    expect(document.querySelector('.selection-bar [role="status"]')!.textContent).toBe(
      '3 selected on this page',
    );
    fireEvent.keyDown(document.activeElement!, { key: ' ' });
    expect(checkbox('3').checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(['1', '2', '3'].map((id) => checkbox(id).checked)).toEqual([false, false, false]);
  });

  it('selects a range with Shift-click and the page with the header checkbox, without opening a report', async () => {
    fakeService();
    renderWithApp(<ReportsList profileId="p1" />);
    await screen.findByText('https://site1.example.com/');
    fireEvent.click(checkbox('2'));
    fireEvent.click(checkbox('5'), { shiftKey: true });
    expect(window.location.hash).toBe('#/reports');
    expect(['1', '2', '3', '4', '5', '6'].map((id) => checkbox(id).checked)).toEqual([
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
    const pageBox = screen.getByRole('checkbox', {
      name: 'Select all reports on this page',
    }) as HTMLInputElement;
    expect(pageBox.indeterminate).toBe(true);
    expect(pageBox.checked).toBe(false);
    fireEvent.click(pageBox);
    expect(rows().every((row) => within(row).getByRole('checkbox').getAttribute('aria-label'))).toBe(true);
    expect(rows().every((row) => (within(row).getByRole('checkbox') as HTMLInputElement).checked)).toBe(true);
    expect(pageBox.checked).toBe(true);
    expect(pageBox.indeterminate).toBe(false);
    fireEvent.click(pageBox);
    expect(rows().some((row) => (within(row).getByRole('checkbox') as HTMLInputElement).checked)).toBe(false);
  });

  it('names the selected reports as a sentence’s list (“2 and 3”), not glued units', async () => {
    fakeService();
    renderWithApp(<ReportsList profileId="p1" />);
    await screen.findByText('https://site1.example.com/');
    fireEvent.click(checkbox('2'));
    fireEvent.click(checkbox('3'));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete selected…' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete 2 reports?' });
    expect(dialog.textContent).toContain('2 reports will be deleted from the Report Service: 2 and 3.');
  });

  it('clears the selection when the page or the query changes', async () => {
    fakeService();
    renderWithApp(<ReportsList profileId="p1" />);
    await screen.findByText('https://site1.example.com/');
    fireEvent.click(checkbox('1'));
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await screen.findByText('https://site11.example.com/');
    fireEvent.click(screen.getByRole('button', { name: 'Page 1' }));
    await screen.findByText('https://site1.example.com/');
    expect(checkbox('1').checked).toBe(false);

    fireEvent.click(checkbox('1'));
    fireEvent.change(screen.getByLabelText('Search URL'), { target: { value: 'site1' } });
    await waitFor(() => expect(rows()).toHaveLength(10));
    await waitFor(() => expect(screen.queryByText('https://site2.example.com/')).toBeNull());
    expect(checkbox('1').checked).toBe(false);
    expect(screen.queryByRole('button', { name: 'Clear selection' })).toBeNull();
  });
});
