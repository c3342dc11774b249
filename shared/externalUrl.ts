/**
 * The one policy for addresses handed to the system browser (a report's URL, a link clicked in
 * the window): http(s) only, no user name or password in them, not absurdly long. Zod-free and
 * environment-free, so the core, the Electron glue and the renderer can all apply it.
 */
export const MAX_EXTERNAL_URL_LENGTH = 4096;

export type ExternalUrlRefusal = 'not_a_url' | 'not_web' | 'credentials' | 'too_long';

export type ExternalUrlVerdict = { ok: true; href: string } | { ok: false; reason: ExternalUrlRefusal };

/** Why an address is not opened, in the words every front end uses. */
export const EXTERNAL_URL_REFUSED: Record<ExternalUrlRefusal, string> = {
  not_a_url: 'That is not a web address, so it was not opened.',
  not_web: 'Only http:// and https:// addresses are opened in the browser.',
  credentials: 'Addresses with a user name or password in them are not opened in the browser.',
  too_long: `Addresses longer than ${MAX_EXTERNAL_URL_LENGTH} characters are not opened in the browser.`,
};

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
