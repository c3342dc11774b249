/**
 * What the window may do with an address it did not expect: it never navigates away from the
 * app and never opens a second window; a link is handed to the system browser instead, when
 * the one external-URL policy (shared/externalUrl) allows it.
 */
import { checkExternalUrl } from '../../../shared/externalUrl';
import { isTrustedFrameUrl } from './trust';

/** The address to open in the system browser, or null when it must not be opened at all. */
export function externalUrlToOpen(url: string): string | null {
  const verdict = checkExternalUrl(url);
  return verdict.ok ? verdict.href : null;
}

/** will-navigate / will-redirect: only pages of the app's own origin may load in the window. */
export function isNavigationAllowed(url: string, appOrigin: string): boolean {
  return isTrustedFrameUrl(url, appOrigin);
}
