/**
 * Web permissions for the window: everything is refused (camera, location, notifications from
 * the page, …) except writing plain text to the clipboard from the app's own page, which the
 * report screen's "Copy URL" needs (Electron routes navigator.clipboard.writeText through
 * the 'clipboard-sanitized-write' permission). Reading the clipboard stays refused.
 */
import { isTrustedFrameUrl } from './trust';

const ALLOWED_FOR_APP: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export function isPermissionGranted(permission: string, requestingUrl: string, appOrigin: string): boolean {
  return ALLOWED_FOR_APP.has(permission) && isTrustedFrameUrl(requestingUrl, appOrigin);
}
