/**
 * The Report Service base URL as a user types or pastes it, turned into the one form the
 * client joins paths onto. The rules and their sentences are shared/baseUrl's (the renderer's
 * forms apply the same ones); here a refusal becomes an AppFailure.
 */
import { checkBaseUrl } from '../../../shared/baseUrl';
import { AppFailure, fieldFailure, wordedError } from '../../../shared/errors';
import { BoundedMemo } from '../boundedMemo';

/**
 * Returns e.g. 'https://reports.example.com/base'. Throws AppFailure: `insecure_url` for plain
 * http:// to another computer without `allowInsecureHttp`, otherwise `invalid_input` on baseUrl.
 */
export function normalizeBaseUrl(raw: string, allowInsecureHttp: boolean): string {
  const checked = checkBaseUrl(raw, allowInsecureHttp);
  if (checked.ok) return checked.baseUrl;
  if (checked.kind === 'insecure_url') throw new AppFailure(wordedError(checked.problem));
  throw fieldFailure('baseUrl', checked.problem);
}

/**
 * A base URL's checked form and host, remembered: the gateway builds a client per request, and
 * parsing the address twice was most of that. Only accepted addresses are kept (a few at most).
 */
const checkedBaseUrls = new BoundedMemo<string, { baseUrl: string; host: string }>(16);

export function checkedBaseUrl(raw: string, allowInsecureHttp: boolean): { baseUrl: string; host: string } {
  return checkedBaseUrls.get(`${Number(allowInsecureHttp)} ${raw}`, () => {
    const baseUrl = normalizeBaseUrl(raw, allowInsecureHttp);
    return { baseUrl, host: new URL(baseUrl).host };
  });
}
