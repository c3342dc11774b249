/**
 * The Report Service base URL as a user types or pastes it, turned into the one form the
 * client joins paths onto. The rules and their sentences are shared/baseUrl's (the renderer's
 * forms apply the same ones); here a refusal becomes an AppFailure.
 */
import { checkBaseUrl } from '../../../shared/baseUrl';
import { AppFailure, fieldFailure, wordedError } from '../../../shared/errors';

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
const checkedBaseUrls = new Map<string, { baseUrl: string; host: string }>();
const MAX_CHECKED_BASE_URLS = 16;

export function checkedBaseUrl(raw: string, allowInsecureHttp: boolean): { baseUrl: string; host: string } {
  // Stryker disable next-line StringLiteral: any two different words keep the two allowances apart.
  const key = `${allowInsecureHttp ? 'insecure' : 'secure'} ${raw}`;
  let checked = checkedBaseUrls.get(key);
  if (!checked) {
    const baseUrl = normalizeBaseUrl(raw, allowInsecureHttp);
    checked = { baseUrl, host: new URL(baseUrl).host };
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the bound only limits what is remembered, never an answer.
    if (checkedBaseUrls.size >= MAX_CHECKED_BASE_URLS) checkedBaseUrls.clear();
    checkedBaseUrls.set(key, checked);
  }
  return checked;
}
