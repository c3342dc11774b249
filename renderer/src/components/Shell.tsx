/** The window's frame: header (profile switcher, connectivity), left nav, banners, toasts. */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ConnectivityState } from '../../../shared/contract';
import type { RendererMessageId as MessageId } from '../../../shared/i18n/messages';
import { call, errorOf } from '../lib/bridge';
import { useSync, useToasts, useVisibleSource } from '../lib/appState';
import { errorText } from '../lib/errorWords';
import { formatTime, timeAgo } from '../lib/format';
import { focusScreenHeading, useScreenFocus } from '../lib/focus';
import { useWords } from '../lib/i18n';
import { applyConnectivity, queryKeys, useConnectivity, useProfiles } from '../lib/queries';
import { navigate, pathOf, useRoute, type Route } from '../lib/router';
import {
  LazyPart,
  OnceNeeded,
  preloadHistory,
  RepairBanners,
  ShortcutSheet,
  UpdateReadyBar,
} from '../lazyParts';
import { repairsShow, useRepairsStatus } from '../lib/repairs';
import { updateBarShows, useUpdateStatus } from '../lib/updates';
import { ErrorView } from './ErrorView';
import { SyncProgressBar } from './SyncProgressBar';
import { WRITE_BLOCK_REASON_ID } from './WriteActionButton';

export const PROFILE_SWITCHER_ID = 'profile-switcher';
/** Asks the shell to show the shortcut sheet (the Help menu's command). */
export const SHOW_SHORTCUTS_EVENT = 'reportdesk:show-shortcuts';

function ProfileSwitcher() {
  const words = useWords();
  const client = useQueryClient();
  const toasts = useToasts();
  const route = useRoute();
  const { data } = useProfiles();
  const [busy, setBusy] = useState(false);
  if (!data || data.profiles.length === 0) return null;

  async function activate(id: string) {
    setBusy(true);
    try {
      const state = await call('profiles:activate', { id });
      client.setQueryData(queryKeys.profiles, state);
      // A report id belongs to one profile's service: leave report pages for the list.
      if (route.name === 'report' || route.name === 'privacy') navigate('/reports');
      const active = state.profiles.find((p) => p.id === state.activeId);
      if (active) toasts.show(words('profiles.switched', { name: active.name }));
    } catch (thrown) {
      toasts.show(errorText(words, errorOf(thrown)), 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="profile-switcher">
      <label htmlFor={PROFILE_SWITCHER_ID} className="visually-hidden">
        {words('profiles.active')}
      </label>
      <select
        id={PROFILE_SWITCHER_ID}
        value={data.activeId ?? ''}
        disabled={busy}
        onChange={(e) => void activate(e.target.value)}
      >
        {data.activeId === null && <option value="">{words('profiles.choose')}</option>}
        {data.profiles.map((profile) => (
          <option key={profile.id} value={profile.id} dir="auto">
            {profile.demo ? words('profiles.demo_name', { name: profile.name }) : profile.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function ConnectivityIndicator() {
  const words = useWords();
  const { data } = useConnectivity();
  if (!data) return null;
  return (
    <span
      className={data.online ? 'connectivity online' : 'connectivity offline'}
      title={
        data.online
          ? words('connectivity.online.title')
          : words('connectivity.offline_since', { time: formatTime(words, data.since) })
      }
    >
      <span className="dot" aria-hidden="true" />
      {words(data.online ? 'connectivity.online' : 'connectivity.offline')}
    </span>
  );
}

function OfflineBanner() {
  const words = useWords();
  const client = useQueryClient();
  const { data } = useConnectivity();
  const visible = useVisibleSource();
  const [checking, setChecking] = useState(false);
  if (!data || data.online) return null;

  async function tryAgain() {
    setChecking(true);
    try {
      applyConnectivity(client, await call('connectivity:check'));
    } catch (thrown) {
      // Only the reason changes, and only if nothing newer said we are back online.
      client.setQueryData<ConnectivityState>(queryKeys.connectivity, (current) =>
        current && !current.online ? { ...current, lastError: errorOf(thrown) } : current,
      );
    } finally {
      setChecking(false);
    }
  }

  return (
    <div className="banner banner-offline" role="status">
      <div>
        {words.rich('offline_banner.text', {
          since: formatTime(words, data.since),
          strong: (chunks) => <strong>{chunks}</strong>,
          showing:
            visible?.source === 'cache'
              ? words('offline_banner.showing_saved', { ago: timeAgo(words, visible.fetchedAt) })
              : words('offline_banner.showing_local'),
          blocked: (chunks) => <span id={WRITE_BLOCK_REASON_ID}>{chunks}</span>,
        })}
        {data.lastError && <span className="banner-detail"> {errorText(words, data.lastError)}</span>}
      </div>
      <button type="button" className="button small" onClick={() => void tryAgain()} disabled={checking}>
        {words(checking ? 'offline_banner.checking' : 'offline_banner.try_again')}
      </button>
    </div>
  );
}

/** Shown under the header on every screen while a sync runs. */
function SyncStrip() {
  const words = useWords();
  const sync = useSync();
  const route = useRoute();
  if (!sync.running || route.name === 'settings') return null;
  return (
    <div className="banner banner-sync">
      <strong>{words('sync.making_available')}</strong>
      <SyncProgressBar />
    </div>
  );
}

/**
 * A "Make available offline" that failed (from the list, the menu or a shortcut) says why on
 * every screen but Settings, which shows it beside its button: a full disk or a read-only data
 * folder in its own sentence, until dismissed or run again.
 */
function SyncFailedBanner() {
  const words = useWords();
  const sync = useSync();
  const route = useRoute();
  const error = sync.error;
  if (sync.running || !error || error.kind === 'busy' || route.name === 'settings') return null;
  return (
    <div className="banner banner-sync-failed">
      <ErrorView error={error} title={words('settings.sync_failed')} onRetry={sync.start} />
      <button type="button" className="button small" onClick={sync.dismissError}>
        {words('damage.dismiss')}
      </button>
    </div>
  );
}

/** The repair banners (their code loads the first time there is one to show). */
export function Repairs() {
  const repairs = useRepairsStatus();
  return (
    <OnceNeeded when={repairsShow(repairs.data)}>
      <RepairBanners />
    </OnceNeeded>
  );
}

/** How long a message stays; the clock stops while the pointer or the focus is on the messages. */
const TOAST_MS = 6000;

function ToastItem({
  id,
  text,
  paused,
  onDismiss,
}: {
  id: number;
  text: string;
  /** Null for an error: it stays until dismissed. */
  paused: boolean | null;
  onDismiss: (id: number) => void;
}) {
  const words = useWords();
  const remaining = useRef(TOAST_MS);
  useEffect(() => {
    if (paused !== false) return;
    const started = performance.now();
    const timer = window.setTimeout(() => onDismiss(id), remaining.current);
    return () => {
      window.clearTimeout(timer);
      remaining.current -= performance.now() - started;
    };
  }, [paused, id, onDismiss]);
  return (
    <div className={paused === null ? 'toast toast-error' : 'toast toast-info'}>
      <span>{text}</span>
      <button
        type="button"
        className="icon-button"
        aria-label={words('toast.dismiss')}
        onClick={() => {
          onDismiss(id);
          focusScreenHeading();
        }}
      >
        ×
      </button>
    </div>
  );
}

/**
 * Messages, under the content (never over it). Two live regions that exist from the start:
 * information is polite, errors are assertive; the messages themselves carry no role, so each
 * is read once.
 */
export function Toasts() {
  const { toasts, dismiss } = useToasts();
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const paused = hovered || focused;
  const item = (toast: (typeof toasts)[number]) => (
    <ToastItem
      key={toast.id}
      id={toast.id}
      text={toast.text}
      paused={toast.tone === 'error' ? null : paused}
      onDismiss={dismiss}
    />
  );
  return (
    <div
      className="toasts"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div role="status">{toasts.filter((t) => t.tone !== 'error').map(item)}</div>
      <div role="alert">{toasts.filter((t) => t.tone === 'error').map(item)}</div>
    </div>
  );
}

/** The shortcut sheet: `?` outside text fields, the Help button, or Help in the app menu. */
function useShortcutSheet(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const show = () => setOpen(true);
    function onKey(event: KeyboardEvent) {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('input, select, textarea, [contenteditable]')) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      event.preventDefault();
      setOpen(true);
    }
    window.addEventListener(SHOW_SHORTCUTS_EVENT, show);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener(SHOW_SHORTCUTS_EVENT, show);
      window.removeEventListener('keydown', onKey);
    };
  }, []);
  return [open, setOpen];
}

const NAV: { path: string; label: MessageId; match: Route['name'][] }[] = [
  { path: '/reports', label: 'nav.reports', match: ['reports', 'report', 'privacy'] },
  { path: '/reports/new', label: 'nav.new_report', match: ['new-report'] },
  { path: '/history', label: 'history.heading', match: ['history'] },
  { path: '/account', label: 'account.heading', match: ['account'] },
  { path: '/profiles', label: 'nav.profiles', match: ['profiles', 'welcome'] },
  { path: '/settings', label: 'settings.heading', match: ['settings'] },
];

export function Shell({ children, screenName }: { children: ReactNode; screenName: string }) {
  const words = useWords();
  const route = useRoute();
  useScreenFocus(pathOf(route), words('app.screen_announced', { screen: screenName }));
  const [shortcutsOpen, setShortcutsOpen] = useShortcutSheet();
  const updates = useUpdateStatus();
  useEffect(preloadHistory, []);
  return (
    <div className="app">
      {/* A button, not href="#main": the hash belongs to the router. */}
      <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        {words('app.skip_to_content')}
      </button>
      <header className="app-header">
        <span className="app-title">{words('app.name')}</span>
        <div className="header-end">
          <ConnectivityIndicator />
          <ProfileSwitcher />
          <button
            type="button"
            className="header-button"
            aria-haspopup="dialog"
            onClick={() => setShortcutsOpen(true)}
          >
            {words.rich('app.help_shortcuts', { key: <kbd>?</kbd> })}
          </button>
        </div>
      </header>
      <div className="app-body">
        <nav className="app-nav" aria-label={words('nav.label')}>
          <ul>
            {NAV.map((item) => {
              const current = item.match.includes(route.name);
              return (
                <li key={item.path}>
                  <a
                    href={`#${item.path}`}
                    aria-current={current ? 'page' : undefined}
                    className={current ? 'current' : ''}
                  >
                    {words(item.label)}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="app-content">
          <Repairs />
          <OfflineBanner />
          <SyncStrip />
          <SyncFailedBanner />
          <OnceNeeded when={updateBarShows(updates.data)}>
            <UpdateReadyBar />
          </OnceNeeded>
          <main id="main" tabIndex={-1}>
            {children}
          </main>
        </div>
      </div>
      <Toasts />
      {shortcutsOpen && (
        <LazyPart>
          <ShortcutSheet onClose={() => setShortcutsOpen(false)} />
        </LazyPart>
      )}
    </div>
  );
}
