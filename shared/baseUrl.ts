/**
 * The Report Service base URL rules in one place (their sentences by code, shared/errorCodes.ts): the core applies them
 * before it stores or calls an address, the renderer's forms before they ask the core. Zod-free
 * and environment-free. The accepted form is the one the client joins paths onto:
 * `scheme://host[:port][/prefix]`, no trailing slash, no pasted `/api/v1`.
 */
import type { Wording } from './errorCodes';

const API_VERSION_SUFFIX = /\/api\/v1$/i;

/** True for names and addresses that can only mean this computer. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host === '::1') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255);
}

export type BaseUrlCheck =
  | { ok: true; baseUrl: string }
  /** `insecure_url`: plain http:// to another computer without the explicit allowance. */
  | { ok: false; kind: 'invalid_input' | 'insecure_url'; problem: Wording };

const refused = (code: Wording['code']): BaseUrlCheck => ({
  ok: false,
  kind: 'invalid_input',
  problem: { code },
});

/**
 * Trims, removes trailing slashes and a pasted `/api/v1`; requires http(s) with a host and no
 * credentials, query or fragment; refuses http:// for non-loopback hosts unless
 * `allowInsecureHttp`. Never echoes what was typed (it may hold a password).
 */
export function checkBaseUrl(raw: string, allowInsecureHttp: boolean): BaseUrlCheck {
  const text = raw.trim();
  if (text === '') return refused('base_url.required');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return refused('base_url.scheme');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused('base_url.invalid');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refused('base_url.scheme');
  // WHATWG URL refuses http(s) without a host, so every address here has one.
  if (url.username !== '' || url.password !== '') {
    // Credentials in a URL end up in logs and history; the API key is set on its own.
    return refused('base_url.credentials');
  }
  if (url.search !== '' || url.hash !== '') {
    return refused('base_url.query');
  }
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    return {
      ok: false,
      kind: 'insecure_url',
      problem: { code: 'base_url.insecure', values: { host: url.hostname } },
    };
  }
  const path = url.pathname.replace(/\/+$/, '').replace(API_VERSION_SUFFIX, '').replace(/\/+$/, '');
  return { ok: true, baseUrl: url.origin + path };
}
