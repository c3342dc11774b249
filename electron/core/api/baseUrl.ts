/**
 * The Report Service base URL as a user types or pastes it, turned into the one form the
 * client joins paths onto: `scheme://host[:port][/prefix]`, no trailing slash, no `/api/v1`.
 */
import { AppFailure, appError, invalidField } from '../../../shared/errors';

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

function invalid(message: string): AppFailure {
  return invalidField('baseUrl', message);
}

/**
 * Trims, removes trailing slashes and a pasted `/api/v1` suffix; requires http(s) with a host;
 * refuses http:// for non-loopback hosts unless `allowInsecureHttp`. Throws AppFailure
 * (`insecure_url` or `invalid_input`). Returns e.g. 'https://reports.example.com/base'.
 */
export function normalizeBaseUrl(raw: string, allowInsecureHttp: boolean): string {
  const text = raw.trim();
  if (text === '')
    throw invalid('Enter the Report Service base URL, for example https://reports.example.com.');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw invalid(
      'The base URL must start with https:// (or http:// for this computer), for example https://reports.example.com.',
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(
      'The base URL is not a valid address. Check it for typos, for example https://reports.example.com.',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalid('The base URL must start with https:// (or http:// for this computer).');
  }
  // Stryker disable all: unreachable for http(s) (WHATWG URL refuses them without a host); kept as a guard.
  if (url.hostname === '')
    throw invalid('The base URL needs a host name, for example https://reports.example.com.');
  // Stryker restore all
  if (url.username !== '' || url.password !== '') {
    // Credentials in a URL end up in logs and history; the API key is set on its own.
    throw invalid('Remove the user name and password from the base URL; the API key is entered separately.');
  }
  if (url.search !== '' || url.hash !== '') {
    throw invalid('The base URL cannot contain "?" or "#". Use only the address of the service.');
  }
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    throw new AppFailure(
      appError(
        'insecure_url',
        `Plain http:// is only allowed for this computer, and ${url.hostname} is not it: the API key would travel unencrypted. Use https://, or explicitly allow insecure http.`,
      ),
    );
  }
  const path = url.pathname.replace(/\/+$/, '').replace(API_VERSION_SUFFIX, '').replace(/\/+$/, '');
  return url.origin + path;
}
