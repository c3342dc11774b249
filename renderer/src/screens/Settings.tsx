/** Settings: the offline copy — its size, "Make available offline", and "Clear cache". */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SyncSummary } from '../../../shared/contract';
import { ErrorView } from '../components/ErrorView';
import { ConfirmDialog } from '../components/Modal';
import { SyncProgressBar } from '../components/Shell';
import { SkeletonBlock } from '../components/Skeleton';
import { UpdatesSettings } from '../components/UpdatesSettings';
import { DateText } from '../components/Badges';
import { FieldRow } from '../components/FieldValue';
import { KeepOfflineSettings } from '../components/KeepOfflineSettings';
import { WriteActionButton } from '../components/WriteActionButton';
import { useSync, useToasts } from '../lib/appState';
import { call } from '../lib/bridge';
import { formatBytes } from '../lib/format';
import { invalidateReportLists, queryKeys, useCacheStatus } from '../lib/queries';

export function SettingsScreen({ profileId }: { profileId: string }) {
  const client = useQueryClient();
  const toasts = useToasts();
  const status = useCacheStatus(profileId);
  const sync = useSync();
  const [confirmClear, setConfirmClear] = useState(false);
  // The cache says a sync runs, and it is not this window's: another window or a CLI run holds it.
  const syncingElsewhere = status.data?.syncing === true && !sync.running;

  const clear = useMutation({
    mutationFn: () => call('cache:clear'),
    onSuccess: (next) => {
      setConfirmClear(false);
      client.setQueryData(queryKeys.cacheStatus(profileId), next);
      // Cached answers were just removed: what is on screen must be asked for again.
      invalidateReportLists(client, profileId);
      toasts.show('The offline copy was cleared.');
    },
  });

  return (
    <section className="screen" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      {status.data?.exposedDataDir && (
        <p className="banner banner-inline" role="alert">
          Other users of this computer can read ReportDesk’s data folder {status.data.exposedDataDir}, which
          holds your saved reports. Make it private: run chmod 700 on that folder, then restart ReportDesk.
        </p>
      )}
      <h2 className="section-title">Offline copy</h2>
      <div className="card">
        {status.isPending && <SkeletonBlock lines={3} />}
        {status.isError && <ErrorView error={status.error} onRetry={() => void status.refetch()} />}
        {status.data && (
          <dl className="fields">
            <FieldRow label="Reports saved for this profile">{status.data.reportCount}</FieldRow>
            <FieldRow label="Cache size (all profiles)">{formatBytes(status.data.sizeBytes)}</FieldRow>
            <FieldRow label="Last made available offline">
              {status.data.lastFullSyncAt ? (
                <DateText value={status.data.lastFullSyncAt} />
              ) : (
                <span className="muted">Never</span>
              )}
            </FieldRow>
          </dl>
        )}
        <p className="field-hint">
          “Make available offline” downloads every report of this profile so you can browse and search them
          without a connection. Reports you open are saved as you go.
        </p>
        {sync.running && <SyncProgressBar />}
        {syncingElsewhere && (
          <p className="field-hint" role="status">
            Reports are being made available offline by another ReportDesk window or command. This page
            updates when it finishes.
          </p>
        )}
        {sync.error && (
          <ErrorView
            error={sync.error}
            title={
              sync.error.kind === 'busy'
                ? 'Reports are already being made available offline elsewhere.'
                : 'Making reports available offline failed.'
            }
            onRetry={sync.start}
          />
        )}
        {sync.summary && !sync.running && (
          <p className="success" role="status">
            {sync.summary.fetched} reports are available offline ({sync.summary.removed} removed that no
            longer exist).{keptNote(sync.summary.reason)}
          </p>
        )}
        <div className="form-actions">
          <WriteActionButton
            className="button primary"
            onClick={sync.start}
            busy={sync.running || syncingElsewhere}
          >
            {sync.running ? 'Downloading…' : 'Make available offline'}
          </WriteActionButton>
          <button
            type="button"
            className="button danger"
            onClick={() => setConfirmClear(true)}
            disabled={sync.running}
          >
            Clear cache
          </button>
        </div>
      </div>
      <UpdatesSettings />

      <KeepOfflineSettings profileId={profileId} />
      {confirmClear && (
        <ConfirmDialog
          title="Clear the offline copy?"
          confirmLabel="Clear cache"
          action={clear}
          onCancel={() => setConfirmClear(false)}
        >
          <p>
            The saved reports and account data are removed from this computer. The reports on the Report
            Service are not touched. While offline, nothing will be left to show.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** Why the sync removed nothing from the offline copy, when the service's list could not be trusted. */
function keptNote(reason: SyncSummary['reason']): string {
  switch (reason) {
    case null:
      return '';
    case 'listing_changed':
      return ' The reports on the service changed during the download, so nothing was removed from the offline copy; download again to settle it.';
    case 'paging_ignored':
      return ' The Report Service seems to ignore paging, so the download stopped early and nothing was removed from the offline copy.';
    case 'page_limit':
      return ' The Report Service sent more pages than it has reports, so the download stopped early and nothing was removed from the offline copy.';
  }
}
