/** The reports list: search, filters, sort, page size and paging, kept per profile. */
import { useEffect, useRef, useState } from 'react';
import {
  PER_PAGE_VALUES,
  REPORT_RESULTS,
  type PerPage,
  type ReportResult,
  type SortBy,
} from '../../../shared/model';
import type { RendererMessageId as MessageId } from '../../../shared/i18n/messages';
import { ErrorView } from '../components/ErrorView';
import { Pagination } from '../components/Pagination';
import { ReportRow, useRowActions } from '../components/ReportRow';
import { PageCheckbox, SelectionBar } from '../components/SelectionControls';
import { LoadingStatus, SkeletonRows } from '../components/Skeleton';
import { ToolbarSelect, type SelectOption } from '../components/ToolbarSelect';
import { WriteActionButton } from '../components/WriteActionButton';
import {
  BulkActions,
  ChangesPanel,
  ExportDialog,
  LazyPart,
  OnceNeeded,
  OpenLinkDialog,
  OverviewPanel,
} from '../lazyParts';
import { useReportVisibleSource } from '../lib/appState';
import { exactTime, timeAgo } from '../lib/format';
import { useWords, type RendererWords } from '../lib/i18n';
import { RESULT_LABELS } from '../lib/reportWords';
import {
  activeFilters,
  changeListState,
  clearFilters,
  hasNextPage,
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

/** A drop-down's choices as message ids; worded when drawn. */
type Choices<V extends string | number> = { value: V; label: MessageId }[];

const RESULT_OPTIONS: Choices<ReportResult | ''> = [
  { value: '', label: 'reports.filter.any' },
  ...REPORT_RESULTS.map((r) => ({ value: r, label: RESULT_LABELS[r] })),
];
const SORT_OPTIONS: Choices<SortBy> = [
  { value: 'id', label: 'reports.sort.id' },
  { value: 'generated_at', label: 'reports.sort.generated_at' },
  { value: 'url', label: 'report.field.url' },
  { value: 'result', label: 'report.field.result' },
];
const DIRECTION_OPTIONS: Choices<'asc' | 'desc'> = [
  { value: 'desc', label: 'reports.sort.descending' },
  { value: 'asc', label: 'reports.sort.ascending' },
];

function worded<V extends string | number>(words: RendererWords, choices: Choices<V>): SelectOption<V>[] {
  return choices.map(({ value, label }) => ({ value, label: words(label) }));
}

const COLUMNS: { key: SortBy | 'privacy' | 'project'; label: MessageId; sortable: boolean }[] = [
  { key: 'id', label: 'report.field.id', sortable: true },
  { key: 'url', label: 'report.field.url', sortable: true },
  { key: 'result', label: 'report.field.result', sortable: true },
  { key: 'privacy', label: 'report.field.privacy', sortable: false },
  { key: 'project', label: 'report.field.project', sortable: false },
  { key: 'generated_at', label: 'report.field.generated', sortable: true },
];

export function ReportsList({ profileId }: { profileId: string }) {
  const words = useWords();
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
  const filters = activeFilters(words, state);
  const perPageOptions: SelectOption<PerPage>[] = PER_PAGE_VALUES.map((n) => ({
    value: n,
    label: words.intl.formatNumber(n),
  }));
  const [dialog, setDialog] = useState<'export' | 'open-link' | null>(null);
  const query = listStateToQuery(state);
  const rowIds = (page?.reports ?? []).map((report) => report.id);
  const newIds = useNewMarks(profileId, rowIds);
  const selection = useRowSelection(rowIds, JSON.stringify(listStateToQuery(state)));
  const tableBody = useRef<HTMLTableSectionElement>(null);
  useRowKeys(
    selection,
    tableBody,
    (id) => navigate(`/reports/${id}`),
    (step) => {
      const next = state.page + step;
      const shown = page?.reports.length ?? 0;
      if (!page || next < 1) return false;
      if (step > 0 && !hasNextPage(state.page, state.perPage, page.lastPage, shown)) return false;
      update({ page: next });
      return true;
    },
  );
  const rowActions = useRowActions(selection);

  function sortByColumn(key: SortBy) {
    if (state.sortBy === key) update({ sort: state.sort === 'asc' ? 'desc' : 'asc' });
    else update({ sortBy: key, sort: key === 'url' ? 'asc' : 'desc' });
  }

  return (
    <section className="screen screen-list" aria-labelledby="reports-title">
      <div className="screen-header">
        <h1 id="reports-title">{words('nav.reports')}</h1>
        <div className="screen-actions">
          {page?.source === 'cache' && (
            <span className="source-note" title={exactTime(words, page.fetchedAt)}>
              {words('source.offline_copy', { ago: timeAgo(words, page.fetchedAt) })}
            </span>
          )}
          <button type="button" className="button" onClick={() => setDialog('open-link')}>
            {words('reports.open_link')}
          </button>
          <button type="button" className="button" onClick={() => setDialog('export')} disabled={!page}>
            {words('reports.export')}
          </button>
          <WriteActionButton
            className="button primary"
            title={words('reports.new_report.title', { keys: words('keys.ctrl_plus', { key: 'N' }) })}
            onClick={() => navigate('/reports/new')}
          >
            {words('nav.new_report')}
          </WriteActionButton>
        </div>
      </div>

      <div className="toolbar" role="search">
        <div className="toolbar-field grow">
          <label htmlFor={SEARCH_INPUT_ID}>{words('reports.search')}</label>
          <input
            id={SEARCH_INPUT_ID}
            type="search"
            // What is typed keeps its own direction (a URL left to right); empty, the page's.
            dir={searchText === '' ? undefined : 'auto'}
            value={searchText}
            placeholder={words('reports.search.placeholder', { keys: words('keys.ctrl_plus', { key: 'F' }) })}
            onChange={(e) => setSearchText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') update({ search: searchText });
            }}
            spellCheck={false}
          />
        </div>
        <ToolbarSelect
          id="filter-result"
          label={words('report.field.result')}
          value={state.result ?? ''}
          options={worded(words, RESULT_OPTIONS)}
          onChange={(result) => update({ result: result === '' ? null : result })}
        />
        <div className="toolbar-field">
          <label htmlFor="filter-project">{words('report.field.project')}</label>
          <input
            id="filter-project"
            type="text"
            dir={projectText === '' ? undefined : 'auto'}
            list="project-suggestions"
            value={projectText}
            placeholder={words('reports.filter.any_project')}
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
          label={words('reports.sort_by')}
          value={state.sortBy}
          options={worded(words, SORT_OPTIONS)}
          onChange={(sortBy) => update({ sortBy })}
        />
        <ToolbarSelect
          id="sort-direction"
          label={words('reports.order')}
          value={state.sort}
          options={worded(words, DIRECTION_OPTIONS)}
          onChange={(sort) => update({ sort })}
        />
        <ToolbarSelect
          id="per-page"
          label={words('reports.per_page')}
          value={state.perPage}
          options={perPageOptions}
          onChange={(perPage) => update({ perPage })}
        />
      </div>

      <LazyPart>
        <ChangesPanel profileId={profileId} />
        <OverviewPanel
          profileId={profileId}
          filters={{ search: query.search, project: query.project, result: query.result }}
        />
      </LazyPart>

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
          title={words('reports.load_failed')}
          onRetry={() => void reports.refetch()}
        />
      ) : (
        <>
          {reports.isError && page && (
            <ErrorView
              error={reports.error}
              title={words('reports.refresh_failed')}
              onRetry={() => void reports.refetch()}
            />
          )}
          <div className="table-wrap">
            <table className="table" aria-busy={reports.isPending} aria-label={words('nav.reports')}>
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
                            {words(col.label)}
                            <span className="sort-mark" aria-hidden="true">
                              {sorted ? (state.sort === 'asc' ? '▲' : '▼') : ''}
                            </span>
                          </button>
                        ) : (
                          words(col.label)
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
            {reports.isPending && <LoadingStatus label={words('reports.loading')} />}
            {/* No live region here: the pager's "No reports on this page" already says it once. */}
            {page && page.reports.length === 0 && (
              <div className="empty-state">
                {filters.length > 0 ? (
                  <>
                    <p>
                      {words(state.page > 1 ? 'reports.empty.no_match_on_page' : 'reports.empty.no_match', {
                        filters: words.intl.formatList(filters, { type: 'conjunction' }),
                        page: state.page,
                      })}
                    </p>
                    <button type="button" className="button" onClick={() => setState(clearFilters(state))}>
                      {words('reports.empty.clear_filters')}
                    </button>
                  </>
                ) : state.page > 1 ? (
                  <>
                    <p>{words('reports.empty.page', { page: state.page })}</p>
                    <button type="button" className="button" onClick={() => update({ page: 1 })}>
                      {words('reports.empty.first_page')}
                    </button>
                  </>
                ) : (
                  <>
                    <p>{words('reports.empty.none')}</p>
                    <WriteActionButton className="button primary" onClick={() => navigate('/reports/new')}>
                      {words('reports.empty.create')}
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
