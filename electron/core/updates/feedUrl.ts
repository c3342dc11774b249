/**
 * Which addresses an update request may go to: https anywhere, plain http only to this
 * computer (the tests' feeds), never with a user name or password in the address. Checked for
 * the feed before any request, and again for every request and redirect (./feedHttp.ts), so a
 * manifest or a redirect cannot send a download over plain http.
 */
import { isLoopbackHost } from '../../../shared/baseUrl';

/** `insecure`: neither https nor http to this computer; `credentials`: user:password@ in it. */
export type FeedUrlProblem = 'not_a_url' | 'insecure' | 'credentials';

export type FeedUrlCheck = { ok: true; url: URL } | { ok: false; problem: FeedUrlProblem };

/** `text` as it is, or (a manifest's file address) resolved against `base`. */
export function checkFeedUrl(text: string, base?: URL): FeedUrlCheck {
  let url: URL;
  try {
    // WHATWG URL drops surrounding spaces itself.
    url = new URL(text, base);
  } catch {
    return { ok: false, problem: 'not_a_url' };
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!secure) return { ok: false, problem: 'insecure' };
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'credentials' };
  return { ok: true, url };
}
