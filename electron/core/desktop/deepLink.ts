/**
 * reportdesk:// deep links. Only `reportdesk://report/<id>`, optionally with `?profile=<id>`
 * (see shared/links.ts), is understood; the ids must be valid ids, so a crafted link cannot
 * steer the renderer anywhere else.
 */
import { DEEP_LINK_SCHEME, PROFILE_ID_PATTERN } from '../../../shared/links';
import { ReportIdSchema } from '../../../shared/report';

export { DEEP_LINK_SCHEME };
const MAX_DEEP_LINK_LENGTH = 2048;

export interface DeepLinkTarget {
  /** The renderer route, e.g. "/reports/12". */
  path: string;
  /** The profile the link names, or null: then it opens in the active profile. */
  profileId: string | null;
}

/** What a deep link asks for, or null for anything that is not a valid link. */
export function parseDeepLink(url: string): DeepLinkTarget | null {
  if (typeof url !== 'string' || url.length > MAX_DEEP_LINK_LENGTH) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${DEEP_LINK_SCHEME}:`) return null;
  if (parsed.username !== '' || parsed.password !== '' || parsed.port !== '') return null;
  if (parsed.host.toLowerCase() !== 'report') return null;
  // "/12" or "/12/" — one segment, nothing else.
  const match = /^\/([^/]+)\/?$/.exec(parsed.pathname);
  if (!match) return null;
  let rawId: string;
  try {
    rawId = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  const id = ReportIdSchema.safeParse(rawId);
  if (!id.success) return null;
  const profiles = parsed.searchParams.getAll('profile');
  if (profiles.length > 1) return null;
  const profileId = profiles[0] ?? null;
  if (profileId !== null && !PROFILE_ID_PATTERN.test(profileId)) return null;
  return { path: `/reports/${id.data}`, profileId };
}

/** The first deep link among a second instance's (or the first launch's) command-line arguments. */
export function findDeepLinkInArgv(argv: readonly string[]): string | null {
  const prefix = `${DEEP_LINK_SCHEME}:`;
  return argv.find((arg) => typeof arg === 'string' && arg.toLowerCase().startsWith(prefix)) ?? null;
}
