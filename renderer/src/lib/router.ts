/**
 * A small hash router: the app is served from app://reportdesk/ in Electron and from
 * http://127.0.0.1 in the preview, and a hash works the same in both without server help.
 */
import { useSyncExternalStore } from 'react';

export type Route =
  | { name: 'welcome' }
  | { name: 'reports' }
  | { name: 'new-report' }
  | { name: 'report'; id: string }
  | { name: 'privacy'; id: string }
  | { name: 'account' }
  | { name: 'profiles' }
  | { name: 'settings' }
  | { name: 'history' }
  | { name: 'not-found'; path: string };

const LAST_ROUTE_KEY = 'reportdesk.lastRoute';
const DEFAULT_PATH = '/reports';
const ID = '([A-Za-z0-9_-]{1,64})';

const PATTERNS: [RegExp, (m: RegExpMatchArray) => Route][] = [
  [/^\/welcome$/, () => ({ name: 'welcome' })],
  [/^\/reports$/, () => ({ name: 'reports' })],
  [/^\/reports\/new$/, () => ({ name: 'new-report' })],
  [new RegExp(`^/reports/${ID}$`), (m) => ({ name: 'report', id: m[1] })],
  [new RegExp(`^/reports/${ID}/privacy$`), (m) => ({ name: 'privacy', id: m[1] })],
  [/^\/account$/, () => ({ name: 'account' })],
  [/^\/profiles$/, () => ({ name: 'profiles' })],
  [/^\/settings$/, () => ({ name: 'settings' })],
  [/^\/history$/, () => ({ name: 'history' })],
];

export function parsePath(path: string): Route {
  const clean = path.replace(/[?#].*$/, '').replace(/\/+$/, '') || '/';
  for (const [pattern, build] of PATTERNS) {
    const match = clean.match(pattern);
    if (match) return build(match);
  }
  return { name: 'not-found', path };
}

export function pathOf(route: Route): string {
  switch (route.name) {
    case 'welcome':
      return '/welcome';
    case 'reports':
      return '/reports';
    case 'new-report':
      return '/reports/new';
    case 'report':
      return `/reports/${route.id}`;
    case 'privacy':
      return `/reports/${route.id}/privacy`;
    case 'account':
      return '/account';
    case 'profiles':
      return '/profiles';
    case 'settings':
      return '/settings';
    case 'history':
      return '/history';
    case 'not-found':
      return route.path;
  }
}

export function currentPath(): string {
  const hash = window.location.hash.replace(/^#/, '');
  return hash === '' ? '/' : hash;
}

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const target = '#' + (path.startsWith('/') ? path : '/' + path);
  if (options.replace) {
    window.history.replaceState(null, '', target);
    // replaceState does not fire hashchange; tell the subscribers ourselves.
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else if (window.location.hash !== target) {
    window.location.hash = target;
  }
}

/**
 * Every component that reads the route, told from one hashchange listener. The browser runs
 * microtasks between an event's listeners and React renders a store's change in a microtask, so
 * with a listener each, the header could take the new route one commit before the screen did:
 * the focus and the announcement went to the screen being left (seen on a slow first load).
 */
const routeReaders = new Set<() => void>();

function tellRouteReaders(): void {
  routeReaders.forEach((onChange) => onChange());
}

function subscribe(onChange: () => void): () => void {
  if (routeReaders.size === 0) window.addEventListener('hashchange', tellRouteReaders);
  routeReaders.add(onChange);
  return () => {
    routeReaders.delete(onChange);
    if (routeReaders.size === 0) window.removeEventListener('hashchange', tellRouteReaders);
  };
}

export function useRoute(): Route {
  const path = useSyncExternalStore(subscribe, currentPath);
  return parsePath(path);
}

/** Remembers the route so a restart opens where the user left off (no secrets in a path). */
export function rememberPath(path: string): void {
  if (parsePath(path).name === 'not-found') return;
  try {
    localStorage.setItem(LAST_ROUTE_KEY, path);
  } catch {
    // Storage full or disabled: the app still works, it just opens on the default screen.
  }
}

export function restoredPath(): string {
  try {
    const saved = localStorage.getItem(LAST_ROUTE_KEY);
    if (saved && parsePath(saved).name !== 'not-found') return saved;
  } catch {
    // See rememberPath.
  }
  return DEFAULT_PATH;
}
