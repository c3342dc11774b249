/** The reports list: search, filters, sort, page size and paging, kept per profile. */
import { useEffect, useRef, useState } from 'react';
import {
  PER_PAGE_VALUES,
  REPORT_RESULTS,
  type PerPage,
  type ReportResult,
  type SortBy,
} from '../../../shared/model';
import { RESULT_LABELS } from '../components/Badges';
import { ChangesPanel } from '../components/ChangesPanel';
import { ErrorView } from '../components/ErrorView';
import { Pagination } from '../components/Pagination';
import { ReportRow, useRowActions } from '../components/ReportRow';
import { PageCheckbox, SelectionBar } from '../components/SelectionControls';
import { LoadingStatus, SkeletonRows } from '../components/Skeleton';
import { ToolbarSelect, type SelectOption } from '../components/ToolbarSelect';
import { WriteActionButton } from '../components/WriteActionButton';
import { BulkActions, ExportDialog, LazyPart, OnceNeeded, OpenLinkDialog } from '../lazyParts';
import { OverviewPanel } from '../components/OverviewPanel';
import { useReportVisibleSource } from '../lib/appState';
import { ageOf } from '../lib/format';
import {
  activeFilters,
  changeListState,
  clearFilters,
  loadListState,
  listStateToQuery,
  saveListState,
  type ListState,
} from '../lib/listState';
import { useRowSelection } from '../lib/rowSelection';
import { SEARCH_INPUT_ID } from '../lib/searchFocus';
import { useDebouncedText } from '../lib/useDebouncedText';
import { useRowKeys } from '../lib/useRowKeys';
import { useNewMarks } from '../lib/offlineQueries';
import { useProjects, useReports } from '../lib/queries';
import { navigate } from '../lib/router';

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

export function ReportsList({ profileId }: { profileId: string }) {
  const [state, setState] = useState<ListState>(() => loadListState(profileId));
  const update = (change: Partial<ListState>) => setState((current) => changeListState(current, change));
  useEffect(() => saveListState(profileId, state), [profileId, state]);

  const reports = useReports(profileId, state);
  const projects = useProjects(profileId);
  useReportVisibleSource(reports.data);

  const [searchText, setSearchText] = useDebouncedText(state.search, (search) => update({ search }));
  const [projectText, setProjectText] = useDebouncedText(state.project, (project) => update({ project }));

  // After a delete the last page can vanish: step back to the new last page (adjusting state
  // while rendering, as React recommends over an effect).
  const lastPage = reports.isPlaceholderData ? null : (reports.data?.lastPage ?? null);
  if (lastPage !== null && lastPage >= 1 && state.page > lastPage) setState({ ...state, page: lastPage });

  const page = reports.data;
  const filters = activeFilters(state);
  const [dialog, setDialog] = useState<'export' | 'open-link' | null>(null);
  const query = listStateToQuery(state);
  const rowIds = (page?.reports ?? []).map((report) => report.id);
  const newIds = useNewMarks(profileId, rowIds);
  const selection = useRowSelection(rowIds, JSON.stringify(listStateToQuery(state)));
  const tableBody = useRef<HTMLTableSectionElement>(null);
  useRowKeys(selection, tableBody, (id) => navigate(`/reports/${id}`));
  const rowActions = useRowActions(selection);

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

      <ChangesPanel profileId={profileId} />
      <OverviewPanel
        profileId={profileId}
        filters={{ search: query.search, project: query.project, result: query.result }}
      />

      <SelectionBar selection={selection} />
      <OnceNeeded when={selection.selectedIds.length > 0}>
        <BulkActions
          profileId={profileId}
          selectedIds={selection.selectedIds}
          onFinished={(failedIds) => {
            // What failed stays selected, ready to try again.
            selection.clear();
            failedIds.forEach((id) => selection.toggle(id));
          }}
        />
      </OnceNeeded>
      <LazyPart>
        {dialog === 'export' && (
          <ExportDialog query={query} total={page?.total ?? null} onClose={() => setDialog(null)} />
        )}
        {dialog === 'open-link' && <OpenLinkDialog onClose={() => setDialog(null)} />}
      </LazyPart>

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
                  <ReportRow
                    key={report.id}
                    report={report}
                    index={index}
                    focused={selection.focus === index}
                    tabbable={index === Math.max(selection.focus, 0)}
                    selected={selection.isSelected(report.id)}
                    isNew={newIds.has(report.id)}
                    actions={rowActions}
                  />
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
