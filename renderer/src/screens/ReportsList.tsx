/** The reports list: search, filters, sort, page size and paging, kept per profile. */
import { useEffect, useRef, useState, type RefObject } from 'react';
import {
  PER_PAGE_VALUES,
  REPORT_RESULTS,
  type PerPage,
  type ReportResult,
  type SortBy,
} from '../../../shared/model';
import { DateText, PrivacyBadge, RESULT_LABELS, ResultBadge } from '../components/Badges';
import { BulkActions } from '../components/BulkActions';
import { ErrorView } from '../components/ErrorView';
import { ExportDialog } from '../components/ExportDialog';
import { OpenLinkDialog } from '../components/OpenLinkDialog';
import { OverviewPanel } from '../components/OverviewPanel';
import { LoadingStatus, SkeletonRows } from '../components/Skeleton';
import { WriteActionButton } from '../components/WriteActionButton';
import { useReportVisibleSource } from '../lib/appState';
import { ageOf } from '../lib/format';
import {
  activeFilters,
  changeListState,
  clearFilters,
  loadListState,
  listStateToQuery,
  pageWindow,
  saveListState,
  type ListState,
} from '../lib/listState';
import { rowKeyAction, useRowSelection, type RowSelection } from '../lib/rowSelection';
import { useProjects, useReports } from '../lib/queries';
import { navigate } from '../lib/router';

const SEARCH_INPUT_ID = 'report-search';
const SEARCH_DEBOUNCE_MS = 300;
const FOCUS_SEARCH_EVENT = 'reportdesk:focus-search';
let searchFocusPending = false;

/** Ctrl/Cmd+F and the menu: open the list if needed, then put the cursor in the search box. */
export function requestSearchFocus(): void {
  const input = document.getElementById(SEARCH_INPUT_ID);
  if (input) {
    (input as HTMLInputElement).focus();
    (input as HTMLInputElement).select();
    return;
  }
  searchFocusPending = true;
  navigate('/reports');
  window.dispatchEvent(new Event(FOCUS_SEARCH_EVENT));
}

interface SelectOption<V extends string | number> {
  value: V;
  label: string;
}

const RESULT_OPTIONS: SelectOption<ReportResult | ''>[] = [
  { value: '', label: 'Any' },
  ...REPORT_RESULTS.map((r) => ({ value: r, label: RESULT_LABELS[r] })),
];
const SORT_OPTIONS: SelectOption<SortBy>[] = [
  { value: 'id', label: 'Date created (id)' },
  { value: 'generated_at', label: 'Date generated' },
  { value: 'url', label: 'URL' },
  { value: 'result', label: 'Result' },
];
const DIRECTION_OPTIONS: SelectOption<'asc' | 'desc'>[] = [
  { value: 'desc', label: 'Descending' },
  { value: 'asc', label: 'Ascending' },
];
const PER_PAGE_OPTIONS: SelectOption<PerPage>[] = PER_PAGE_VALUES.map((n) => ({
  value: n,
  label: String(n),
}));

const COLUMNS: { key: SortBy | 'privacy' | 'project'; label: string; sortable: boolean }[] = [
  { key: 'id', label: 'ID', sortable: true },
  { key: 'url', label: 'URL', sortable: true },
  { key: 'result', label: 'Result', sortable: true },
  { key: 'privacy', label: 'Privacy', sortable: false },
  { key: 'project', label: 'Project', sortable: false },
  { key: 'generated_at', label: 'Generated', sortable: true },
];

/** A text box whose value reaches the list state only after the user pauses typing. */
function useDebouncedText(
  committed: string,
  commit: (value: string) => void,
): [string, (value: string) => void] {
  const [text, setText] = useState(committed);
  const [lastCommitted, setLastCommitted] = useState(committed);
  // A change from outside (Clear filters, restore) replaces what is in the box.
  if (committed !== lastCommitted) {
    setLastCommitted(committed);
    setText(committed);
  }
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });
  useEffect(() => {
    if (text === committed) return;
    const timer = window.setTimeout(() => commitRef.current(text), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, committed]);
  return [text, setText];
}

/** A labelled drop-down in the toolbar; it hands back the option's own value, not the DOM string. */
function ToolbarSelect<V extends string | number>({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: V;
  options: readonly SelectOption<V>[];
  onChange: (value: V) => void;
}) {
  return (
    <div className="toolbar-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => {
          const chosen = options.find((option) => String(option.value) === e.target.value);
          if (chosen) onChange(chosen.value);
        }}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ReportsList({ profileId }: { profileId: string }) {
  const [state, setState] = useState<ListState>(() => loadListState(profileId));
  const update = (change: Partial<ListState>) => setState((current) => changeListState(current, change));
  useEffect(() => saveListState(profileId, state), [profileId, state]);

  const reports = useReports(profileId, state);
  const projects = useProjects(profileId);
  useReportVisibleSource(reports.data);

  const [searchText, setSearchText] = useDebouncedText(state.search, (search) => update({ search }));
  const [projectText, setProjectText] = useDebouncedText(state.project, (project) => update({ project }));

  const searchRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const focus = () => {
      searchFocusPending = false;
      searchRef.current?.focus();
      searchRef.current?.select();
    };
    if (searchFocusPending) focus();
    window.addEventListener(FOCUS_SEARCH_EVENT, focus);
    return () => window.removeEventListener(FOCUS_SEARCH_EVENT, focus);
  }, []);

  // After a delete the last page can vanish: step back to the new last page (adjusting state
  // while rendering, as React recommends over an effect).
  const lastPage = reports.isPlaceholderData ? null : (reports.data?.lastPage ?? null);
  if (lastPage !== null && lastPage >= 1 && state.page > lastPage) setState({ ...state, page: lastPage });

  const page = reports.data;
  const filters = activeFilters(state);
  const [dialog, setDialog] = useState<'export' | 'open-link' | null>(null);
  const query = listStateToQuery(state);
  const rowIds = (page?.reports ?? []).map((report) => report.id);
  const selection = useRowSelection(rowIds, JSON.stringify(listStateToQuery(state)));
  const tableBody = useRef<HTMLTableSectionElement>(null);
  useRowKeys(selection, tableBody, (id) => navigate(`/reports/${id}`));

  function sortByColumn(key: SortBy) {
    if (state.sortBy === key) update({ sort: state.sort === 'asc' ? 'desc' : 'asc' });
    else update({ sortBy: key, sort: key === 'url' ? 'asc' : 'desc' });
  }

  return (
    <section className="screen screen-list" aria-labelledby="reports-title">
      <div className="screen-header">
        <h1 id="reports-title">Reports</h1>
        <div className="screen-actions">
          {page?.source === 'cache' && (
            <span className="source-note" title={new Date(page.fetchedAt).toLocaleString()}>
              From the offline copy, saved {ageOf(page.fetchedAt)} ago
            </span>
          )}
          <button type="button" className="button" onClick={() => setDialog('open-link')}>
            Open link…
          </button>
          <button type="button" className="button" onClick={() => setDialog('export')} disabled={!page}>
            Export…
          </button>
          <WriteActionButton
            className="button primary"
            title="New report (Ctrl+N)"
            onClick={() => navigate('/reports/new')}
          >
            New report
          </WriteActionButton>
        </div>
      </div>

      <div className="toolbar" role="search">
        <div className="toolbar-field grow">
          <label htmlFor={SEARCH_INPUT_ID}>Search URL</label>
          <input
            id={SEARCH_INPUT_ID}
            ref={searchRef}
            type="search"
            value={searchText}
            placeholder="Search by URL (Ctrl+F)"
            onChange={(e) => setSearchText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') update({ search: searchText });
            }}
            spellCheck={false}
          />
        </div>
        <ToolbarSelect
          id="filter-result"
          label="Result"
          value={state.result ?? ''}
          options={RESULT_OPTIONS}
          onChange={(result) => update({ result: result === '' ? null : result })}
        />
        <div className="toolbar-field">
          <label htmlFor="filter-project">Project</label>
          <input
            id="filter-project"
            type="text"
            list="project-suggestions"
            value={projectText}
            placeholder="Any project"
            onChange={(e) => setProjectText(e.target.value)}
            // The cache learns projects as pages arrive: refresh the suggestions on entry.
            onFocus={() => void projects.refetch()}
            onKeyDown={(e) => {
              if (e.key === 'Enter') update({ project: projectText });
            }}
          />
          <datalist id="project-suggestions">
            {(projects.data ?? []).map((p) => (
              <option key={p} value={p} />
            ))}
          </datalist>
        </div>
        <ToolbarSelect
          id="sort-by"
          label="Sort by"
          value={state.sortBy}
          options={SORT_OPTIONS}
          onChange={(sortBy) => update({ sortBy })}
        />
        <ToolbarSelect
          id="sort-direction"
          label="Order"
          value={state.sort}
          options={DIRECTION_OPTIONS}
          onChange={(sort) => update({ sort })}
        />
        <ToolbarSelect
          id="per-page"
          label="Per page"
          value={state.perPage}
          options={PER_PAGE_OPTIONS}
          onChange={(perPage) => update({ perPage })}
        />
      </div>

      <OverviewPanel
        profileId={profileId}
        filters={{ search: query.search, project: query.project, result: query.result }}
      />

      <SelectionBar selection={selection} />
      <BulkActions
        profileId={profileId}
        selectedIds={selection.selectedIds}
        onFinished={(failedIds) => {
          // What failed stays selected, ready to try again.
          selection.clear();
          failedIds.forEach((id) => selection.toggle(id));
        }}
      />
      {dialog === 'export' && (
        <ExportDialog query={query} total={page?.total ?? null} onClose={() => setDialog(null)} />
      )}
      {dialog === 'open-link' && <OpenLinkDialog onClose={() => setDialog(null)} />}

      {reports.isFetching && page && <div className="fetch-bar" aria-hidden="true" />}

      {reports.isError && !page ? (
        <ErrorView
          error={reports.error}
          title="The reports could not be loaded."
          onRetry={() => void reports.refetch()}
        />
      ) : (
        <>
          {reports.isError && page && (
            <ErrorView
              error={reports.error}
              title="The list could not be refreshed."
              onRetry={() => void reports.refetch()}
            />
          )}
          <div className="table-wrap">
            <table className="table" aria-busy={reports.isPending} aria-label="Reports">
              <thead>
                <tr>
                  <th scope="col" className="select-cell">
                    <PageCheckbox selection={selection} disabled={rowIds.length === 0} />
                  </th>
                  {COLUMNS.map((col) => {
                    const sorted = col.sortable && state.sortBy === col.key;
                    return (
                      <th
                        key={col.key}
                        scope="col"
                        aria-sort={sorted ? (state.sort === 'asc' ? 'ascending' : 'descending') : undefined}
                      >
                        {col.sortable ? (
                          <button
                            type="button"
                            className="th-button"
                            onClick={() => sortByColumn(col.key as SortBy)}
                          >
                            {col.label}
                            <span className="sort-mark" aria-hidden="true">
                              {sorted ? (state.sort === 'asc' ? '▲' : '▼') : ''}
                            </span>
                          </button>
                        ) : (
                          col.label
                        )}
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody ref={tableBody}>
                {reports.isPending && (
                  <SkeletonRows rows={Math.min(state.perPage, 10)} columns={COLUMNS.length + 1} />
                )}
                {page?.reports.map((report, index) => (
                  <tr
                    key={report.id}
                    className={rowClass(selection, report.id, index)}
                    // One row is in the Tab order (a roving tab stop); the keys move it.
                    tabIndex={index === Math.max(selection.focus, 0) ? 0 : -1}
                    data-row-index={index}
                    onFocus={(e) => e.target === e.currentTarget && selection.setFocus(index)}
                    onClick={() => navigate(`/reports/${report.id}`)}
                  >
                    <td className="select-cell" onClick={(e) => e.stopPropagation()}>
                      <input
                        type="checkbox"
                        checked={selection.isSelected(report.id)}
                        aria-label={`Select report ${report.id}`}
                        tabIndex={-1}
                        onChange={(e) =>
                          selection.toggle(report.id, (e.nativeEvent as MouseEvent).shiftKey === true)
                        }
                      />
                    </td>
                    <td className="id-cell">{report.id}</td>
                    <td className="url-cell">
                      <a
                        href={`#/reports/${encodeURIComponent(report.id)}`}
                        // The cell cuts a long URL short; the tooltip shows all of it.
                        title={report.url}
                        tabIndex={-1}
                        onClick={(e) => e.stopPropagation()}
                      >
                        {report.url}
                      </a>
                    </td>
                    <td>
                      <ResultBadge result={report.result} />
                    </td>
                    <td>
                      <PrivacyBadge privacy={report.privacy} />
                    </td>
                    {report.project === null || report.project === undefined ? (
                      <td>
                        <span className="muted">—</span>
                      </td>
                    ) : (
                      <td className="project-cell" title={String(report.project)}>
                        {String(report.project)}
                      </td>
                    )}
                    <td className="nowrap">
                      <DateText value={report.generated_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {reports.isPending && <LoadingStatus label="Loading reports…" />}
            {/* No live region here: the pager's "No reports on this page" already says it once. */}
            {page && page.reports.length === 0 && (
              <div className="empty-state">
                {filters.length > 0 ? (
                  <>
                    <p>
                      No reports match: {filters.join(', ')}
                      {state.page > 1 ? ` on page ${state.page}` : ''}.
                    </p>
                    <button type="button" className="button" onClick={() => setState(clearFilters(state))}>
                      Clear filters
                    </button>
                  </>
                ) : state.page > 1 ? (
                  <>
                    <p>Page {state.page} is empty.</p>
                    <button type="button" className="button" onClick={() => update({ page: 1 })}>
                      Go to the first page
                    </button>
                  </>
                ) : (
                  <>
                    <p>There are no reports yet.</p>
                    <WriteActionButton className="button primary" onClick={() => navigate('/reports/new')}>
                      Create a report
                    </WriteActionButton>
                  </>
                )}
              </div>
            )}
          </div>
          {page && (
            <Pagination
              state={state}
              total={page.total}
              lastPage={page.lastPage}
              count={page.reports.length}
              onPage={(p) => update({ page: p })}
            />
          )}
        </>
      )}
    </section>
  );
}

function rowClass(selection: RowSelection, id: string, index: number): string {
  let name = 'clickable';
  if (selection.focus === index) name += ' row-focus';
  if (selection.isSelected(id)) name += ' row-selected';
  return name;
}

/** The header checkbox: selects or clears every row on this page; mixed when some are selected. */
function PageCheckbox({ selection, disabled }: { selection: RowSelection; disabled: boolean }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = selection.pageSelection === 'some';
  }, [selection.pageSelection]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label="Select all reports on this page"
      checked={selection.pageSelection === 'all'}
      disabled={disabled}
      onChange={() => selection.selectPage(selection.pageSelection !== 'all')}
    />
  );
}

/** How many rows are selected, in a live region that is always there so changes are read once. */
function SelectionBar({ selection }: { selection: RowSelection }) {
  const count = selection.selectedIds.length;
  return (
    <div className={count > 0 ? 'selection-bar' : 'selection-bar empty'}>
      <span role="status">{count > 0 ? `${count} selected on this page` : ''}</span>
      {count > 0 && (
        <button type="button" className="button small" onClick={selection.clear}>
          Clear selection
        </button>
      )}
    </div>
  );
}

const EDITABLE = 'input, select, textarea, [contenteditable="true"], [contenteditable=""]';

/**
 * The list's keys. On a row: ↑/↓, j/k, Home/End move the row focus, Enter opens the focused
 * report, Space (Shift+Space for a range) selects it. Elsewhere on the screen, outside form
 * fields and dialogs, j/k and ↑/↓ bring the focus into the rows.
 */
function useRowKeys(
  selection: RowSelection,
  tableBody: RefObject<HTMLTableSectionElement | null>,
  open: (id: string) => void,
) {
  const latest = useRef({ selection, open });
  useEffect(() => {
    latest.current = { selection, open };
  });

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented) return;
      const action = rowKeyAction(event);
      const body = tableBody.current;
      if (!action || !body) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('[role="dialog"], [role="alertdialog"], dialog')) return;
      const rowElements = [...body.querySelectorAll<HTMLElement>('tr[data-row-index]')];
      if (rowElements.length === 0) return;
      const { selection: rows, open: openRow } = latest.current;
      const onRow = target !== null && rowElements.includes(target as HTMLElement);
      const moving = action !== 'open' && action !== 'toggle' && action !== 'toggle-range';
      if (!onRow) {
        // Off the rows only ↑/↓ and j/k, and never while typing or choosing in a field.
        if (action !== 'next' && action !== 'previous') return;
        if (target?.closest(EDITABLE) && !body.contains(target)) return;
        if (!event.key.match(/^[jk]$/) && target?.closest('button, a[href], summary')) return;
      }
      event.preventDefault();
      if (moving) {
        const from = onRow ? rowElements.indexOf(target as HTMLElement) : -1;
        const delta = action === 'next' ? 1 : action === 'previous' ? -1 : 0;
        let index =
          from < 0 ? Math.max(rows.focus, 0) : Math.min(rowElements.length - 1, Math.max(0, from + delta));
        if (action === 'first') index = 0;
        if (action === 'last') index = rowElements.length - 1;
        rows.setFocus(index);
        rowElements[index]?.focus();
      } else if (rows.focusedId !== null) {
        if (action === 'open') openRow(rows.focusedId);
        else rows.toggle(rows.focusedId, action === 'toggle-range');
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [tableBody]);
}

interface PaginationProps {
  state: ListState;
  total: number | null;
  lastPage: number | null;
  count: number;
  onPage: (page: number) => void;
}

function Pagination({ state, total, lastPage, count, onPage }: PaginationProps) {
  const { page, perPage } = state;
  const first = count === 0 ? 0 : (page - 1) * perPage + 1;
  const last = (page - 1) * perPage + count;
  // Without a total the service did not say how many pages there are: a full page suggests more.
  const hasNext = lastPage !== null ? page < lastPage : count === perPage;
  return (
    <nav className="pagination" aria-label="Pages">
      <span className="muted" aria-live="polite">
        {count === 0
          ? 'No reports on this page'
          : total !== null
            ? `Showing ${first}–${last} of ${total}`
            : `Showing ${first}–${last}`}
      </span>
      <div className="pages">
        <button type="button" className="button small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          ‹ Previous
        </button>
        {lastPage !== null &&
          lastPage > 1 &&
          pageWindow(page, lastPage).map((p, i) =>
            p === null ? (
              <span key={`gap-${i}`} className="page-gap" aria-hidden="true">
                …
              </span>
            ) : (
              <button
                key={p}
                type="button"
                className={p === page ? 'button small page current' : 'button small page'}
                aria-current={p === page ? 'page' : undefined}
                aria-label={`Page ${p}`}
                onClick={() => onPage(p)}
              >
                {p}
              </button>
            ),
          )}
        {lastPage === null && <span className="page-only">Page {page}</span>}
        <button type="button" className="button small" disabled={!hasNext} onClick={() => onPage(page + 1)}>
          Next ›
        </button>
      </div>
    </nav>
  );
}
