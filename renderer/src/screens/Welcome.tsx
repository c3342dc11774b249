/** First run: add a profile, or try the app at once against the embedded demo service. */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProfileView } from '../../../shared/contract';
import type { AppError } from '../../../shared/errors';
import { ErrorView } from '../components/ErrorView';
import { ProfileForm } from '../components/ProfileForm';
import { call, errorOf } from '../lib/bridge';
import { useWords } from '../lib/i18n';
import { queryKeys } from '../lib/queries';
import { navigate } from '../lib/router';

export function Welcome({ firstRun }: { firstRun: boolean }) {
  const words = useWords();
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
        <h1 id="welcome-title">{words(firstRun ? 'welcome.heading' : 'welcome.add_profile.heading')}</h1>
        <p className="lead">{words(firstRun ? 'welcome.lead' : 'profile.what_it_is')}</p>
      </div>
      <div className="welcome-grid">
        <div className="card">
          <h2>{words('welcome.connect')}</h2>
          <ProfileForm
            onSaved={onSaved}
            submitLabel={words('profiles.add')}
            initialName={firstRun ? words('welcome.first_profile_name') : ''}
          />
        </div>
        <div className="card demo-card">
          <h2>{words('welcome.demo.heading')}</h2>
          <p>{words('welcome.demo.text')}</p>
          <button type="button" className="button" onClick={() => void startDemo()} disabled={demoBusy}>
            {words(demoBusy ? 'welcome.demo.starting' : 'welcome.demo.start')}
          </button>
          {demoError && <ErrorView error={demoError} onRetry={() => void startDemo()} hideProfileLinks />}
        </div>
      </div>
    </section>
  );
}
