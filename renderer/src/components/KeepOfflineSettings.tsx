/**
 * Settings › Keep available offline: the per-profile switch, how often the newest reports are
 * checked, the notification of bad news, when the copy was last checked, and "Check for new
 * reports now". Every change is saved at once (profiles.json, in the core) and announced.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OfflineOptions, RefreshMinutes } from '../../../shared/contract';
import { announce } from '../lib/announce';
import { useToasts } from '../lib/appState';
import { call, errorOf } from '../lib/bridge';
import { invalidateChanges, offlineKeys, useOfflineEvents, useOfflineState } from '../lib/offlineQueries';
import { INTERVAL_LABELS, lastCheckedText, quickRefreshText } from '../lib/offlineWords';
import { ErrorView } from './ErrorView';
import { SkeletonBlock } from './Skeleton';
import { WriteActionButton } from './WriteActionButton';

const INTERVAL_ID = 'keep-offline-interval';

function intervalValue(minutes: RefreshMinutes): string {
  return minutes === null ? 'manual' : String(minutes);
}

export function KeepOfflineSettings({ profileId }: { profileId: string }) {
  useOfflineEvents(profileId);
  const client = useQueryClient();
  const toasts = useToasts();
  const state = useOfflineState(profileId);

  const save = useMutation({
    mutationFn: (changes: Partial<OfflineOptions>) => call('offline:set', { profileId, ...changes }),
    onSuccess: (next, changes) => {
      client.setQueryData(offlineKeys.state(profileId), next);
      if (changes.keepOffline !== undefined) {
        announce(
          next.keepOffline
            ? 'Keep available offline is on: ReportDesk keeps this copy current.'
            : 'Keep available offline is off.',
        );
      } else {
        announce('Saved.');
      }
    },
    onError: (thrown) => toasts.show(errorOf(thrown).message, 'error'),
  });
  const check = useMutation({
    mutationFn: () => call('cache:sync', { quick: true }),
    onSuccess: (summary) => {
      invalidateChanges(client, profileId);
      announce(quickRefreshText(summary));
    },
    onError: (thrown) => toasts.show(errorOf(thrown).message, 'error'),
  });

  const data = state.data;
  return (
    <>
      <h2 className="section-title" id="keep-offline-title">
        Keep available offline
      </h2>
      <div className="card keep-offline" aria-labelledby="keep-offline-title" role="group">
        {state.isPending && <SkeletonBlock lines={3} />}
        {state.isError && <ErrorView error={state.error} onRetry={() => void state.refetch()} />}
        {data && (
          <>
            <label className="check-row">
              <input
                type="checkbox"
                checked={data.keepOffline}
                disabled={save.isPending}
                onChange={(e) => save.mutate({ keepOffline: e.target.checked })}
              />
              Keep this profile’s reports available offline
            </label>
            <p className="field-hint">
              While this is on and the Report Service can be reached, ReportDesk checks for new reports by
              itself and reads every report once a day. On battery power, the daily read waits for mains power
              or for “Make available offline”.
            </p>
            <div className="form-field inline-field">
              <label htmlFor={INTERVAL_ID}>Check for new reports</label>
              <select
                id={INTERVAL_ID}
                value={intervalValue(data.refreshMinutes)}
                disabled={save.isPending}
                onChange={(e) =>
                  save.mutate({
                    refreshMinutes:
                      e.target.value === 'manual' ? null : (Number(e.target.value) as 5 | 15 | 60),
                  })
                }
              >
                {INTERVAL_LABELS.map(({ value, label }) => (
                  <option key={intervalValue(value)} value={intervalValue(value)}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
            <label className="check-row">
              <input
                type="checkbox"
                checked={data.notifyBad}
                disabled={save.isPending}
                onChange={(e) => save.mutate({ notifyBad: e.target.checked })}
              />
              Notify me when new reports are bad or reports turn bad
            </label>
            <p className="keep-offline-checked" role="status">
              {data.running === 'quick'
                ? 'Checking for new reports…'
                : data.running === 'full'
                  ? 'Reading every report…'
                  : lastCheckedText(data)}
            </p>
            {data.waitingForPower && (
              <p className="field-hint">
                Today’s full read waits for mains power. “Make available offline” runs it now.
              </p>
            )}
            {data.lastError && (
              <ErrorView error={data.lastError} title="The last automatic check did not work." />
            )}
            <div className="form-actions">
              <WriteActionButton
                className="button"
                busy={check.isPending || data.running !== null}
                onClick={() => check.mutate()}
              >
                Check for new reports now
              </WriteActionButton>
            </div>
          </>
        )}
      </div>
    </>
  );
}
