/**
 * The one policy for addresses handed to the system browser (a report's URL, a link clicked in
 * the window): http(s) only, no user name or password in them, not absurdly long. Zod-free and
 * environment-free, so the core, the Electron glue and the renderer can all apply it.
 */
import type { Wording } from './errorCodes';

export const MAX_EXTERNAL_URL_LENGTH = 4096;

export type ExternalUrlRefusal = 'not_a_url' | 'not_web' | 'credentials' | 'too_long';

export type ExternalUrlVerdict = { ok: true; href: string } | { ok: false; reason: ExternalUrlRefusal };

/** Why an address is not opened, as the error every front end words. */
export function externalUrlRefusal(reason: ExternalUrlRefusal): Wording {
  return reason === 'too_long'
    ? { code: 'external_url.too_long', values: { max: MAX_EXTERNAL_URL_LENGTH } }
    : { code: `external_url.${reason}` };
}

/** The address to open (normalised by URL), or why it must not be opened. */
export function checkExternalUrl(url: unknown): ExternalUrlVerdict {
  if (typeof url !== 'string') return { ok: false, reason: 'not_a_url' };
  if (url.length > MAX_EXTERNAL_URL_LENGTH) return { ok: false, reason: 'too_long' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'not_a_url' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: 'not_web' };
  // Credentials in a link are a phishing trick ("https://bank.com@evil.example").
  if (parsed.username !== '' || parsed.password !== '') return { ok: false, reason: 'credentials' };
  return { ok: true, href: parsed.href };
}
