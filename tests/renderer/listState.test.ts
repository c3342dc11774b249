import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_LIST_STATE,
  activeFilters,
  changeListState,
  clearFilters,
  listStateToQuery,
  loadListState,
  pageWindow,
  saveListState,
} from '../../renderer/src/lib/listState';
import { currentWords } from '../../renderer/src/lib/i18n';
import { parsePath, pathOf, restoredPath, rememberPath } from '../../renderer/src/lib/router';

afterEach(() => localStorage.clear());

describe('list state → list query', () => {
  it('drops every parameter at its default', () => {
    expect(listStateToQuery(DEFAULT_LIST_STATE)).toEqual({});
    expect(listStateToQuery({ ...DEFAULT_LIST_STATE, search: '   ', project: ' ' })).toEqual({});
  });

  it('sends every chosen parameter, trimmed', () => {
    const query = listStateToQuery({
      search: ' example.com ',
      result: 'bad',
      project: ' shop ',
      sortBy: 'url',
      sort: 'asc',
      perPage: 50,
      page: 3,
    });
    expect(query).toEqual({
      search: 'example.com',
      result: 'bad',
      project: 'shop',
      sort_by: 'url',
      sort: 'asc',
      per_page: 50,
      page: 3,
    });
  });
});

describe('changing the list state', () => {
  const onPage4 = { ...DEFAULT_LIST_STATE, page: 4 };

  it('goes back to page 1 when a filter, the sort or the page size changes', () => {
    expect(changeListState(onPage4, { result: 'good' }).page).toBe(1);
    expect(changeListState(onPage4, { search: 'x' }).page).toBe(1);
    expect(changeListState(onPage4, { project: 'p' }).page).toBe(1);
    expect(changeListState(onPage4, { sortBy: 'result' }).page).toBe(1);
    expect(changeListState(onPage4, { sort: 'asc' }).page).toBe(1);
    expect(changeListState(onPage4, { perPage: 25 }).page).toBe(1);
  });

  it('keeps the page when only the page changes or a value is set to what it already is', () => {
    expect(changeListState(onPage4, { page: 5 }).page).toBe(5);
    expect(changeListState(onPage4, { sort: 'desc' }).page).toBe(4);
    expect(changeListState(onPage4, { page: 0 }).page).toBe(1);
  });

  it('clears filters but keeps sort and page size', () => {
    const state = {
      ...DEFAULT_LIST_STATE,
      search: 'a',
      result: 'bad' as const,
      project: 'p',
      sortBy: 'url' as const,
      perPage: 25 as const,
      page: 2,
    };
    expect(clearFilters(state)).toEqual({ ...state, search: '', result: null, project: '', page: 1 });
  });

  it('names the filters that hide reports', () => {
    const words = currentWords();
    expect(activeFilters(words, DEFAULT_LIST_STATE)).toEqual([]);
    expect(
      activeFilters(words, { ...DEFAULT_LIST_STATE, search: 'shop', result: 'bad', project: 'x' }),
    ).toEqual(['URL contains “shop”', 'result is bad', 'project is “x”']);
  });
});

describe('saved list state', () => {
  it('is kept per profile', () => {
    const state = {
      ...DEFAULT_LIST_STATE,
      search: 'a',
      result: 'decent' as const,
      perPage: 100 as const,
      page: 2,
    };
    saveListState('p1', state);
    expect(loadListState('p1')).toEqual(state);
    expect(loadListState('p2')).toEqual(DEFAULT_LIST_STATE);
  });

  it('falls back to defaults for tampered or unreadable values', () => {
    localStorage.setItem(
      'reportdesk.list.p1',
      JSON.stringify({
        search: 5,
        result: 'awful',
        sortBy: 'secret',
        sort: 'up',
        perPage: 7,
        page: -2,
        project: 'ok',
      }),
    );
    expect(loadListState('p1')).toEqual({ ...DEFAULT_LIST_STATE, project: 'ok' });
    localStorage.setItem('reportdesk.list.p1', '{not json');
    expect(loadListState('p1')).toEqual(DEFAULT_LIST_STATE);
  });
});

describe('page numbers', () => {
  it('shows the ends, the neighbours and gaps', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 4)).toEqual([1, 2, 3, 4]);
    expect(pageWindow(6, 12)).toEqual([1, null, 5, 6, 7, null, 12]);
    expect(pageWindow(12, 12)).toEqual([1, null, 11, 12]);
  });
});

describe('routes', () => {
  it('parses every screen and round-trips', () => {
    for (const path of [
      '/welcome',
      '/reports',
      '/reports/new',
      '/reports/42',
      '/reports/a-b_1/privacy',
      '/account',
      '/profiles',
      '/settings',
    ]) {
      expect(pathOf(parsePath(path))).toBe(path);
    }
    expect(parsePath('/reports/42')).toEqual({ name: 'report', id: '42' });
    expect(parsePath('/reports/42/privacy')).toEqual({ name: 'privacy', id: '42' });
    expect(parsePath('/reports/../x').name).toBe('not-found');
  });

  it('restores the last route, never an unknown one', () => {
    expect(restoredPath()).toBe('/reports');
    rememberPath('/reports/7');
    expect(restoredPath()).toBe('/reports/7');
    rememberPath('/nowhere');
    expect(restoredPath()).toBe('/reports/7');
  });
});
