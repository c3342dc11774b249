/**
 * electron/cli/proxy.ts in this process: how the proxy variables are read, and what a proxied
 * fetch does against the CONNECT proxy written for the tests and the reference service on
 * 127.0.0.1 (plain http://, tunnelled). The CLI as a whole process, over TLS with a test CA, is
 * tests/integration/cliProxy.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppFailure } from '../../../shared/errors';
import { UsageError } from '../../../electron/cli/args';
import {
  proxiedFetch,
  proxyFailure,
  proxySettings,
  type ProxiedFetch,
  type ProxyRoute,
} from '../../../electron/cli/proxy';
import { redact } from '../../../electron/core/log';
import { DEMO_API_KEY, startDemoService, type DemoService } from '../../../electron/demo-service/server';
import { freeLoopbackPort } from '../../helpers/network';
import { startTestProxy, type TestProxy } from '../../helpers/proxy';

describe('proxySettings', () => {
  it('is null when no proxy variable is set, or only empty ones', () => {
    expect(proxySettings({})).toBeNull();
    expect(proxySettings({ HTTPS_PROXY: '', http_proxy: '  ', NO_PROXY: 'localhost' })).toBeNull();
  });

  it('reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY in either case, the lowercase name first', () => {
    expect(
      proxySettings({
        HTTPS_PROXY: 'http://upper.example:1',
        https_proxy: 'http://lower.example:2',
        HTTP_PROXY: 'http://plain.example:3',
        NO_PROXY: 'upper.example',
        no_proxy: 'lower.example',
      }),
    ).toEqual({
      https: {
        url: 'http://lower.example:2/',
        host: 'lower.example:2',
        variable: 'https_proxy',
        hasLogin: false,
      },
      http: {
        url: 'http://plain.example:3/',
        host: 'plain.example:3',
        variable: 'HTTP_PROXY',
        hasLogin: false,
      },
      noProxy: 'lower.example',
    });
    expect(proxySettings({ HTTPS_PROXY: 'http://upper.example:1', NO_PROXY: ' a, b ' })).toEqual({
      https: {
        url: 'http://upper.example:1/',
        host: 'upper.example:1',
        variable: 'HTTPS_PROXY',
        hasLogin: false,
      },
      http: undefined,
      noProxy: 'a, b',
    });
  });

  it('takes host:port as an http:// proxy, as curl does, and https:// proxies too', () => {
    expect(proxySettings({ HTTPS_PROXY: 'proxy.example:3128' })).toEqual({
      https: {
        url: 'http://proxy.example:3128/',
        host: 'proxy.example:3128',
        variable: 'HTTPS_PROXY',
        hasLogin: false,
      },
      http: undefined,
      noProxy: '',
    });
    // Only a scheme at the start counts as one.
    expect(proxySettings({ HTTPS_PROXY: 'proxy.example:3128/?next=http://other' })?.https).toMatchObject({
      host: 'proxy.example:3128',
    });
    expect(proxySettings({ http_proxy: 'HTTPS://Secure.Example' })?.http).toMatchObject({
      url: 'https://secure.example/',
      host: 'secure.example',
    });
  });

  it('notes a login and registers its password as a secret, as typed and decoded', () => {
    const settings = proxySettings({ HTTPS_PROXY: 'http://desk:Pr0xy%40Secret@proxy.example:8080' });
    expect(settings?.https).toMatchObject({ host: 'proxy.example:8080', hasLogin: true });
    expect(redact('said Pr0xy@Secret and Pr0xy%40Secret')).toBe('said [redacted] and [redacted]');
    expect(proxySettings({ HTTPS_PROXY: 'http://desk@proxy.example:8080' })?.https?.hasLogin).toBe(true);
    expect(proxySettings({ HTTPS_PROXY: 'http://:0nly-Password@proxy.example:8080' })?.https?.hasLogin).toBe(
      true,
    );
  });

  it('refuses a login that is not valid percent-encoding (undici would throw), without quoting it', () => {
    for (const login of ['desk:50%zz-Odd-Secret', '50%zz-odd-user:pass']) {
      const refuse = () => proxySettings({ HTTPS_PROXY: `http://${login}@proxy.example:8080` });
      expect(refuse).toThrow(UsageError);
      expect(refuse).toThrow(
        'The login in HTTPS_PROXY is not valid percent-encoding. Write a % in the user name or password as %25.',
      );
    }
    expect(redact('50%zz-Odd-Secret')).toBe('[redacted]');
  });

  it('refuses other proxy schemes, naming the host and never the password', () => {
    const refuse = () =>
      proxySettings({ ALL: 'x', HTTPS_PROXY: 'socks5://desk:S0cks-Secret@socks.example:1080' });
    expect(refuse).toThrow(UsageError);
    expect(refuse).toThrow(
      'HTTPS_PROXY names a socks5 proxy (socks.example:1080); ReportDesk uses http:// and https:// proxies only.',
    );
  });

  it('refuses an address it cannot read without quoting it', () => {
    const refuse = () => proxySettings({ http_proxy: 'http://desk:Unreadable-Secret@[not an address' });
    expect(refuse).toThrow(UsageError);
    expect(refuse).toThrow(
      'http_proxy is not a proxy address ReportDesk can read. Set it as http://host:port, or http://user:password@host:port for a proxy that asks for a login.',
    );
  });
});

describe('a proxied fetch', () => {
  let service: DemoService;
  const started: (TestProxy | ProxiedFetch)[] = [];

  beforeAll(async () => {
    service = await startDemoService();
  });
  afterAll(() => service.stop());
  afterEach(async () => {
    for (const item of started.splice(0)) await ('port' in item ? item.stop() : item.close());
  });

  async function testProxy(login?: { user: string; password: string }): Promise<TestProxy> {
    const proxy = await startTestProxy({ login });
    started.push(proxy);
    return proxy;
  }

  function fetchVia(env: Record<string, string>, direct?: typeof fetch): ProxiedFetch {
    const proxied = proxiedFetch(proxySettings(env)!, direct);
    started.push(proxied);
    return proxied;
  }

  const accountUrl = () => `${service.baseUrl}/api/v1/account`;
  const init = { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } };

  async function failure(promise: Promise<unknown>): Promise<AppFailure> {
    const thrown = await promise.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(AppFailure);
    return thrown as AppFailure;
  }

  it('sends http:// requests through HTTP_PROXY (a CONNECT tunnel) with the login it holds', async () => {
    const proxy = await testProxy({ user: 'desk', password: 'right' });
    const { fetch } = fetchVia({ HTTP_PROXY: `http://desk:right@127.0.0.1:${proxy.port}` });
    const response = await fetch(accountUrl(), init);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/"email":"demo@reportdesk\.example"/);
    expect(proxy.connects).toEqual([
      {
        target: new URL(service.baseUrl).host,
        authorization: `Basic ${Buffer.from('desk:right').toString('base64')}`,
      },
    ]);
  });

  it('leaves a scheme without a proxy to the direct fetch', async () => {
    const calls: string[] = [];
    const direct = (async (input: string | URL) => {
      calls.push(String(input));
      return new Response('direct');
    }) as typeof fetch;
    const proxy = await testProxy();
    const { fetch } = fetchVia({ HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` }, direct);
    expect(await (await fetch(accountUrl(), init)).text()).toBe('direct');
    expect(calls).toEqual([accountUrl()]);
    expect(proxy.connects).toEqual([]);
  });

  it('skips the proxy for a host NO_PROXY names, with its port', async () => {
    const proxy = await testProxy();
    const { host, port } = new URL(service.baseUrl);
    const { fetch } = fetchVia({
      HTTP_PROXY: `http://127.0.0.1:${proxy.port}`,
      NO_PROXY: `other.example,${host}`,
    });
    expect((await fetch(accountUrl(), init)).status).toBe(200);
    const { fetch: otherPort } = fetchVia({
      HTTP_PROXY: `http://127.0.0.1:${proxy.port}`,
      NO_PROXY: `127.0.0.1:${Number(port) + 1}`,
    });
    expect((await otherPort(accountUrl(), init)).status).toBe(200);
    expect(proxy.connects).toEqual([{ target: host }]);
  });

  it('turns a 407 into a network failure naming the proxy, whether a login was given or not', async () => {
    const proxy = await testProxy({ user: 'desk', password: 'right' });
    const withLogin = await failure(
      fetchVia({ HTTP_PROXY: `http://desk:wrong@127.0.0.1:${proxy.port}` }).fetch(accountUrl()),
    );
    expect(withLogin.error).toMatchObject({
      kind: 'network',
      status: 407,
      message: `The proxy 127.0.0.1:${proxy.port} (from HTTP_PROXY) did not accept the user name and password given in HTTP_PROXY (HTTP 407). Correct them in HTTP_PROXY, or add the Report Service's host to NO_PROXY if it can be reached without the proxy.`,
    });
    const withoutLogin = await failure(
      fetchVia({ http_proxy: `127.0.0.1:${proxy.port}` }).fetch(accountUrl()),
    );
    expect(withoutLogin.error.message).toBe(
      `The proxy 127.0.0.1:${proxy.port} (from http_proxy) asks for a login (HTTP 407). Give it in http_proxy as http://user:password@127.0.0.1:${proxy.port}, or add the Report Service's host to NO_PROXY if it can be reached without the proxy.`,
    );
  });

  it('names another refusal of the tunnel with its status', async () => {
    const proxy = await testProxy();
    // The test proxy answers 502 for a host it cannot route.
    const refused = await failure(
      fetchVia({ HTTP_PROXY: `http://127.0.0.1:${proxy.port}` }).fetch(
        'http://elsewhere.invalid/api/v1/account',
      ),
    );
    expect(refused.error).toMatchObject({
      kind: 'network',
      status: 502,
      message: `The proxy 127.0.0.1:${proxy.port} (from HTTP_PROXY) refused to connect to the Report Service (HTTP 502). Ask its administrators to allow the service's host, or add the host to NO_PROXY if it can be reached without the proxy.`,
    });
  });

  it('says when the proxy itself cannot be reached: refused, or a host name that does not resolve', async () => {
    const closedPort = await freeLoopbackPort();
    const refused = await failure(
      fetchVia({ HTTP_PROXY: `http://127.0.0.1:${closedPort}` }).fetch(accountUrl()),
    );
    expect(refused.error).toMatchObject({
      kind: 'network',
      message: `The proxy 127.0.0.1:${closedPort} (from HTTP_PROXY) could not be reached: the connection was refused. Check HTTP_PROXY, or unset it where the Report Service can be reached directly.`,
    });
    const unknown = await failure(
      fetchVia({ HTTP_PROXY: 'http://proxy.does-not-resolve.invalid:3128' }).fetch(accountUrl()),
    );
    expect(unknown.error).toMatchObject({
      kind: 'network',
      message:
        'The proxy proxy.does-not-resolve.invalid:3128 (from HTTP_PROXY) could not be reached: its host name was not found. Check HTTP_PROXY, or unset it where the Report Service can be reached directly.',
    });
  });

  it('sends https:// requests through HTTPS_PROXY: the proxy is asked for the host (which does not resolve here)', async () => {
    const proxy = await startTestProxy({
      routes: { 'reports.proxy-only.invalid:443': await freeLoopbackPort() },
    });
    started.push(proxy);
    const { fetch } = fetchVia({ HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` });
    // The proxy cannot reach its route (nothing listens there): it refuses the tunnel.
    const refused = await failure(fetch('https://reports.proxy-only.invalid/api/v1/account'));
    expect(refused.error).toMatchObject({ kind: 'network', status: 502 });
    expect(refused.error.message).toMatch(/\(from HTTPS_PROXY\) refused to connect/);
    expect(proxy.connects).toEqual([{ target: 'reports.proxy-only.invalid:443' }]);
  });

  it('closes its connections: nothing goes through it afterwards', async () => {
    const proxy = await testProxy();
    const proxied = proxiedFetch(proxySettings({ HTTP_PROXY: `http://127.0.0.1:${proxy.port}` })!);
    expect((await proxied.fetch(accountUrl(), init)).status).toBe(200);
    await proxied.close();
    await expect(proxied.fetch(accountUrl(), init)).rejects.toMatchObject({
      cause: { code: 'UND_ERR_DESTROYED' },
    });
    expect(proxy.connects).toHaveLength(1);
  });
});

describe('proxyFailure', () => {
  const proxy: ProxyRoute = {
    url: 'http://proxy.example:3128/',
    host: 'proxy.example:3128',
    variable: 'HTTPS_PROXY',
    hasLogin: false,
  };
  const onDefaultPort: ProxyRoute = { ...proxy, url: 'http://proxy.example/', host: 'proxy.example' };
  const code = (fields: Record<string, unknown>) => Object.assign(new Error('connect failed'), fields);

  it('leaves failures that are not the proxy’s to the core’s wording', () => {
    expect(
      proxyFailure(
        new TypeError('fetch failed', { cause: code({ code: 'ECONNREFUSED', port: 443 }) }),
        proxy,
      ),
    ).toBeUndefined();
    expect(
      proxyFailure(
        new TypeError('fetch failed', { cause: code({ code: 'ENOTFOUND', hostname: 'service.example' }) }),
        proxy,
      ),
    ).toBeUndefined();
    expect(
      proxyFailure(new TypeError('fetch failed', { cause: code({ code: 'ECONNRESET' }) }), proxy),
    ).toBeUndefined();
    expect(proxyFailure('not an error', proxy)).toBeUndefined();
  });

  it('names the proxy only for a refusal on its port or a failed lookup of its host', () => {
    const onProxy = { port: 3128, hostname: 'proxy.example' };
    expect(proxyFailure(code({ code: 'ECONNRESET', ...onProxy }), proxy)).toBeUndefined();
    expect(proxyFailure(code({ code: 'ETIMEDOUT', ...onProxy }), proxy)).toBeUndefined();
    expect(proxyFailure(code({ code: 'ENOTFOUND', hostname: 'proxy.example' }), proxy)?.error.kind).toBe(
      'network',
    );
  });

  it('words a refused tunnel by its status, whether a login was given or not', () => {
    const withLogin = { ...proxy, hasLogin: true };
    const refusal = (status: number) => new Error(`Proxy response (${status}) !== 200 when HTTP Tunneling`);
    expect(proxyFailure(refusal(502), withLogin)?.error.message).toMatch(
      /refused to connect to the Report Service \(HTTP 502\)/,
    );
    expect(proxyFailure(refusal(407), withLogin)?.error.message).toMatch(
      /did not accept the user name and password/,
    );
    expect(proxyFailure(refusal(403), proxy)?.error).toMatchObject({ kind: 'network', status: 403 });
  });

  it('walks at most five causes, and stops at a missing or looping one', () => {
    const refusal = new Error('Proxy response (407) !== 200 when HTTP Tunneling');
    const nested = (depth: number): Error =>
      depth === 0 ? refusal : new Error(`level ${depth}`, { cause: nested(depth - 1) });
    expect(proxyFailure(nested(4), proxy)?.error.status).toBe(407);
    expect(proxyFailure(nested(5), proxy)).toBeUndefined();
    expect(proxyFailure(new Error('no cause', { cause: null }), proxy)).toBeUndefined();
    const looping = new Error('loops');
    (looping as { cause?: unknown }).cause = looping;
    expect(proxyFailure(looping, proxy)).toBeUndefined();
  });

  it('knows the default ports of http:// and https:// proxies, and looks down the cause chain', () => {
    const deep = (cause: Error) => new TypeError('fetch failed', { cause: new Error('outer', { cause }) });
    expect(
      proxyFailure(deep(code({ code: 'ECONNREFUSED', port: 80 })), onDefaultPort)?.error.message,
    ).toMatch(/could not be reached: the connection was refused/);
    const httpsProxy = { ...onDefaultPort, url: 'https://proxy.example/' };
    expect(proxyFailure(deep(code({ code: 'ECONNREFUSED', port: 443 })), httpsProxy)?.error.message).toMatch(
      /connection was refused/,
    );
    expect(proxyFailure(deep(code({ code: 'ECONNREFUSED', port: 80 })), httpsProxy)).toBeUndefined();
    expect(
      proxyFailure(deep(code({ code: 'EAI_AGAIN', hostname: 'proxy.example' })), proxy)?.error.message,
    ).toMatch(/host name was not found/);
    expect(proxyFailure(deep(new Error('Proxy Authentication Required (407)')), proxy)?.error.status).toBe(
      407,
    );
  });
});
