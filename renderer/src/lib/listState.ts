/**
 * The reports list's choices (search, filters, sort, page size, page) and how they map to the
 * list query. Kept per profile in localStorage so they survive opening a report and restarts;
 * they hold no secrets.
 */
import {
  LIST_DEFAULTS,
  MAX_PROJECT_LENGTH,
  MAX_SEARCH_LENGTH,
  PER_PAGE_VALUES,
  REPORT_RESULTS,
  SORT_BY_VALUES,
  SORT_VALUES,
  type ListQuery,
  type PerPage,
  type ReportResult,
  type SortBy,
  type SortDirection,
} from '../../../shared/model';
import type { RendererMessageId, Words } from '../../../shared/i18n/messages';

export interface ListState {
  search: string;
  result: ReportResult | null;
  project: string;
  sortBy: SortBy;
  sort: SortDirection;
  perPage: PerPage;
  page: number;
}

export const DEFAULT_LIST_STATE: ListState = {
  search: '',
  result: null,
  project: '',
  sortBy: LIST_DEFAULTS.sort_by,
  sort: LIST_DEFAULTS.sort,
  perPage: LIST_DEFAULTS.per_page,
  page: LIST_DEFAULTS.page,
};

/** The list query for a state, with every parameter at its default left out. */
export function listStateToQuery(state: ListState): ListQuery {
  const query: ListQuery = {};
  const search = state.search.trim();
  const project = state.project.trim();
  if (search !== '') query.search = search;
  if (project !== '') query.project = project;
  if (state.result !== null) query.result = state.result;
  if (state.sortBy !== LIST_DEFAULTS.sort_by) query.sort_by = state.sortBy;
  if (state.sort !== LIST_DEFAULTS.sort) query.sort = state.sort;
  if (state.perPage !== LIST_DEFAULTS.per_page) query.per_page = state.perPage;
  if (state.page !== LIST_DEFAULTS.page) query.page = state.page;
  return query;
}

/**
 * Applies a change. Anything but the page itself changes which reports match or how many fit
 * on a page, so the page goes back to 1 — otherwise the user lands on an empty page 7.
 */
export function changeListState(state: ListState, change: Partial<ListState>): ListState {
  const next = { ...state, ...change };
  const onlyPage = Object.keys(change).every((key) => key === 'page');
  if (!onlyPage) {
    const changed = (Object.keys(change) as (keyof ListState)[]).some(
      (key) => key !== 'page' && change[key] !== state[key],
    );
    if (changed) next.page = 1;
  }
  next.page = Math.max(1, Math.floor(next.page));
  return next;
}

/** Clears what hides reports (search, result, project); keeps sort and page size. */
export function clearFilters(state: ListState): ListState {
  return { ...state, search: '', result: null, project: '', page: 1 };
}

/** Words naming each filter that narrows the list, for the empty state. */
export function activeFilters(words: Words<RendererMessageId>, state: ListState): string[] {
  const filters: string[] = [];
  if (state.search.trim() !== '') filters.push(words('reports.filter.search', { text: state.search.trim() }));
  if (state.result !== null) filters.push(words('reports.filter.result', { result: state.result }));
  if (state.project.trim() !== '')
    filters.push(words('reports.filter.project', { project: state.project.trim() }));
  return filters;
}

const storageKey = (profileId: string) => `reportdesk.list.${profileId}`;

function pick<T>(allowed: readonly T[], value: unknown, fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/** Reads the saved state; anything missing, stale or tampered with falls back to the default. */
export function loadListState(profileId: string): ListState {
  let saved: Record<string, unknown> = {};
  try {
    const raw = localStorage.getItem(storageKey(profileId));
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === 'object') saved = parsed as Record<string, unknown>;
  } catch {
    // Unreadable storage is not worth an error: start from the defaults.
  }
  const d = DEFAULT_LIST_STATE;
  const page =
    typeof saved.page === 'number' && Number.isInteger(saved.page) && saved.page >= 1 ? saved.page : d.page;
  return {
    search: typeof saved.search === 'string' ? saved.search.slice(0, MAX_SEARCH_LENGTH) : d.search,
    result: saved.result === null ? null : pick<ReportResult | null>(REPORT_RESULTS, saved.result, d.result),
    project: typeof saved.project === 'string' ? saved.project.slice(0, MAX_PROJECT_LENGTH) : d.project,
    sortBy: pick(SORT_BY_VALUES, saved.sortBy, d.sortBy),
    sort: pick(SORT_VALUES, saved.sort, d.sort),
    perPage: pick(PER_PAGE_VALUES, saved.perPage, d.perPage),
    page,
  };
}

export function saveListState(profileId: string, state: ListState): void {
  try {
    localStorage.setItem(storageKey(profileId), JSON.stringify(state));
  } catch {
    // Storage full or disabled: the choices last for this session only.
  }
}

/**
 * Whether there is a page after `page`: the last page's number when the service said how many
 * there are; without it, a full page suggests more.
 */
export function hasNextPage(page: number, perPage: number, lastPage: number | null, count: number): boolean {
  return lastPage !== null ? page < lastPage : count === perPage;
}

/** Page numbers to show around the current page, with null for a gap ("…"). */
export function pageWindow(page: number, lastPage: number, around = 1): (number | null)[] {
  const pages = new Set<number>([1, lastPage]);
  for (let p = page - around; p <= page + around; p++) if (p >= 1 && p <= lastPage) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1] > 1) out.push(p - sorted[i - 1] === 2 ? p - 1 : null);
    out.push(p);
  });
  return out;
}
