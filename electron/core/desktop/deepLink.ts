/**
 * reportdesk:// deep links. Only `reportdesk://report/<id>` is understood; the id must be a
 * valid report id, so a crafted link cannot steer the renderer anywhere else.
 */
import { ReportIdSchema } from '../../../shared/report';

export const DEEP_LINK_SCHEME = 'reportdesk';
const MAX_DEEP_LINK_LENGTH = 2048;

/** The renderer route a deep link asks for, or null for anything that is not a valid link. */
export function parseDeepLink(url: string): { path: string } | null {
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
  return id.success ? { path: `/reports/${id.data}` } : null;
}

/** The first deep link among a second instance's (or the first launch's) command-line arguments. */
export function findDeepLinkInArgv(argv: readonly string[]): string | null {
  const prefix = `${DEEP_LINK_SCHEME}:`;
  return argv.find((arg) => typeof arg === 'string' && arg.toLowerCase().startsWith(prefix)) ?? null;
}
