/**
 * reportdesk:// links to one report, written here (environment-free) so the renderer's "Copy
 * link" and the core's parser (electron/core/desktop/deepLink.ts) agree on one shape:
 * `reportdesk://report/<id>?profile=<profile id>`.
 */

export const DEEP_LINK_SCHEME = 'reportdesk';
/** Profile ids are made of these (see the contract's profile id). */
export const PROFILE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function reportLink(reportId: string, profileId: string | null): string {
  const base = `${DEEP_LINK_SCHEME}://report/${encodeURIComponent(reportId)}`;
  return profileId === null ? base : `${base}?profile=${encodeURIComponent(profileId)}`;
}
