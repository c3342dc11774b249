/**
 * The CLI behind a proxy, the way curl and git read it from the environment: HTTPS_PROXY for
 * https:// services, HTTP_PROXY for http:// ones, NO_PROXY for the hosts that skip it (either
 * case; the lowercase name wins when both are set, as curl and undici read them). A login in the
 * proxy URL (`http://user:password@host:port`, percent-encoded) is sent as Basic
 * Proxy-Authorization. The requests go through undici's own EnvHttpProxyAgent (CONNECT tunnels;
 * NO_PROXY's host names, domain suffixes, `host:port` and `*`), never a tunnel of ours. Without a
 * proxy variable the CLI keeps Node's fetch.
 *
 * The proxy's password is registered as a secret (the logger and the record scrubber cut it out)
 * and no sentence here quotes a proxy variable: they name the proxy by host and port only.
 */
import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';
import { AppFailure, englishOnlyError } from '../../shared/errors';
import { registerSecret } from '../core/log';
import { UsageError } from './args';

/** One proxy: the URL undici gets, and what a sentence may say about it. */
export interface ProxyRoute {
  url: string;
  /** host:port, never the login. */
  host: string;
  /** The environment variable it came from, as set (`HTTPS_PROXY` or `https_proxy`). */
  variable: string;
  hasLogin: boolean;
}

export interface ProxySettings {
  https?: ProxyRoute;
  http?: ProxyRoute;
  /** NO_PROXY as set ('' when unset). */
  noProxy: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The variable's value and name, lowercase first; an empty value counts as unset. */
function fromEnv(env: Env, name: string): { variable: string; value: string } | undefined {
  for (const variable of [name.toLowerCase(), name.toUpperCase()]) {
    const value = env[variable]?.trim();
    if (value) return { variable, value };
  }
  return undefined;
}

function route(env: Env, name: string): ProxyRoute | undefined {
  const found = fromEnv(env, name);
  if (!found) return undefined;
  const { variable, value } = found;
  // curl takes "host:port" as an http:// proxy; so does this.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    // The value may hold a password: it is never quoted.
    throw new UsageError(
      `${variable} is not a proxy address ReportDesk can read. Set it as http://host:port, or http://user:password@host:port for a proxy that asks for a login.`,
    );
  }
  // undici sends the login percent-decoded (and throws on a bad encoding): both forms are secrets.
  registerSecret(url.password);
  registerSecret(decodedLogin(url.password, variable));
  decodedLogin(url.username, variable); // checked only
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `${variable} names a ${url.protocol.slice(0, -1)} proxy (${url.host}); ReportDesk uses http:// and https:// proxies only.`,
    );
  }
  return { url: url.href, host: url.host, variable, hasLogin: url.username !== '' || url.password !== '' };
}

function decodedLogin(text: string, variable: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new UsageError(
      `The login in ${variable} is not valid percent-encoding. Write a % in the user name or password as %25.`,
    );
  }
}

/** The proxies the environment asks for, or null when it names none. Throws UsageError for an unreadable one. */
export function proxySettings(env: Env): ProxySettings | null {
  const https = route(env, 'HTTPS_PROXY');
  const http = route(env, 'HTTP_PROXY');
  if (!https && !http) return null;
  return { https, http, noProxy: fromEnv(env, 'NO_PROXY')?.value ?? '' };
}

/** The sentence for a proxy that answered CONNECT with `status`: exit 6, naming the proxy's host only. */
export function proxyRefusalMessage(proxy: ProxyRoute, status: number): string {
  const by = `The proxy ${proxy.host} (from ${proxy.variable})`;
  if (status === 407 && proxy.hasLogin) {
    return `${by} did not accept the user name and password given in ${proxy.variable} (HTTP 407). Correct them in ${proxy.variable}, or add the Report Service's host to NO_PROXY if it can be reached without the proxy.`;
  }
  if (status === 407) {
    return `${by} asks for a login (HTTP 407). Give it in ${proxy.variable} as http://user:password@${proxy.host}, or add the Report Service's host to NO_PROXY if it can be reached without the proxy.`;
  }
  return `${by} refused to connect to the Report Service (HTTP ${status}). Ask its administrators to allow the service's host, or add the host to NO_PROXY if it can be reached without the proxy.`;
}

/** A proxy that could not be reached: refused, or a host name that does not resolve. */
export function proxyUnreachableMessage(proxy: ProxyRoute, what: string): string {
  return `The proxy ${proxy.host} (from ${proxy.variable}) could not be reached: ${what}. Check ${proxy.variable}, or unset it where the Report Service can be reached directly.`;
}

interface ErrorLike {
  message?: unknown;
  code?: unknown;
  port?: unknown;
  hostname?: unknown;
  cause?: unknown;
}

/** The error and its causes, five at most (a cause chain may loop). */
function* causes(thrown: unknown): Generator<ErrorLike> {
  let current = thrown;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    yield current as ErrorLike;
    current = (current as ErrorLike).cause;
  }
}

/**
 * What undici's proxy agent threw, in the CLI's words, or undefined when it is not about the
 * proxy. undici reports a CONNECT answered with another status than 200 as "Proxy response (407)
 * !== 200 when HTTP Tunneling" (lib/dispatcher/proxy-agent.js), and a 407 to a forwarded request
 * as "Proxy Authentication Required (407)".
 */
export function proxyFailure(thrown: unknown, proxy: ProxyRoute): AppFailure | undefined {
  const proxyUrl = new URL(proxy.url);
  const proxyPort = Number(proxyUrl.port || (proxyUrl.protocol === 'https:' ? 443 : 80));
  for (const cause of causes(thrown)) {
    const message = String(cause.message);
    const status =
      /Proxy response \((\d{3})\) !== 200/.exec(message)?.[1] ??
      /Proxy Authentication Required \((407)\)/.exec(message)?.[1];
    if (status !== undefined) {
      return new AppFailure(
        englishOnlyError('network', proxyRefusalMessage(proxy, Number(status)), { status: Number(status) }),
      );
    }
    // Every connection of a proxied request goes to the proxy, so a refusal on its port or a
    // lookup of its host name that failed is the proxy's.
    if (cause.code === 'ECONNREFUSED' && cause.port === proxyPort) {
      return new AppFailure(
        englishOnlyError('network', proxyUnreachableMessage(proxy, 'the connection was refused')),
      );
    }
    if ((cause.code === 'ENOTFOUND' || cause.code === 'EAI_AGAIN') && cause.hostname === proxyUrl.hostname) {
      return new AppFailure(
        englishOnlyError('network', proxyUnreachableMessage(proxy, 'its host name was not found')),
      );
    }
  }
  return undefined;
}

export interface ProxiedFetch {
  fetch: typeof globalThis.fetch;
  /** Closes the proxy connections (the end of a CLI run). */
  close(): Promise<void>;
}

/**
 * A fetch that sends https:// requests through the HTTPS proxy and http:// ones through the HTTP
 * proxy (a scheme without one goes direct, through `direct`), each skipping the NO_PROXY hosts.
 */
export function proxiedFetch(
  settings: ProxySettings,
  direct: typeof globalThis.fetch = globalThis.fetch,
): ProxiedFetch {
  // One agent per scheme: undici's EnvHttpProxyAgent would send https:// through HTTP_PROXY when
  // HTTPS_PROXY is unset, which curl and git do not do.
  const agents = {
    'https:': settings.https
      ? new EnvHttpProxyAgent({ httpProxy: '', httpsProxy: settings.https.url, noProxy: settings.noProxy })
      : undefined,
    'http:': settings.http
      ? new EnvHttpProxyAgent({ httpProxy: settings.http.url, httpsProxy: '', noProxy: settings.noProxy })
      : undefined,
  };
  // The API client calls fetch with a URL string and an init, never with a Request.
  const fetch = (async (input: string | URL, init?: RequestInit) => {
    const url = new URL(input);
    const scheme = url.protocol as keyof typeof agents;
    const dispatcher = agents[scheme];
    const proxy = scheme === 'https:' ? settings.https : settings.http;
    if (!dispatcher || !proxy) return direct(input, init);
    try {
      // undici's fetch, not Node's: the agent and the fetch must come from the same undici.
      return (await undiciFetch(url, { ...(init as object), dispatcher })) as unknown as Response;
    } catch (thrown) {
      throw proxyFailure(thrown, proxy) ?? thrown;
    }
  }) as typeof globalThis.fetch;
  return {
    fetch,
    close: async () => {
      await Promise.all(Object.values(agents).map((agent) => agent?.close()));
    },
  };
}
