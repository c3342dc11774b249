/**
 * The URLs as they stood at an instant (a period's end): each with the result its newest report
 * then gave, leading to that report; a result filter; a page at a time (`history:urls` with
 * `after` / `next`).
 */
import type { ReportResult } from '../../../shared/model';
import { REPORT_RESULTS } from '../../../shared/model';
import { isAvailable, useHistoryUrls } from '../lib/history';
import { useWords } from '../lib/i18n';
import { resultLabel } from '../lib/reportWords';
import { DateText, ResultBadge } from './Badges';
import { ErrorView } from './ErrorView';
import { LoadingPlaceholder } from './Skeleton';

export function HistoryUrls({
  profileId,
  at,
  title,
  project,
  result,
  onResult,
}: {
  profileId: string;
  at: string;
  /** The period's name, for the heading. */
  title: string;
  project: string | null;
  result: ReportResult | null;
  onResult: (result: ReportResult | null) => void;
}) {
  const words = useWords();
  const query = useHistoryUrls(profileId, at, project, result);
  const pages = (query.data?.pages ?? []).filter(isAvailable);
  const first = pages[0];
  const urls = pages.flatMap((page) => page.urls);
  return (
    <section className="card history-urls" aria-labelledby="history-urls-title">
      <h2 id="history-urls-title" className="section-title" tabIndex={-1}>
        {words('history.urls.heading', { period: title })}
      </h2>
      <div className="toolbar">
        <div className="toolbar-field">
          <label htmlFor="history-urls-result">{words('report.field.result')}</label>
          <select
            id="history-urls-result"
            value={result ?? ''}
            onChange={(e) => onResult(e.target.value === '' ? null : (e.target.value as ReportResult))}
          >
            <option value="">{words('history.urls.any_result')}</option>
            {REPORT_RESULTS.map((r) => (
              <option key={r} value={r}>
                {resultLabel(words, r)}
              </option>
            ))}
          </select>
        </div>
        {first && (
          <p className="muted history-urls-counts">{words('history.urls.counts', { ...first.counts })}</p>
        )}
      </div>
      {query.isError && <ErrorView error={query.error} onRetry={() => void query.refetch()} />}
      {query.isPending && <LoadingPlaceholder lines={3} label={words('history.loading')} />}
      {first && urls.length === 0 && <p className="muted">{words('history.urls.none')}</p>}
      {urls.length > 0 && (
        <div className="table-scroll">
          <table className="table history-table">
            <caption className="visually-hidden">{words('history.urls.caption', { period: title })}</caption>
            <thead>
              <tr>
                <th scope="col">{words('report.field.url')}</th>
                <th scope="col">{words('report.field.result')}</th>
                <th scope="col">{words('history.urls.report')}</th>
              </tr>
            </thead>
            <tbody>
              {urls.map((entry) => (
                <tr key={entry.url}>
                  <td className="url-cell" dir="ltr" title={entry.url}>
                    {/* Inline inside the cell that cuts it short, as the list's URLs are. */}
                    <span>{entry.url}</span>
                  </td>
                  <td>
                    <ResultBadge result={entry.result} />
                  </td>
                  <td>
                    <a href={`#/reports/${encodeURIComponent(entry.id)}`}>
                      {words('history.report_link', { id: entry.id })}
                    </a>{' '}
                    <DateText value={entry.generatedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {query.hasNextPage && (
        <button
          type="button"
          className="button"
          onClick={() => void query.fetchNextPage()}
          disabled={query.isFetchingNextPage}
        >
          {words('history.urls.more', { shown: urls.length })}
        </button>
      )}
    </section>
  );
}
