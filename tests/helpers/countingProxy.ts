/**
 * A small counting proxy in front of the reference service: for every request, the page it
 * asked for, its status, and how many requests the server side had in flight when it arrived —
 * so the bounds of a page walk (the sync, the export) are counted where the load lands.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { tempCore, type TempCore } from '../reliability/helpers';

export interface ProxiedRequest {
  page: number;
  status: number;
  /** Date.now() when it arrived and when its answer was sent (or it was dropped). */
  start: number;
  end: number;
  /** Requests in flight at the server when it arrived, itself included. */
  inFlightAtStart: number;
}

export interface CountingProxy {
  baseUrl: string;
  log: ProxiedRequest[];
  maxInFlight(): number;
  stop(): Promise<void>;
}

export async function countingProxy(target: string): Promise<CountingProxy> {
  const log: ProxiedRequest[] = [];
  let inFlight = 0;
  const server: Server = createServer((req, res) => {
    inFlight += 1;
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    const entry: ProxiedRequest = {
      page: Number(url.searchParams.get('page') ?? '1'),
      status: 0,
      start: Date.now(),
      end: 0,
      inFlightAtStart: inFlight,
    };
    log.push(entry);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      inFlight -= 1;
      entry.end = Date.now();
    };
    res.on('finish', finish);
    res.on('close', finish);
    const upstream = request(
      `${target}${req.url ?? '/'}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        entry.status = answer.statusCode ?? 0;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    log,
    maxInFlight: () => Math.max(0, ...log.map((r) => r.inFlightAtStart)),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The next list request to reach the service is refused once, asking for a second's wait. */
export const RATE_LIMIT_ONCE = {
  method: 'GET',
  path: '/api/v1/reports',
  status: 429,
  headers: { 'Retry-After': '1' },
  times: 1,
};

/** Checks the proxy's log around the one 429: after it, one at a time and not before Retry-After. */
export function expectPacedAfterRateLimit(proxy: CountingProxy, retryAfterMs: number): void {
  const limited = proxy.log.filter((r) => r.status === 429);
  expect(limited).toHaveLength(1);
  const [refused] = limited;
  const after = proxy.log.filter((r) => r.start >= refused.end);
  // The refused page was asked again, and everything after it came one at a time…
  expect(after.map((r) => r.page)).toContain(refused.page);
  expect(after.length).toBeGreaterThan(5);
  expect(after.every((r) => r.inFlightAtStart === 1)).toBe(true);
  // …none sooner than the wait the service asked for (a lower bound, never a deadline; a few
  // ms of slack for the wall clock against the timers' monotonic one).
  expect(Math.min(...after.map((r) => r.start - refused.end))).toBeGreaterThanOrEqual(retryAfterMs - 15);
  // Before the 429 the walk did ask several at a time.
  const before = proxy.log.filter((r) => r.start < refused.end);
  expect(Math.max(...before.map((r) => r.inFlightAtStart))).toBeGreaterThan(1);
}

/**
 * A real core on a temp data dir whose one profile ("Net") reaches the service through `proxy`,
 * with short time-outs and a quick retry, as the network tests use it.
 */
export async function coreBehindProxy(
  prefix: string,
  proxy: CountingProxy,
  apiKey: string,
): Promise<TempCore> {
  const app = await tempCore(prefix, {
    client: { timeoutMs: 5_000, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 10_000 } },
  });
  await app.core.handlers['profiles:add']({
    name: 'Net',
    baseUrl: proxy.baseUrl,
    apiKey,
    allowInsecureHttp: false,
    sessionOnly: false,
  });
  return app;
}
