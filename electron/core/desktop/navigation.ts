/**
 * What the window may do with an address it did not expect: it never navigates away from the
 * app and never opens a second window; an http(s) link is handed to the system browser instead.
 */
import { isTrustedFrameUrl } from './trust';

const MAX_EXTERNAL_URL_LENGTH = 4096;

/** The address to open in the system browser, or null when it must not be opened at all. */
export function externalUrlToOpen(url: string): string | null {
  if (typeof url !== 'string' || url.length > MAX_EXTERNAL_URL_LENGTH) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  // Credentials in a link are a phishing trick ("https://bank.com@evil.example").
  if (parsed.username !== '' || parsed.password !== '') return null;
  return parsed.href;
}

/** will-navigate / will-redirect: only pages of the app's own origin may load in the window. */
export function isNavigationAllowed(url: string, appOrigin: string): boolean {
  return isTrustedFrameUrl(url, appOrigin);
}
