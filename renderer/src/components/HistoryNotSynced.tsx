/**
 * History before the profile's first full read: a partial copy would give wrong numbers, so this
 * says so and offers the same "Make available offline" as Settings (a full sync, which also
 * turns "Keep available offline" on). Its end refreshes history (the keys sit under the cache
 * status's).
 */
import type { HistoryUnavailable } from '../../../shared/contract';
import { useSync } from '../lib/appState';
import { useWords } from '../lib/i18n';
import { ErrorView } from './ErrorView';
import { SyncProgressBar } from './SyncProgressBar';
import { WriteActionButton } from './WriteActionButton';

export function HistoryNotSynced({ reason }: { reason: HistoryUnavailable['reason'] }) {
  const words = useWords();
  const sync = useSync();
  if (reason === 'no_profile') return <p className="notice">{words('history.no_profile')}</p>;
  return (
    <div className="card history-not-synced">
      <p>{words('history.not_synced')}</p>
      {sync.running && <SyncProgressBar />}
      {sync.error && <ErrorView error={sync.error} title={words('settings.sync_failed')} />}
      <div className="form-actions">
        <WriteActionButton className="button primary" onClick={sync.start} busy={sync.running}>
          {words(sync.running ? 'settings.downloading' : 'settings.make_available_offline')}
        </WriteActionButton>
      </div>
    </div>
  );
}
