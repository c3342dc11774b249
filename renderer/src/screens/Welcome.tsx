/** First run: add a profile, or try the app at once against the embedded demo service. */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProfileView } from '../../../shared/contract';
import type { AppError } from '../../../shared/errors';
import { ErrorView } from '../components/ErrorView';
import { ProfileForm } from '../components/ProfileForm';
import { call, errorOf } from '../lib/bridge';
import { queryKeys } from '../lib/queries';
import { navigate } from '../lib/router';

export function Welcome({ firstRun }: { firstRun: boolean }) {
  const client = useQueryClient();
  const [demoBusy, setDemoBusy] = useState(false);
  const [demoError, setDemoError] = useState<AppError | null>(null);

  async function startDemo() {
    setDemoBusy(true);
    setDemoError(null);
    try {
      const state = await call('profiles:startDemo');
      client.setQueryData(queryKeys.profiles, state);
      navigate('/reports');
    } catch (thrown) {
      setDemoError(errorOf(thrown));
    } finally {
      setDemoBusy(false);
    }
  }

  async function onSaved(profile: ProfileView) {
    // The profile the user just added is the one they want to use.
    const state = await call('profiles:activate', { id: profile.id });
    client.setQueryData(queryKeys.profiles, state);
    navigate('/reports');
  }

  return (
    <section className={firstRun ? 'welcome first-run' : 'welcome'} aria-labelledby="welcome-title">
      <div className="welcome-intro">
        <h1 id="welcome-title">{firstRun ? 'Welcome to ReportDesk' : 'Add a profile'}</h1>
        <p className="lead">
          {firstRun
            ? 'Browse, search and manage the reports of your Report Service — online or from the offline copy.'
            : 'A profile is a Report Service address and its API key.'}
        </p>
      </div>
      <div className="welcome-grid">
        <div className="card">
          <h2>Connect to your Report Service</h2>
          <ProfileForm
            onSaved={onSaved}
            submitLabel="Add profile"
            initialName={firstRun ? 'My reports' : ''}
          />
        </div>
        <div className="card demo-card">
          <h2>Just looking?</h2>
          <p>Start a demo service on this computer with sample reports. Nothing leaves your machine.</p>
          <button type="button" className="button" onClick={() => void startDemo()} disabled={demoBusy}>
            {demoBusy ? 'Starting the demo…' : 'Try with a local demo service'}
          </button>
          {demoError && <ErrorView error={demoError} onRetry={() => void startDemo()} hideProfileLinks />}
        </div>
      </div>
    </section>
  );
}
