/**
 * The progress of "Make available offline": under the header on every screen (Shell) and in
 * Settings. Its own module: Settings (loaded later) and the shell both use it, and neither
 * imports the other.
 */
import { useSync } from '../lib/appState';
import { useWords } from '../lib/i18n';

export function SyncProgressBar() {
  const words = useWords();
  const sync = useSync();
  const { progress } = sync;
  const value = progress?.total ? Math.min(progress.fetched, progress.total) : undefined;
  const label = progress
    ? progress.total !== null
      ? words('sync.progress_of', { fetched: progress.fetched, total: progress.total })
      : progress.lastPage
        ? words('sync.progress_pages', {
            fetched: progress.fetched,
            page: progress.page,
            lastPage: progress.lastPage,
          })
        : words('sync.progress_page', { fetched: progress.fetched, page: progress.page })
    : words('sync.starting');
  return (
    <div className="sync-progress">
      <progress
        max={progress?.total ?? undefined}
        value={value}
        aria-label={words('sync.making_available')}
      />
      <span className="muted" aria-live="polite">
        {label}
      </span>
      <button type="button" className="button small" onClick={sync.cancel}>
        {words('dialog.cancel')}
      </button>
    </div>
  );
}
