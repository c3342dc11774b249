/**
 * Settings › Updates: the running version, automatic checks on or off, the channel, "Check
 * now", when ReportDesk last checked, what happened, and the new version's release notes —
 * as text, never HTML. App-wide: the same for every profile.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { UpdateChannel, UpdatePreferences, UpdateStatus } from '../../../shared/contract';
import type { AppError } from '../../../shared/errors';
import { joinSentences } from '../../../shared/i18n/errorSentence';
import { call, errorOf } from '../lib/bridge';
import { useWords, type RendererWords } from '../lib/i18n';
import { CHANNEL_OPTIONS, failureSentence, unmanagedSentence } from '../lib/updateWords';
import { UPDATES_KEY, useUpdateStatus } from '../lib/updates';
import { DateText } from './Badges';
import { ErrorView } from './ErrorView';
import { FieldRow } from './FieldValue';
import { SkeletonBlock } from './Skeleton';

export function UpdatesSettings() {
  const words = useWords();
  const status = useUpdateStatus();
  const client = useQueryClient();
  const hintId = useId();
  const channelId = useId();
  const notesId = useId();
  const [busy, setBusy] = useState<'check' | 'preferences' | null>(null);
  const [error, setError] = useState<AppError | null>(null);

  async function run(kind: 'check' | 'preferences', action: () => Promise<UpdateStatus>) {
    setBusy(kind);
    setError(null);
    try {
      client.setQueryData(UPDATES_KEY, await action());
    } catch (thrown) {
      setError(errorOf(thrown));
    } finally {
      setBusy(null);
    }
  }
  const prefer = (changes: Partial<UpdatePreferences>) =>
    run('preferences', () => call('updates:setPreferences', changes));

  const data = status.data;
  return (
    <>
      <h2 className="section-title">{words('updates.heading')}</h2>
      <div className="card">
        {status.isPending && <SkeletonBlock lines={3} />}
        {status.isError && <ErrorView error={status.error} onRetry={() => void status.refetch()} />}
        {data && !data.managed && (
          <p className="field-hint">
            {data.currentVersion
              ? words('updates.unmanaged_with_version', {
                  reason: unmanagedSentence(words, data.unmanagedReason),
                  version: data.currentVersion,
                })
              : unmanagedSentence(words, data.unmanagedReason)}
          </p>
        )}
        {data?.managed && (
          <>
            <dl className="fields">
              <FieldRow label={words('updates.version')}>{data.currentVersion}</FieldRow>
              <FieldRow label={words('updates.last_checked')}>
                {data.lastCheckedAt ? (
                  <DateText value={data.lastCheckedAt} />
                ) : (
                  <span className="muted">{words('settings.never')}</span>
                )}
              </FieldRow>
            </dl>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={data.preferences.automatic}
                disabled={busy === 'preferences'}
                aria-describedby={hintId}
                onChange={(e) => void prefer({ automatic: e.target.checked })}
              />
              {words('updates.automatic')}
            </label>
            <p className="field-hint" id={hintId}>
              {words(
                data.install === 'asks-admin'
                  ? 'updates.automatic.hint_asks'
                  : 'updates.automatic.hint_on_quit',
              )}
            </p>
            <div className="toolbar-field update-channel">
              <label htmlFor={channelId}>{words('updates.channel')}</label>
              <select
                id={channelId}
                value={data.preferences.channel}
                disabled={busy === 'preferences'}
                onChange={(e) => void prefer({ channel: e.target.value as UpdateChannel })}
              >
                {CHANNEL_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {words(option.label)}
                  </option>
                ))}
              </select>
            </div>
            <p className={data.failure ? 'field-error' : 'field-hint'} role="status">
              {statusSentence(words, data)}
            </p>
            {data.update?.releaseNotes && (
              <section aria-labelledby={notesId} className="release-notes">
                <h3 id={notesId}>{words('updates.release_notes', { version: data.update.version })}</h3>
                <div className="release-notes-text" dir="auto">
                  {data.update.releaseNotes}
                </div>
              </section>
            )}
            {error && <ErrorView error={error} />}
            <div className="form-actions">
              <button
                type="button"
                className="button"
                disabled={busy === 'check' || data.phase === 'checking' || data.phase === 'downloading'}
                onClick={() => void run('check', () => call('updates:check'))}
              >
                {words(
                  busy === 'check' || data.phase === 'checking'
                    ? 'updates.checking_short'
                    : 'updates.check_now',
                )}
              </button>
            </div>
          </>
        )}
      </div>
    </>
  );
}

/** One sentence for where the updates stand. */
function statusSentence(words: RendererWords, status: UpdateStatus): string {
  const failure = status.failure ? failureSentence(words, status.failure) : '';
  const version = status.update?.version ?? '';
  switch (status.phase) {
    case 'checking':
      return words('updates.status.checking');
    case 'downloading':
      return words('updates.status.downloading', { version, percent: (status.downloadPercent ?? 0) / 100 });
    case 'installing':
      return words('updates.status.installing', { version });
    case 'ready': {
      const ready = words('updates.status.ready', { version });
      return failure ? joinSentences(words, [ready, failure]) : ready;
    }
    case 'idle':
      if (failure) return failure;
      return words(status.lastCheckedAt ? 'updates.status.up_to_date' : 'updates.status.not_checked');
  }
}
