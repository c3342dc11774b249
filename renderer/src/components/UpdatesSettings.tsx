/**
 * Settings › Updates: the running version, automatic checks on or off, the channel, "Check
 * now", when ReportDesk last checked, what happened, and the new version's release notes —
 * as text, never HTML. App-wide: the same for every profile.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { UpdateChannel, UpdatePreferences, UpdateStatus } from '../../../shared/contract';
import type { AppError } from '../../../shared/errors';
import { call, errorOf } from '../lib/bridge';
import { CHANNEL_OPTIONS, failureSentence, unmanagedSentence } from '../lib/updateWords';
import { UPDATES_KEY, useUpdateStatus } from '../lib/updates';
import { DateText } from './Badges';
import { ErrorView } from './ErrorView';
import { FieldRow } from './FieldValue';
import { SkeletonBlock } from './Skeleton';

export function UpdatesSettings() {
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
      <h2 className="section-title">Updates</h2>
      <div className="card">
        {status.isPending && <SkeletonBlock lines={3} />}
        {status.isError && <ErrorView error={status.error} onRetry={() => void status.refetch()} />}
        {data && !data.managed && (
          <p className="field-hint">
            {unmanagedSentence(data.unmanagedReason)}
            {data.currentVersion && ` This is ReportDesk ${data.currentVersion}.`}
          </p>
        )}
        {data?.managed && (
          <>
            <dl className="fields">
              <FieldRow label="Version">{data.currentVersion}</FieldRow>
              <FieldRow label="Last checked">
                {data.lastCheckedAt ? (
                  <DateText value={data.lastCheckedAt} />
                ) : (
                  <span className="muted">Never</span>
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
              Check for updates automatically
            </label>
            <p className="field-hint" id={hintId}>
              ReportDesk checks 10 seconds after it starts and every 6 hours, downloads a new version in the
              background and installs it {data.install === 'asks-admin' ? 'when you say so' : 'when you quit'}
              . Every update must be signed with the ReportDesk release key.
            </p>
            <div className="toolbar-field update-channel">
              <label htmlFor={channelId}>Channel</label>
              <select
                id={channelId}
                value={data.preferences.channel}
                disabled={busy === 'preferences'}
                onChange={(e) => void prefer({ channel: e.target.value as UpdateChannel })}
              >
                {CHANNEL_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </div>
            <p className={data.failure ? 'field-error' : 'field-hint'} role="status">
              {statusSentence(data)}
            </p>
            {data.update?.releaseNotes && (
              <section aria-labelledby={notesId} className="release-notes">
                <h3 id={notesId}>What’s new in {data.update.version}</h3>
                <div className="release-notes-text">{data.update.releaseNotes}</div>
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
                {busy === 'check' || data.phase === 'checking' ? 'Checking…' : 'Check now'}
              </button>
            </div>
          </>
        )}
      </div>
    </>
  );
}

/** One sentence for where the updates stand. */
function statusSentence(status: UpdateStatus): string {
  const failure = status.failure ? failureSentence(status.failure) : '';
  switch (status.phase) {
    case 'checking':
      return 'Checking for updates…';
    case 'downloading':
      return `Downloading ReportDesk ${status.update?.version ?? ''}… ${status.downloadPercent ?? 0}%`;
    case 'installing':
      return `Installing ReportDesk ${status.update?.version ?? ''}…`;
    case 'ready':
      return `ReportDesk ${status.update?.version ?? ''} is downloaded and verified; restart to update.${failure ? ` ${failure}` : ''}`;
    case 'idle':
      if (failure) return failure;
      return status.lastCheckedAt
        ? 'ReportDesk is up to date.'
        : 'ReportDesk has not checked for updates yet.';
  }
}
