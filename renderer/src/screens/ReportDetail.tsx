/** One report: the known fields laid out, every other field the service sent, and actions. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { reportLink } from '../../../shared/links';
import type { Report } from '../../../shared/model';
import { DateText, PrivacyBadge, ResultBadge } from '../components/Badges';
import { BackToReports } from '../components/BackLink';
import { FieldRow, FieldTable } from '../components/FieldValue';
import { ConfirmDialog } from '../components/Modal';
import { ReportFallback } from '../components/ReportFallback';
import { UrlTimeline } from '../components/UrlTimeline';
import { WriteActionButton } from '../components/WriteActionButton';
import { useReportVisibleSource, useToasts, useWriteBlockReason } from '../lib/appState';
import { call, errorOf } from '../lib/bridge';
import { errorText } from '../lib/errorWords';
import { timeAgo } from '../lib/format';
import { useWords } from '../lib/i18n';
import { applyReportDeleted, useReport } from '../lib/queries';
import { navigate } from '../lib/router';
import { useMarkSeenOnOpen } from '../lib/offlineQueries';

const KNOWN_FIELDS = ['id', 'url', 'result', 'generated_at', 'privacy', 'project'] as const;

/** The fields the detail screen does not lay out itself, in the order the service sent them. */
export function otherFields(report: Report): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(report)) {
    if (!(KNOWN_FIELDS as readonly string[]).includes(key)) rest[key] = value;
  }
  return rest;
}

export function ReportDetail({ profileId, id }: { profileId: string; id: string }) {
  const words = useWords();
  const client = useQueryClient();
  const toasts = useToasts();
  const query = useReport(profileId, id);
  useMarkSeenOnOpen(profileId, id, query.data !== undefined);
  const writeBlock = useWriteBlockReason();
  const [confirming, setConfirming] = useState(false);
  useReportVisibleSource(query.data);

  const remove = useMutation({
    mutationFn: () => call('reports:delete', { id }),
    onSuccess: () => {
      setConfirming(false);
      navigate('/reports');
      applyReportDeleted(client, profileId, id);
      toasts.show(words('report.deleted', { id }));
    },
  });

  if (!query.isSuccess) {
    return <ReportFallback query={query} id={id} label={words('report.screen')} skeletonLines={6} />;
  }

  const { report, source, fetchedAt } = query.data;
  const extra = otherFields(report);

  async function copyUrl() {
    try {
      await navigator.clipboard.writeText(report.url);
      toasts.show(words('report.url_copied'));
    } catch {
      toasts.show(words('report.url_not_copied'), 'error');
    }
  }

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(reportLink(report.id, profileId));
      toasts.show(words('report.link_copied'));
    } catch {
      toasts.show(words('report.link_not_copied'), 'error');
    }
  }

  async function openInBrowser() {
    try {
      const { opened } = await call('shell:openExternal', { url: report.url });
      // The browser preview has no way to start the user's browser: say so instead of nothing.
      toasts.show(words(opened ? 'report.opened_in_browser' : 'report.cannot_open_browser'));
    } catch (thrown) {
      toasts.show(errorText(words, errorOf(thrown)), 'error');
    }
  }

  return (
    <section className="screen screen-detail" aria-labelledby="report-title">
      <BackToReports />
      <div className="screen-header">
        <div>
          {/* The URL left to right inside a heading that keeps the page's alignment (issue 28). */}
          <h1 id="report-title" className="report-url">
            <bdi dir="ltr">{report.url}</bdi>
          </h1>
          <p className="muted">
            {source === 'cache'
              ? words('report.subtitle_from_copy', { id: report.id, ago: timeAgo(words, fetchedAt) })
              : words('report.title', { id: report.id })}
          </p>
        </div>
      </div>
      <div className="action-row" role="group" aria-label={words('report.actions')}>
        <button type="button" className="button" onClick={() => void copyUrl()}>
          {words('report.copy_url')}
        </button>
        <button type="button" className="button" onClick={() => void copyLink()}>
          {words('report.copy_link')}
        </button>
        <button type="button" className="button" onClick={() => void openInBrowser()}>
          {words('report.open_in_browser')}
        </button>
        <WriteActionButton className="button" onClick={() => navigate(`/reports/${report.id}/privacy`)}>
          {words('privacy_form.heading')}
        </WriteActionButton>
        <WriteActionButton
          className="button danger"
          onClick={() => {
            remove.reset();
            setConfirming(true);
          }}
        >
          {words('report.delete')}
        </WriteActionButton>
      </div>
      {writeBlock && <p className="muted write-block">{writeBlock}</p>}

      <div className="card">
        <dl className="fields">
          <FieldRow label={words('report.field.result')}>
            <ResultBadge result={report.result} />
          </FieldRow>
          <FieldRow label={words('report.field.privacy')}>
            <PrivacyBadge privacy={report.privacy} />
          </FieldRow>
          <FieldRow label={words('report.field.generated')}>
            <DateText value={report.generated_at} />
          </FieldRow>
          <FieldRow label={words('report.field.project')}>
            {report.project === null || report.project === undefined ? (
              <span className="muted">{words('field.none')}</span>
            ) : (
              <bdi>{String(report.project)}</bdi>
            )}
          </FieldRow>
          <FieldRow label={words('report.field.url')} valueClassName="field-text">
            <bdi dir="ltr">{report.url}</bdi>
          </FieldRow>
          <FieldRow label={words('report.field.id')} valueClassName="id-cell">
            {report.id}
          </FieldRow>
        </dl>
      </div>

      <h2 className="section-title">{words('report.more_fields')}</h2>
      <div className="card" aria-label={words('report.other_fields')}>
        {Object.keys(extra).length === 0 ? (
          <p className="muted">{words('report.no_other_fields')}</p>
        ) : (
          <FieldTable fields={extra} />
        )}
      </div>

      <UrlTimeline profileId={profileId} url={report.url} reportId={report.id} />

      {confirming && (
        <ConfirmDialog
          title={words('report.delete_dialog.title')}
          confirmLabel={words('report.delete_dialog.confirm')}
          action={remove}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {words.rich('report.delete_dialog.body', {
              url: (
                <strong className="break" dir="ltr">
                  {report.url}
                </strong>
              ),
            })}
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
