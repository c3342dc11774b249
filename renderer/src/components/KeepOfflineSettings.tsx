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
import { errorText } from '../lib/errorWords';
import { useWords } from '../lib/i18n';
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
  const words = useWords();
  useOfflineEvents(profileId);
  const client = useQueryClient();
  const toasts = useToasts();
  const state = useOfflineState(profileId);

  const save = useMutation({
    mutationFn: (changes: Partial<OfflineOptions>) => call('offline:set', { profileId, ...changes }),
    onSuccess: (next, changes) => {
      client.setQueryData(offlineKeys.state(profileId), next);
      if (changes.keepOffline !== undefined) {
        announce(words(next.keepOffline ? 'keep_offline.announce_on_settings' : 'keep_offline.announce_off'));
      } else {
        announce(words('settings.saved'));
      }
    },
    onError: (thrown) => toasts.show(errorText(words, errorOf(thrown)), 'error'),
  });
  const check = useMutation({
    mutationFn: () => call('cache:sync', { quick: true }),
    onSuccess: (summary) => {
      invalidateChanges(client, profileId);
      announce(quickRefreshText(words, summary));
    },
    onError: (thrown) => toasts.show(errorText(words, errorOf(thrown)), 'error'),
  });

  const data = state.data;
  return (
    <>
      <h2 className="section-title" id="keep-offline-title">
        {words('keep_offline.heading')}
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
              {words('keep_offline.switch')}
            </label>
            <p className="field-hint">{words('keep_offline.explanation')}</p>
            <div className="form-field inline-field">
              <label htmlFor={INTERVAL_ID}>{words('keep_offline.interval')}</label>
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
                    {words(label)}
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
              {words('keep_offline.notify')}
            </label>
            <p className="keep-offline-checked" role="status">
              {data.running === 'quick'
                ? words('keep_offline.running_quick')
                : data.running === 'full'
                  ? words('keep_offline.running_full')
                  : lastCheckedText(words, data)}
            </p>
            {data.waitingForPower && <p className="field-hint">{words('keep_offline.waiting_for_power')}</p>}
            {data.lastError && (
              <ErrorView error={data.lastError} title={words('keep_offline.last_check_failed')} />
            )}
            <div className="form-actions">
              <WriteActionButton
                className="button"
                busy={check.isPending || data.running !== null}
                onClick={() => check.mutate()}
              >
                {words('keep_offline.check_now')}
              </WriteActionButton>
            </div>
          </>
        )}
      </div>
    </>
  );
}
