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
import { WriteActionButton } from '../components/WriteActionButton';
import { useReportVisibleSource, useToasts, useWriteBlockReason } from '../lib/appState';
import { call, errorOf } from '../lib/bridge';
import { ageOf } from '../lib/format';
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
      toasts.show(`Report ${id} was deleted.`);
    },
  });

  if (!query.isSuccess) {
    return <ReportFallback query={query} id={id} label="Report" skeletonLines={6} />;
  }

  const { report, source, fetchedAt } = query.data;
  const extra = otherFields(report);

  async function copyUrl() {
    try {
      await navigator.clipboard.writeText(report.url);
      toasts.show('The URL was copied.');
    } catch {
      toasts.show(
        'The URL could not be copied: the clipboard is not available. Select the URL and copy it.',
        'error',
      );
    }
  }

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(reportLink(report.id, profileId));
      toasts.show('A link to this report was copied. It opens in ReportDesk, in this profile.');
    } catch {
      toasts.show('The link could not be copied: the clipboard is not available.', 'error');
    }
  }

  async function openInBrowser() {
    try {
      const { opened } = await call('shell:openExternal', { url: report.url });
      // The browser preview has no way to start the user's browser: say so instead of nothing.
      toasts.show(
        opened
          ? 'The report’s URL was opened in your browser.'
          : 'This window cannot open your browser. Use Copy URL and paste it into your browser.',
      );
    } catch (thrown) {
      toasts.show(errorOf(thrown).message, 'error');
    }
  }

  return (
    <section className="screen screen-detail" aria-labelledby="report-title">
      <BackToReports />
      <div className="screen-header">
        <div>
          <h1 id="report-title" className="report-url">
            {report.url}
          </h1>
          <p className="muted">
            Report {report.id}
            {source === 'cache' && <> · from the offline copy, saved {ageOf(fetchedAt)} ago</>}
          </p>
        </div>
      </div>
      <div className="action-row" role="group" aria-label="Report actions">
        <button type="button" className="button" onClick={() => void copyUrl()}>
          Copy URL
        </button>
        <button type="button" className="button" onClick={() => void copyLink()}>
          Copy link
        </button>
        <button type="button" className="button" onClick={() => void openInBrowser()}>
          Open in browser
        </button>
        <WriteActionButton className="button" onClick={() => navigate(`/reports/${report.id}/privacy`)}>
          Edit privacy
        </WriteActionButton>
        <WriteActionButton
          className="button danger"
          onClick={() => {
            remove.reset();
            setConfirming(true);
          }}
        >
          Delete
        </WriteActionButton>
      </div>
      {writeBlock && <p className="muted write-block">{writeBlock}</p>}

      <div className="card">
        <dl className="fields">
          <FieldRow label="Result">
            <ResultBadge result={report.result} />
          </FieldRow>
          <FieldRow label="Privacy">
            <PrivacyBadge privacy={report.privacy} />
          </FieldRow>
          <FieldRow label="Generated">
            <DateText value={report.generated_at} />
          </FieldRow>
          <FieldRow label="Project">
            {report.project === null || report.project === undefined ? (
              <span className="muted">None</span>
            ) : (
              String(report.project)
            )}
          </FieldRow>
          <FieldRow label="URL" valueClassName="field-text">
            {report.url}
          </FieldRow>
          <FieldRow label="ID" valueClassName="id-cell">
            {report.id}
          </FieldRow>
        </dl>
      </div>

      <h2 className="section-title">More from the service</h2>
      <div className="card" aria-label="Other fields">
        {Object.keys(extra).length === 0 ? (
          <p className="muted">The service sent no other fields.</p>
        ) : (
          <FieldTable fields={extra} />
        )}
      </div>

      {confirming && (
        <ConfirmDialog
          title="Delete this report?"
          confirmLabel="Delete report"
          action={remove}
          onCancel={() => setConfirming(false)}
        >
          <p>
            The report for <strong className="break">{report.url}</strong> will be deleted from the Report
            Service. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
