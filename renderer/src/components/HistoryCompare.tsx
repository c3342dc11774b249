/**
 * Compare (issue 27): the URLs whose result differs between two dates — got worse, got better,
 * new —, each with its result and report before and after, filterable by how it moved, and
 * exportable as CSV or JSON through the exporter's save flow.
 */
import { useState } from 'react';
import type { HistoryCompare as CompareAnswer } from '../../../shared/contract';
import { CHANGE_GROUPS, changeGroup, dayStart, useHistoryCompare, type ChangeGroup } from '../lib/history';
import { useHistoryExport } from '../lib/historyExport';
import { useWords } from '../lib/i18n';
import { windowTimeZone } from '../lib/history';
import { ResultBadge } from './Badges';
import { DateField } from './DateField';
import { ErrorView } from './ErrorView';
import { LoadingPlaceholder } from './Skeleton';

const GROUP_LABELS = {
  worse: 'history.compare.worse',
  better: 'history.compare.better',
  new: 'history.compare.new',
} as const;

/** A row's own change, without the group's count. */
const ROW_LABELS = {
  worse: 'history.compare.row.worse',
  better: 'history.compare.row.better',
  new: 'history.compare.row.new',
} as const;

function ReportLink({ id }: { id: string | null }) {
  const words = useWords();
  if (id === null) return <span className="muted">—</span>;
  return <a href={`#/reports/${encodeURIComponent(id)}`}>{words('history.report_link', { id })}</a>;
}

function CompareTable({ compare, group }: { compare: CompareAnswer; group: ChangeGroup | null }) {
  const words = useWords();
  const changes = compare.changes.filter((c) => group === null || changeGroup(c) === group);
  if (changes.length === 0) return <p className="muted">{words('history.compare.none')}</p>;
  return (
    <div className="table-scroll">
      <table className="table history-table history-compare-table">
        <caption className="visually-hidden">{words('history.compare.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{words('report.field.url')}</th>
            <th scope="col">{words('history.compare.change')}</th>
            <th scope="col">{words('history.compare.before')}</th>
            <th scope="col">{words('history.compare.after')}</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={change.url} data-group={changeGroup(change)}>
              <td className="url-cell" dir="ltr" title={change.url}>
                {/* Inline inside the cell that cuts it short, as the list's URLs are. */}
                <span>{change.url}</span>
              </td>
              <td>{words(ROW_LABELS[changeGroup(change)])}</td>
              <td>
                <ResultBadge result={change.before} /> <ReportLink id={change.beforeId} />
              </td>
              <td>
                <ResultBadge result={change.after} /> <ReportLink id={change.afterId} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function HistoryCompare({
  profileId,
  project,
  from,
  to,
  onDates,
}: {
  profileId: string;
  project: string | null;
  /** Local dates (YYYY-MM-DD); the chart's "Compare from / to here" set them too. */
  from: string;
  to: string;
  onDates: (dates: { from: string; to: string }) => void;
}) {
  const words = useWords();
  const [asked, setAsked] = useState<{ from: string; to: string; project: string | null } | null>(null);
  const [group, setGroup] = useState<ChangeGroup | null>(null);
  const query = useHistoryCompare(profileId, asked);
  const exporter = useHistoryExport();
  const fromInstant = dayStart(from);
  const toInstant = dayStart(to);
  const ordered =
    fromInstant !== null && toInstant !== null && Date.parse(fromInstant) <= Date.parse(toInstant);
  const answer = query.data?.available ? query.data : null;

  return (
    <section className="card history-compare" aria-labelledby="history-compare-title">
      <h2 id="history-compare-title" className="section-title">
        {words('history.compare.heading')}
      </h2>
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          if (ordered) setAsked({ from: fromInstant, to: toInstant, project });
        }}
      >
        <DateField
          id="history-compare-from"
          label={words('history.compare.from')}
          value={from}
          onChange={(value) => onDates({ from: value, to })}
        />
        <DateField
          id="history-compare-to"
          label={words('history.compare.to')}
          value={to}
          onChange={(value) => onDates({ from, to: value })}
        />
        <button type="submit" className="button primary" disabled={!ordered}>
          {words('history.compare.run')}
        </button>
      </form>
      {!ordered && from !== '' && to !== '' && (
        <p className="field-error" role="alert">
          {words('history.compare.order')}
        </p>
      )}
      {query.isError && <ErrorView error={query.error} onRetry={() => void query.refetch()} />}
      {query.isFetching && !answer && <LoadingPlaceholder lines={2} label={words('history.loading')} />}
      {answer && (
        <>
          <p role="status" className="history-compare-summary">
            {words('history.compare.summary', {
              total: answer.changes.length,
              worse: answer.counts.worse,
              better: answer.counts.better,
              fresh: answer.counts.new,
            })}
          </p>
          <div className="toolbar">
            <fieldset className="segmented">
              <legend className="visually-hidden">{words('history.compare.show')}</legend>
              <button
                type="button"
                className="button small"
                aria-pressed={group === null}
                onClick={() => setGroup(null)}
              >
                {words('history.compare.all', { count: answer.changes.length })}
              </button>
              {CHANGE_GROUPS.map((g) => (
                <button
                  key={g}
                  type="button"
                  className="button small"
                  aria-pressed={group === g}
                  onClick={() => setGroup(g)}
                >
                  {words(GROUP_LABELS[g], { count: answer.counts[g] })}
                </button>
              ))}
            </fieldset>
            <div className="screen-actions">
              {(['csv', 'json'] as const).map((format) => (
                <button
                  key={format}
                  type="button"
                  className="button small"
                  disabled={exporter.busy}
                  onClick={() =>
                    void exporter.run({
                      kind: 'compare',
                      format,
                      from: answer.from,
                      to: answer.to,
                      project: answer.project,
                      timeZone: windowTimeZone(),
                    })
                  }
                >
                  {words('history.compare.export', { format })}
                </button>
              ))}
            </div>
          </div>
          <CompareTable compare={answer} group={group} />
        </>
      )}
    </section>
  );
}
