/**
 * Settings: the app's language and updates (app-wide), and this profile's offline copy — its
 * size, "Make available offline", "Clear cache" — and "Keep available offline".
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SyncSummary } from '../../../shared/contract';
import type { RendererMessageId as MessageId } from '../../../shared/i18n/messages';
import { DateText } from '../components/Badges';
import { ErrorView } from '../components/ErrorView';
import { FieldRow } from '../components/FieldValue';
import { KeepOfflineSettings } from '../components/KeepOfflineSettings';
import { LanguageSettings } from '../components/LanguageSettings';
import { ConfirmDialog } from '../components/Modal';
import { SkeletonBlock } from '../components/Skeleton';
import { SyncProgressBar } from '../components/SyncProgressBar';
import { UpdatesSettings } from '../components/UpdatesSettings';
import { WriteActionButton } from '../components/WriteActionButton';
import { useSync, useToasts } from '../lib/appState';
import { call } from '../lib/bridge';
import { formatBytes } from '../lib/format';
import { useWords } from '../lib/i18n';
import { invalidateReportLists, queryKeys, useCacheStatus } from '../lib/queries';

/** Why the sync removed nothing from the offline copy, when the service's list could not be trusted. */
const KEPT_NOTES: Record<NonNullable<SyncSummary['reason']>, MessageId> = {
  listing_changed: 'settings.sync_kept.listing_changed',
  paging_ignored: 'settings.sync_kept.paging_ignored',
  page_limit: 'settings.sync_kept.page_limit',
};

export function SettingsScreen({ profileId }: { profileId: string }) {
  const words = useWords();
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
      toasts.show(words('settings.cleared'));
    },
  });

  const summary = sync.summary;
  return (
    <section className="screen" aria-labelledby="settings-title">
      <h1 id="settings-title">{words('settings.heading')}</h1>
      {status.data?.exposedDataDir && (
        <p className="banner banner-inline" role="alert">
          {words('settings.data_folder_exposed', { folder: status.data.exposedDataDir })}
        </p>
      )}
      <LanguageSettings />
      <h2 className="section-title">{words('settings.offline_copy')}</h2>
      <div className="card">
        {status.isPending && <SkeletonBlock lines={3} />}
        {status.isError && <ErrorView error={status.error} onRetry={() => void status.refetch()} />}
        {status.data && (
          <dl className="fields">
            <FieldRow label={words('settings.reports_saved')}>
              {words.intl.formatNumber(status.data.reportCount)}
            </FieldRow>
            <FieldRow label={words('settings.cache_size')}>
              {formatBytes(words, status.data.sizeBytes)}
            </FieldRow>
            <FieldRow label={words('settings.last_full_sync')}>
              {status.data.lastFullSyncAt ? (
                <DateText value={status.data.lastFullSyncAt} />
              ) : (
                <span className="muted">{words('settings.never')}</span>
              )}
            </FieldRow>
          </dl>
        )}
        <p className="field-hint">{words('settings.offline_copy.hint')}</p>
        {sync.running && <SyncProgressBar />}
        {syncingElsewhere && (
          <p className="field-hint" role="status">
            {words('settings.syncing_elsewhere')}
          </p>
        )}
        {sync.error && (
          <ErrorView
            error={sync.error}
            title={words(sync.error.kind === 'busy' ? 'settings.sync_busy' : 'settings.sync_failed')}
            onRetry={sync.start}
          />
        )}
        {summary && !sync.running && (
          <p className="success" role="status">
            {words('settings.sync_done', { fetched: summary.fetched, removed: summary.removed })}
            {summary.reason !== null && ` ${words(KEPT_NOTES[summary.reason])}`}
          </p>
        )}
        <div className="form-actions">
          <WriteActionButton
            className="button primary"
            onClick={sync.start}
            busy={sync.running || syncingElsewhere}
          >
            {words(sync.running ? 'settings.downloading' : 'settings.make_available_offline')}
          </WriteActionButton>
          <button
            type="button"
            className="button danger"
            onClick={() => setConfirmClear(true)}
            disabled={sync.running}
          >
            {words('settings.clear_cache')}
          </button>
        </div>
      </div>
      <UpdatesSettings />

      <KeepOfflineSettings profileId={profileId} />
      {confirmClear && (
        <ConfirmDialog
          title={words('settings.clear_dialog.title')}
          confirmLabel={words('settings.clear_cache')}
          action={clear}
          onCancel={() => setConfirmClear(false)}
        >
          <p>{words('settings.clear_dialog.body')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
