/**
 * History (issue 27): how the active profile's results moved over time, from the offline copy
 * only — it reads the same with the service down. A project (or all) and a range, periods of a
 * day, a week or a month (by default the kind the core finds best for the range); the URLs good,
 * decent and bad at each period's end as a chart or a table; a period's URLs; Compare between
 * two dates; the chart's numbers as CSV or JSON. Before the profile's first full read the copy
 * would give wrong numbers, so the screen says so and offers "Make available offline".
 */
import { useState } from 'react';
import type { HistoryPeriods } from '../../../shared/contract';
import { PERIOD_KINDS, type PeriodKind } from '../../../shared/calendar';
import type { ReportResult } from '../../../shared/model';
import { ErrorView } from '../components/ErrorView';
import { DateField } from '../components/DateField';
import { HistoryChart, periodLabel } from '../components/HistoryChart';
import { HistoryCompare } from '../components/HistoryCompare';
import { HistoryUrls } from '../components/HistoryUrls';
import { LoadingPlaceholder } from '../components/Skeleton';
import { HistoryNotSynced } from '../components/HistoryNotSynced';
import { exactTime, timeAgo } from '../lib/format';
import {
  isAvailable,
  localDateOf,
  periodsInput,
  tallyTotal,
  useHistoryPeriods,
  type HistoryFilters,
} from '../lib/history';
import { useHistoryExport } from '../lib/historyExport';
import { useWords } from '../lib/i18n';
import { useProjects } from '../lib/queries';
import { resultLabel } from '../lib/reportWords';
import { REPORT_RESULTS } from '../../../shared/model';

const KIND_LABELS = {
  day: 'history.by.day',
  week: 'history.by.week',
  month: 'history.by.month',
} as const;

const VIEW_KEY = 'reportdesk:history-view';
type View = 'chart' | 'table';
/** The project select's values: all projects, or one (its name after the prefix; '' is no project). */
const ALL = 'all';
const ONE = 'project:';

function PeriodsTable({
  answer,
  selected,
  onOpen,
}: {
  answer: HistoryPeriods;
  selected: number;
  onOpen: (index: number) => void;
}) {
  const words = useWords();
  return (
    <div className="table-scroll">
      <table className="table history-table history-periods-table">
        <caption>{words('history.table.caption', { kind: answer.by })}</caption>
        <thead>
          <tr>
            <th scope="col">{words('history.table.period')}</th>
            {REPORT_RESULTS.map((r) => (
              <th key={r} scope="col">
                {resultLabel(words, r)}
              </th>
            ))}
            <th scope="col">{words('history.legend.generated')}</th>
            <th scope="col">
              <span className="visually-hidden">{words('history.table.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {answer.periods.map((period, index) => (
            <tr key={period.start} aria-current={index === selected ? 'true' : undefined}>
              <th scope="row">{periodLabel(words, answer.by, period)}</th>
              {REPORT_RESULTS.map((r) => (
                <td key={r}>{period.urls[r]}</td>
              ))}
              <td>{tallyTotal(period.generated)}</td>
              <td>
                <button type="button" className="button small" onClick={() => onOpen(index)}>
                  {words('history.show_urls_of', { period: periodLabel(words, answer.by, period) })}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function HistoryScreen({ profileId }: { profileId: string }) {
  const words = useWords();
  const projects = useProjects(profileId);
  const [filters, setFilters] = useState<HistoryFilters>({ project: null, since: '', until: '', by: null });
  const [view, setView] = useState<View>(() =>
    localStorage.getItem(VIEW_KEY) === 'table' ? 'table' : 'chart',
  );
  const [selected, setSelected] = useState<number | null>(null);
  const [openedAt, setOpenedAt] = useState<{ at: string; title: string } | null>(null);
  const [urlsResult, setUrlsResult] = useState<ReportResult | null>(null);
  const [compareDates, setCompareDates] = useState({ from: '', to: '' });
  const query = useHistoryPeriods(profileId, filters);
  const exporter = useHistoryExport();
  const answer = isAvailable(query.data) ? query.data : null;
  const periods = answer?.periods ?? [];
  // Other filters start on the latest period.
  const current = selected !== null && selected < periods.length ? selected : periods.length - 1;

  function chooseView(next: View) {
    setView(next);
    localStorage.setItem(VIEW_KEY, next);
  }

  function openPeriod(index: number) {
    const period = periods[index];
    if (!period || !answer) return;
    setSelected(index);
    setOpenedAt({ at: period.end, title: periodLabel(words, answer.by, period) });
    // The panel below takes the focus once drawn, so the keyboard is where the URLs are.
    requestAnimationFrame(() => document.getElementById('history-urls-title')?.focus());
  }

  const update = (patch: Partial<HistoryFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setSelected(null);
    setOpenedAt(null);
  };

  return (
    <section className="screen screen-history" aria-labelledby="history-title">
      <div className="screen-header">
        <h1 id="history-title">{words('history.heading')}</h1>
        <div className="screen-actions">
          {answer && (
            <span className="source-note" title={exactTime(words, answer.lastFullSyncAt)}>
              {words('history.source', { ago: timeAgo(words, answer.lastFullSyncAt) })}
            </span>
          )}
          {(['csv', 'json'] as const).map((format) => (
            <button
              key={format}
              type="button"
              className="button"
              disabled={!answer || periods.length === 0 || exporter.busy}
              onClick={() => void exporter.run({ kind: 'periods', format, ...periodsInput(filters) })}
            >
              {words('history.export', { format })}
            </button>
          ))}
        </div>
      </div>

      <div className="toolbar" role="search" aria-label={words('history.filters')}>
        <div className="toolbar-field">
          <label htmlFor="history-project">{words('report.field.project')}</label>
          <select
            id="history-project"
            value={filters.project === null ? ALL : `${ONE}${filters.project}`}
            onChange={(e) =>
              update({ project: e.target.value === ALL ? null : e.target.value.slice(ONE.length) })
            }
          >
            <option value={ALL}>{words('history.all_projects')}</option>
            {(projects.data ?? []).map((p) => (
              <option key={p} value={`${ONE}${p}`} dir="auto">
                {p === '' ? words('overview.no_project') : p}
              </option>
            ))}
          </select>
        </div>
        <DateField
          id="history-since"
          label={words('history.since')}
          value={filters.since}
          onChange={(since) => update({ since })}
        />
        <DateField
          id="history-until"
          label={words('history.until')}
          value={filters.until}
          onChange={(until) => update({ until })}
        />
        <div className="toolbar-field">
          <label htmlFor="history-by">{words('history.by')}</label>
          <select
            id="history-by"
            value={filters.by ?? ''}
            onChange={(e) => update({ by: e.target.value === '' ? null : (e.target.value as PeriodKind) })}
          >
            <option value="">
              {answer && filters.by === null
                ? words('history.by.auto_chosen', { kind: answer.by })
                : words('history.by.auto')}
            </option>
            {PERIOD_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {words(KIND_LABELS[kind])}
              </option>
            ))}
          </select>
        </div>
        <div className="toolbar-field">
          <span className="toolbar-label" id="history-view-label">
            {words('history.view')}
          </span>
          <div className="segmented" role="group" aria-labelledby="history-view-label">
            <button
              type="button"
              className="button small"
              aria-pressed={view === 'chart'}
              onClick={() => chooseView('chart')}
            >
              {words('history.view.chart')}
            </button>
            <button
              type="button"
              className="button small"
              aria-pressed={view === 'table'}
              onClick={() => chooseView('table')}
            >
              {words('history.view.table')}
            </button>
          </div>
        </div>
      </div>

      {query.isError && <ErrorView error={query.error} onRetry={() => void query.refetch()} />}
      {query.isPending && <LoadingPlaceholder lines={6} label={words('history.loading')} />}
      {query.data && !query.data.available && <HistoryNotSynced reason={query.data.reason} />}
      {answer && periods.length === 0 && <p className="notice">{words('history.empty')}</p>}
      {answer && periods.length > 0 && (
        <>
          {view === 'chart' ? (
            <HistoryChart
              kind={answer.by}
              periods={periods}
              selected={current}
              onSelect={setSelected}
              onOpen={openPeriod}
            />
          ) : (
            <PeriodsTable answer={answer} selected={current} onOpen={openPeriod} />
          )}
          {view === 'chart' && (
            <div className="form-actions history-period-actions">
              <button type="button" className="button" onClick={() => openPeriod(current)}>
                {words('history.show_urls')}
              </button>
              <button
                type="button"
                className="button"
                onClick={() => setCompareDates((d) => ({ ...d, from: localDateOf(periods[current].end) }))}
              >
                {words('history.compare_from_here')}
              </button>
              <button
                type="button"
                className="button"
                onClick={() => setCompareDates((d) => ({ ...d, to: localDateOf(periods[current].end) }))}
              >
                {words('history.compare_to_here')}
              </button>
            </div>
          )}
          {openedAt && (
            <HistoryUrls
              profileId={profileId}
              at={openedAt.at}
              title={openedAt.title}
              project={answer.project}
              result={urlsResult}
              onResult={setUrlsResult}
            />
          )}
          <HistoryCompare
            profileId={profileId}
            project={answer.project}
            from={compareDates.from}
            to={compareDates.to}
            onDates={setCompareDates}
          />
        </>
      )}
    </section>
  );
}
