/**
 * The Report Service base URL rules, and their sentences, in one place: the core applies them
 * before it stores or calls an address, the renderer's forms before they ask the core. Zod-free
 * and environment-free. The accepted form is the one the client joins paths onto:
 * `scheme://host[:port][/prefix]`, no trailing slash, no pasted `/api/v1`.
 */
import { BASE_URL_REQUIRED } from './profileRules';

const API_VERSION_SUFFIX = /\/api\/v1$/i;
const EXAMPLE = 'https://reports.example.com';

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
  | { ok: false; kind: 'invalid_input' | 'insecure_url'; message: string };

const refused = (message: string): BaseUrlCheck => ({ ok: false, kind: 'invalid_input', message });

/**
 * Trims, removes trailing slashes and a pasted `/api/v1`; requires http(s) with a host and no
 * credentials, query or fragment; refuses http:// for non-loopback hosts unless
 * `allowInsecureHttp`. Never echoes what was typed (it may hold a password).
 */
export function checkBaseUrl(raw: string, allowInsecureHttp: boolean): BaseUrlCheck {
  const text = raw.trim();
  if (text === '') return refused(BASE_URL_REQUIRED);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    return refused(
      `The base URL must start with https:// (or http:// for this computer), for example ${EXAMPLE}.`,
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused(`The base URL is not a valid address. Check it for typos, for example ${EXAMPLE}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refused(
      `The base URL must start with https:// (or http:// for this computer), for example ${EXAMPLE}.`,
    );
  }
  // WHATWG URL refuses http(s) without a host, so every address here has one.
  if (url.username !== '' || url.password !== '') {
    // Credentials in a URL end up in logs and history; the API key is set on its own.
    return refused('Remove the user name and password from the base URL; the API key is entered separately.');
  }
  if (url.search !== '' || url.hash !== '') {
    return refused('The base URL cannot contain "?" or "#". Use only the address of the service.');
  }
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    return {
      ok: false,
      kind: 'insecure_url',
      message: `Plain http:// is only allowed for this computer, and ${url.hostname} is not it: the API key would travel unencrypted. Use https://, or explicitly allow insecure http.`,
    };
  }
  const path = url.pathname.replace(/\/+$/, '').replace(API_VERSION_SUFFIX, '').replace(/\/+$/, '');
  return { ok: true, baseUrl: url.origin + path };
}
