/**
 * The CLI behind a proxy, as a real process (node + tsx, what `npm run cli` runs): HTTPS_PROXY /
 * HTTP_PROXY / NO_PROXY in either case, a login in the proxy URL, and a proxy that refuses (407).
 * The Report Service is the reference service behind TLS under a host name that does not resolve
 * (tests/helpers/proxy.ts), so only the CONNECT proxy written for these tests, which maps that
 * name to it, can reach it; the CLI trusts the test CA through NODE_EXTRA_CA_CERTS, as a user
 * behind a company CA would.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, startDemoService, type DemoService } from '../../electron/demo-service/server';
import { spawnCliCaptured, type CliRun } from '../helpers/cli';
import {
  makeTestCertificates,
  PROXY_ONLY_HOST,
  startTestProxy,
  startTlsFront,
  type TestCertificates,
  type TestProxy,
  type TlsFront,
} from '../helpers/proxy';

let service: DemoService;
let certificates: TestCertificates;
let tlsFront: TlsFront;
const proxies: TestProxy[] = [];
const dataDirs: string[] = [];

beforeAll(async () => {
  service = await startDemoService();
  certificates = makeTestCertificates();
  tlsFront = await startTlsFront(certificates, service.baseUrl);
});

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.stop()));
});

afterAll(async () => {
  await tlsFront?.stop();
  await service?.stop();
  certificates?.remove();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

async function proxy(login?: { user: string; password: string }): Promise<TestProxy> {
  const started = await startTestProxy({ routes: { [`${PROXY_ONLY_HOST}:443`]: tlsFront.port }, login });
  proxies.push(started);
  return started;
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

/** `account --json` with the key in the environment and only the given proxy variables set. */
async function account(baseUrl: string, proxyEnv: Record<string, string>, extraArgs: string[] = []) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cli-proxy-'));
  dataDirs.push(dataDir);
  const cleared = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, '']));
  const run = await spawnCliCaptured(['--base-url', baseUrl, 'account', '--json', ...extraArgs], {
    ...cleared,
    ...proxyEnv,
    NODE_EXTRA_CA_CERTS: certificates.caFile,
    REPORT_DESK_API_KEY: DEMO_API_KEY,
    REPORT_DESK_DATA_DIR: dataDir,
    REPORT_DESK_RETRY_BASE_MS: '1',
  });
  return { ...run, dataDir };
}

function accountId(run: CliRun): unknown {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { id: unknown }).id;
}

/** Every file the run left in its data folder (the cache, any log), as text. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'latin1'));
}

const serviceUrl = `https://${PROXY_ONLY_HOST}`;

describe('the CLI behind a CONNECT proxy', () => {
  it('cannot reach the service without the proxy (its host name does not resolve)', async () => {
    const run = await account(serviceUrl, {}, ['--no-cache']);
    expect(run.code).toBe(6);
    expect(run.stderr).toMatch(/could not be reached: the host name was not found/);
  });

  it('reaches it through HTTPS_PROXY, trusting the CA from NODE_EXTRA_CA_CERTS', async () => {
    const via = await proxy();
    const before = service.requests.length;
    const run = await account(serviceUrl, { HTTPS_PROXY: `http://127.0.0.1:${via.port}` });
    expect(accountId(run)).toBe(1);
    expect(via.connects).toEqual([{ target: `${PROXY_ONLY_HOST}:443` }]);
    expect(service.requests.slice(before)).toMatchObject([
      { method: 'GET', path: '/api/v1/account', authorized: true },
    ]);
  });

  it('logs in to a proxy with the user and password in https_proxy (percent-encoded)', async () => {
    const login = { user: 'desk user', password: 'p@ss:wörd/1%' };
    const via = await proxy(login);
    const url = `http://${encodeURIComponent(login.user)}:${encodeURIComponent(login.password)}@127.0.0.1:${via.port}`;
    const run = await account(serviceUrl, { https_proxy: url });
    expect(accountId(run)).toBe(1);
    expect(via.connects).toEqual([
      {
        target: `${PROXY_ONLY_HOST}:443`,
        authorization: `Basic ${Buffer.from(`${login.user}:${login.password}`).toString('base64')}`,
      },
    ]);
  });

  it('a proxy that refuses the login (407) is exit 6, names the proxy, and its password is nowhere', async () => {
    const password = 'Wrong-Proxy-Secret-4071';
    const via = await proxy({ user: 'desk', password: 'the-right-one' });
    const run = await account(serviceUrl, { HTTPS_PROXY: `http://desk:${password}@127.0.0.1:${via.port}` }, [
      '--verbose',
    ]);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain(
      `The proxy 127.0.0.1:${via.port} (from HTTPS_PROXY) did not accept the user name and password given in HTTPS_PROXY (HTTP 407).`,
    );
    expect(run.stdout).toBe('');
    expect(via.connects).toHaveLength(1);
    for (const text of [run.stdout, run.stderr, ...filesUnder(run.dataDir)])
      expect(text).not.toContain(password);
    // --verbose did log (the search above had lines to look at).
    expect(run.stderr).toMatch(/DEBUG \[report-desk\] proxy 127\.0\.0\.1:\d+ from HTTPS_PROXY/);
  });

  it('a proxy that asks for a login none was given for says how to give one', async () => {
    const via = await proxy({ user: 'desk', password: 'the-right-one' });
    const run = await account(serviceUrl, { HTTPS_PROXY: `http://127.0.0.1:${via.port}` }, ['--no-cache']);
    expect(run.code).toBe(6);
    expect(run.stderr).toBe(
      `The proxy 127.0.0.1:${via.port} (from HTTPS_PROXY) asks for a login (HTTP 407). Give it in HTTPS_PROXY as http://user:password@127.0.0.1:${via.port}, or add the Report Service's host to NO_PROXY if it can be reached without the proxy.\n`,
    );
  });

  it('goes direct to a host NO_PROXY names, and through the proxy without it', async () => {
    const via = await proxy();
    const direct = `https://localhost:${tlsFront.port}`;
    const bypassed = await account(direct, {
      HTTPS_PROXY: `http://127.0.0.1:${via.port}`,
      no_proxy: 'example.org, localhost',
    });
    expect(accountId(bypassed)).toBe(1);
    expect(via.connects).toEqual([]);
    const proxied = await account(direct, { HTTPS_PROXY: `http://127.0.0.1:${via.port}` });
    expect(accountId(proxied)).toBe(1);
    expect(via.connects).toEqual([{ target: `localhost:${tlsFront.port}` }]);
  });

  it('uses HTTP_PROXY for http:// services only, as curl does', async () => {
    const via = await proxy();
    const https = await account(`https://localhost:${tlsFront.port}`, {
      HTTP_PROXY: `http://127.0.0.1:${via.port}`,
    });
    expect(accountId(https)).toBe(1);
    expect(via.connects).toEqual([]);
    const http = await account(service.baseUrl, { HTTP_PROXY: `http://127.0.0.1:${via.port}` });
    expect(accountId(http)).toBe(1);
    expect(via.connects).toEqual([{ target: new URL(service.baseUrl).host }]);
  });
});
