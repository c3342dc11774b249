import { ErrorView } from '../components/ErrorView';
import { FieldTable } from '../components/FieldValue';
import { LoadingPlaceholder } from '../components/Skeleton';
import { useReportVisibleSource } from '../lib/appState';
import { exactTime, timeAgo } from '../lib/format';
import { useWords } from '../lib/i18n';
import { useAccount, useProfiles } from '../lib/queries';

export function AccountScreen({ profileId }: { profileId: string }) {
  const words = useWords();
  const profiles = useProfiles();
  const account = useAccount(profileId);
  useReportVisibleSource(account.data);
  const profile = profiles.data?.profiles.find((p) => p.id === profileId);

  return (
    <section className="screen" aria-labelledby="account-title">
      <div className="screen-header">
        <h1 id="account-title">{words('account.heading')}</h1>
        {account.data?.source === 'cache' && (
          <span className="source-note" title={exactTime(words, account.data.fetchedAt)}>
            {words('source.offline_copy', { ago: timeAgo(words, account.data.fetchedAt) })}
          </span>
        )}
      </div>
      {profile && (
        <p className="muted">
          {words.rich('account.profile', {
            name: <strong dir="auto">{profile.name}</strong>,
            url: (
              <span className="mono" dir="ltr">
                {profile.baseUrl}
              </span>
            ),
          })}
        </p>
      )}
      {account.isPending && <LoadingPlaceholder lines={5} label={words('account.loading')} />}
      {account.isError && (
        <ErrorView
          error={account.error}
          title={words('account.load_failed')}
          onRetry={() => void account.refetch()}
        />
      )}
      {account.data && (
        <div className="card">
          <FieldTable fields={account.data.account} />
        </div>
      )}
    </section>
  );
}
