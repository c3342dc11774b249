import { ErrorView } from '../components/ErrorView';
import { FieldTable } from '../components/FieldValue';
import { LoadingPlaceholder } from '../components/Skeleton';
import { useReportVisibleSource } from '../lib/appState';
import { ageOf } from '../lib/format';
import { useAccount, useProfiles } from '../lib/queries';

export function AccountScreen({ profileId }: { profileId: string }) {
  const profiles = useProfiles();
  const account = useAccount(profileId);
  useReportVisibleSource(account.data);
  const profile = profiles.data?.profiles.find((p) => p.id === profileId);

  return (
    <section className="screen" aria-labelledby="account-title">
      <div className="screen-header">
        <h1 id="account-title">Account</h1>
        {account.data?.source === 'cache' && (
          <span className="source-note" title={new Date(account.data.fetchedAt).toLocaleString()}>
            From cache, {ageOf(account.data.fetchedAt)} old
          </span>
        )}
      </div>
      {profile && (
        <p className="muted">
          Profile <strong>{profile.name}</strong> · <span className="mono">{profile.baseUrl}</span>
        </p>
      )}
      {account.isPending && <LoadingPlaceholder lines={5} label="Loading the account…" />}
      {account.isError && (
        <ErrorView
          error={account.error}
          title="The account could not be loaded."
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
