/**
 * The client remembers each base URL it checked (issue 22: the gateway builds a client per
 * request, and parsing the address was most of that). What it remembers must never stand in
 * for a check it did not make: an address allowed over plain http with the profile's
 * allowance stays refused without it, before and after, and every client joins its paths onto
 * the address's own checked form.
 */
import { describe, expect, it } from 'vitest';
import { ReportServiceClient } from '../../../electron/core/api/client';
import { failureOf } from '../../helpers/failures';

const KEY = 'client-base-url-test-key-0042';

function clientFor(baseUrl: string, allowInsecureHttp: boolean, seen: string[] = []) {
  const fetch = (async (url: string | URL | Request) => {
    seen.push(String(url));
    return new Response('{"id":1}', { status: 200 });
  }) as typeof globalThis.fetch;
  return new ReportServiceClient({ baseUrl, apiKey: KEY, allowInsecureHttp, fetch });
}

describe('the base URLs a client remembers', () => {
  it('keep the plain-http allowance apart: allowed with it, refused without, in either order', () => {
    const address = 'http://reports.example.com/';
    expect(failureOf(() => clientFor(address, false))).toMatchObject({ kind: 'insecure_url' });
    expect(clientFor(address, true).baseUrl).toBe('http://reports.example.com');
    expect(failureOf(() => clientFor(address, false))).toMatchObject({ kind: 'insecure_url' });
    expect(clientFor(address, true).baseUrl).toBe('http://reports.example.com');
  });

  it('give every client its own address’s form and host, also past the most it keeps', async () => {
    for (let round = 0; round < 2; round++) {
      for (let n = 0; n < 40; n++) {
        const seen: string[] = [];
        const client = clientFor(`https://r${n}.example.org:8${n}/base/api/v1/`, false, seen);
        expect(client.baseUrl).toBe(`https://r${n}.example.org:8${n}/base`);
        await client.getAccount();
        expect(seen).toEqual([`https://r${n}.example.org:8${n}/base/api/v1/account`]);
      }
    }
  });

  it('name the host in a failure’s sentence', async () => {
    const failing = new ReportServiceClient({
      baseUrl: 'https://named-host.example:8443',
      apiKey: KEY,
      retry: { maxAttempts: 1 },
      fetch: (async () => {
        throw new TypeError('fetch failed');
      }) as typeof globalThis.fetch,
    });
    const error = await failing.getAccount().then(
      () => null,
      (thrown: { error: { message: string } }) => thrown.error,
    );
    expect(error?.message).toContain('named-host.example:8443');
  });
});
