/** The app: providers, core events and shortcuts, and the screen for the current route. */
import { QueryClientProvider, onlineManager, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { AppCommand } from '../../shared/contract';
import type { RendererMessageId as MessageId } from '../../shared/i18n/messages';
import { ErrorView } from './components/ErrorView';
import { PROFILE_SWITCHER_ID, Repairs, SHOW_SHORTCUTS_EVENT, Shell } from './components/Shell';
import { LoadingPlaceholder } from './components/Skeleton';
import { SyncProvider, ToastProvider, useSync, useToasts } from './lib/appState';
import { errorOf, onEvent } from './lib/bridge';
import { errorText } from './lib/errorWords';
import { currentWords, LanguageProvider, useWords } from './lib/i18n';
import {
  applyConnectivity,
  applyLanguageState,
  applyProfilesChanged,
  refreshProfileData,
  useActiveProfileId,
  useConnectivity,
  useProfiles,
} from './lib/queries';
import { damagedProfilesOf } from './lib/repairs';
import { currentPath, navigate, pathOf, rememberPath, useRoute, type Route } from './lib/router';
import { focusSearch } from './lib/searchFocus';
import {
  AccountScreen,
  CreateReport,
  DamagedProfiles,
  HistoryScreen,
  LazyScreen,
  PrivacyEdit,
  ProfilesScreen,
  ReportDetail,
  SettingsScreen,
  Welcome,
} from './lazyParts';
import { ReportsList } from './screens/ReportsList';

export function App({ client }: { client: QueryClient }) {
  return (
    <LanguageProvider>
      <QueryClientProvider client={client}>
        <ToastProvider>
          <SyncProvider>
            <CoreEvents />
            <Screens />
          </SyncProvider>
        </ToastProvider>
      </QueryClientProvider>
    </LanguageProvider>
  );
}

/** Wires the core's events and the keyboard shortcuts to the app. */
function CoreEvents() {
  const client = useQueryClient();
  const profileId = useActiveProfileId();
  const sync = useSync();
  const toasts = useToasts();
  const connectivity = useConnectivity();
  const online = connectivity.data?.online;
  const wasOnline = useRef<boolean | undefined>(undefined);

  // The main process knows whether the service is reachable; TanStack Query follows it.
  useEffect(() => {
    if (online === undefined) return;
    onlineManager.setOnline(online);
    if (online && wasOnline.current === false) void refreshProfileData(client, profileId);
    wasOnline.current = online;
  }, [online, client, profileId]);

  const latest = useRef({ profileId, sync, toasts });
  useEffect(() => {
    latest.current = { profileId, sync, toasts };
  });

  useEffect(() => {
    function runCommand(command: AppCommand) {
      switch (command) {
        case 'refresh':
          void refreshProfileData(client, latest.current.profileId);
          break;
        case 'new-report':
          navigate('/reports/new');
          break;
        case 'focus-search':
          focusSearch();
          break;
        case 'show-history':
          // History is a profile's: before the first profile there is none to show.
          if (latest.current.profileId !== null) navigate('/history');
          break;
        case 'switch-profile':
          document.getElementById(PROFILE_SWITCHER_ID)?.focus();
          break;
        case 'sync':
          latest.current.sync.start();
          break;
        case 'show-shortcuts':
          window.dispatchEvent(new Event(SHOW_SHORTCUTS_EVENT));
          break;
      }
    }

    function onKey(event: KeyboardEvent) {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      const key = event.key.toLowerCase();
      // Ctrl+Shift+H: History (Cmd+H hides the app on macOS, Ctrl+H is the browser's history).
      if (event.shiftKey) {
        if (key !== 'h' || latest.current.profileId === null) return;
        event.preventDefault();
        runCommand('show-history');
        return;
      }
      const command: AppCommand | null =
        key === 'f' ? 'focus-search' : key === 'n' ? 'new-report' : key === 'r' ? 'refresh' : null;
      if (!command || latest.current.profileId === null) return;
      // Ctrl+R would reload the page, Ctrl+F open the browser's find bar, Ctrl+N a window.
      event.preventDefault();
      runCommand(command);
    }

    window.addEventListener('keydown', onKey);
    const unsubscribe = [
      onEvent('connectivity:changed', (state) => applyConnectivity(client, state)),
      onEvent('profiles:changed', (state) => applyProfilesChanged(client, state)),
      onEvent('app:navigate', ({ path, notice }) => {
        navigate(path);
        // A link that could not be opened as asked (e.g. its profile is missing) says why.
        if (notice) latest.current.toasts.show(errorText(currentWords(), notice), 'error');
      }),
      onEvent('app:command', ({ command }) => runCommand(command)),
      // Settings › Language in this window or another: every screen follows at once.
      onEvent('language:changed', (state) => void applyLanguageState(client, state)),
    ];
    return () => {
      window.removeEventListener('keydown', onKey);
      unsubscribe.forEach((off) => off());
    };
  }, [client]);

  return null;
}

const TITLES: Record<Route['name'], MessageId> = {
  welcome: 'app.screen.welcome',
  reports: 'nav.reports',
  'new-report': 'nav.new_report',
  report: 'report.screen',
  privacy: 'privacy_form.heading',
  account: 'account.heading',
  profiles: 'nav.profiles',
  settings: 'settings.heading',
  history: 'history.heading',
  'not-found': 'app.screen.not_found',
};

function Screens() {
  const words = useWords();
  const route = useRoute();
  const profiles = useProfiles();
  const path = pathOf(route);
  const screenName = words(TITLES[route.name]);

  useEffect(() => {
    rememberPath(path);
    document.title = words('app.document_title', { screen: screenName });
  }, [path, screenName, words]);

  const firstRun = profiles.data !== undefined && profiles.data.profiles.length === 0;
  useEffect(() => {
    if (firstRun && currentPath() !== '/welcome') navigate('/welcome', { replace: true });
  }, [firstRun]);

  if (profiles.isPending) {
    return (
      <div className="splash">
        <LoadingPlaceholder lines={3} label={words('app.starting')} />
      </div>
    );
  }
  if (profiles.isError) {
    // A damaged profiles file with no backup is not a failure to start: the user decides.
    const damage = damagedProfilesOf(errorOf(profiles.error));
    if (damage) {
      return (
        <main className="welcome-page" id="main">
          <LazyScreen>
            <DamagedProfiles damage={damage} level="screen" />
          </LazyScreen>
        </main>
      );
    }
    return (
      <main className="splash">
        <h1>{words('app.start_failed')}</h1>
        <ErrorView error={profiles.error} onRetry={() => void profiles.refetch()} hideProfileLinks />
      </main>
    );
  }
  if (firstRun) {
    return (
      <main className="welcome-page" id="main">
        {/* Keys a new list left without a profile are offered for restore here too. */}
        <Repairs />
        <LazyScreen>
          <Welcome firstRun />
        </LazyScreen>
      </main>
    );
  }
  return (
    <Shell screenName={screenName}>
      {/* Keyed: a new screen's loading replaces the old one (kept hidden, its heading would take the focus). */}
      <LazyScreen key={route.name}>{screenFor(route, profiles.data.activeId)}</LazyScreen>
    </Shell>
  );
}

function screenFor(route: Route, profileId: string | null) {
  if (route.name === 'welcome') return <Welcome firstRun={false} />;
  if (route.name === 'profiles' || profileId === null) return <ProfilesScreen />;
  switch (route.name) {
    case 'reports':
      // Keyed by profile: its saved filters, search text and page are another profile's.
      return <ReportsList key={profileId} profileId={profileId} />;
    case 'new-report':
      return <CreateReport key={profileId} profileId={profileId} />;
    case 'report':
      return <ReportDetail key={`${profileId}/${route.id}`} profileId={profileId} id={route.id} />;
    case 'privacy':
      return <PrivacyEdit key={`${profileId}/${route.id}`} profileId={profileId} id={route.id} />;
    case 'account':
      return <AccountScreen profileId={profileId} />;
    case 'settings':
      return <SettingsScreen profileId={profileId} />;
    case 'history':
      // Keyed by profile: its filters and chosen period are another profile's.
      return <HistoryScreen key={profileId} profileId={profileId} />;
    case 'not-found':
      return <NotFound path={route.path} />;
  }
}

function NotFound({ path }: { path: string }) {
  const words = useWords();
  return (
    <section className="screen">
      <h1>{words('not_found.heading')}</h1>
      <p>
        {words.rich('not_found.text', {
          path: (
            <span className="mono" dir="ltr">
              {path}
            </span>
          ),
        })}
      </p>
      <a className="button" href="#/reports">
        {words('not_found.go_to_reports')}
      </a>
    </section>
  );
}
