/**
 * "This URL over time" on a report's page (issue 27): every report of the URL in the offline
 * copy, oldest to newest, each leading to its report; where the result changed from the report
 * before it, said in words ("Changed: good → bad"), not only by a colour; and the change log's
 * entries for those reports (privacy changes, removals). From the copy only (history:timeline).
 */
import type { ReportChange } from '../../../shared/contract';
import { joinSentences } from '../../../shared/i18n/errorSentence';
import { isAvailable, useUrlTimeline } from '../lib/history';
import { useWords } from '../lib/i18n';
import { KIND_LABELS, whatChangedText } from '../lib/offlineWords';
import { resultLabel } from '../lib/reportWords';
import { DateText, ResultBadge } from './Badges';
import { ErrorView } from './ErrorView';
import { HistoryNotSynced } from './HistoryNotSynced';
import { LoadingPlaceholder } from './Skeleton';

function ChangeEntry({ change }: { change: ReportChange }) {
  const words = useWords();
  const what = whatChangedText(words, change);
  return (
    <li>
      <DateText value={change.at} />{' '}
      <span className={`badge badge-change-${change.kind}`}>{words(KIND_LABELS[change.kind])}</span>{' '}
      {words('history.report_link', { id: change.id })}
      {what !== '' && <span>{words('history.timeline.change_detail', { what })}</span>}
    </li>
  );
}

export function UrlTimeline({
  profileId,
  url,
  reportId,
}: {
  profileId: string;
  url: string;
  reportId: string;
}) {
  const words = useWords();
  const query = useUrlTimeline(profileId, url);
  const answer = isAvailable(query.data) ? query.data : null;
  const changedAt = new Map((answer?.transitions ?? []).map((t) => [t.id, t]));
  return (
    <section className="card url-timeline" aria-labelledby="url-timeline-title">
      <h2 id="url-timeline-title" className="section-title">
        {words('history.timeline.heading')}
      </h2>
      {query.isError && <ErrorView error={query.error} onRetry={() => void query.refetch()} />}
      {query.isPending && <LoadingPlaceholder lines={3} label={words('history.loading')} />}
      {query.data && !query.data.available && <HistoryNotSynced reason={query.data.reason} />}
      {answer && (
        <>
          <p className="muted">
            {joinSentences(words, [
              words('history.timeline.summary', {
                count: answer.reports.length,
                changes: answer.transitions.length,
              }),
              // Joined as the language joins sentences (no space in Japanese or Chinese).
              ...(answer.skipped > 0 ? [words('history.timeline.skipped', { count: answer.skipped })] : []),
            ])}
          </p>
          <ol className="url-timeline-list">
            {answer.reports.map((report) => {
              const transition = changedAt.get(report.id);
              const here = report.id === reportId;
              return (
                <li
                  key={report.id}
                  className={transition ? 'changed' : undefined}
                  aria-current={here ? 'true' : undefined}
                >
                  <DateText value={report.generatedAt} /> <ResultBadge result={report.result} />{' '}
                  {here ? (
                    <strong>{words('history.timeline.this_report', { id: report.id })}</strong>
                  ) : (
                    <a href={`#/reports/${encodeURIComponent(report.id)}`}>
                      {words('history.report_link', { id: report.id })}
                    </a>
                  )}
                  {transition && (
                    <strong className="url-timeline-change">
                      {words('history.timeline.changed', {
                        from: resultLabel(words, transition.from),
                        to: resultLabel(words, transition.to),
                      })}
                    </strong>
                  )}
                </li>
              );
            })}
          </ol>
          {answer.changes.length > 0 && (
            <>
              <h3 className="section-title">{words('history.timeline.log')}</h3>
              <ul className="url-timeline-log">
                {answer.changes.map((change) => (
                  <ChangeEntry key={`${change.id} ${change.at} ${change.kind}`} change={change} />
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
