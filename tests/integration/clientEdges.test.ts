/**
 * The client's guards and limits at their edges, each over real HTTP on 127.0.0.1 with the
 * requests counted on the server: keys and time-outs refused before anything is sent, replies
 * over the size limit refused once (never retried), the Retry-After cap boundary, the real
 * backoff sleep and a cancel during it, the key scrubbed by the client itself, and the debug
 * log lines. Companion of client.test.ts (the endpoints and statuses).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getEventListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ReportServiceClient, type ReportServiceClientOptions } from '../../electron/core/api/client';
import { createLogger, memorySink, redact } from '../../electron/core/log';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { failureOf, rejectionOf as failure } from '../helpers/failures';

const KEY = 'client-edges-key-Hh5Jj6Kk7';
const REPORTS = '/api/v1/reports';
const ACCOUNT = '/api/v1/account';

let service: DemoService;
let sleeps: number[] = [];

function client(overrides: Partial<ReportServiceClientOptions> = {}): ReportServiceClient {
  return new ReportServiceClient({
    baseUrl: service.baseUrl,
    apiKey: KEY,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...overrides,
  });
}

const count = (method: string, path: string) =>
  service.requests.filter((r) => r.method === method && r.path === path).length;

/** The list answers 429 once, asking for a wait of `seconds`. */
const rateLimitListOnce = (seconds: number) =>
  service.faults.add({
    method: 'GET',
    path: REPORTS,
    status: 429,
    headers: { 'Retry-After': String(seconds) },
    times: 1,
  });

beforeAll(async () => {
  service = await startDemoService({
    accounts: [{ apiKey: KEY, account: { id: 3, name: 'Edges', email: 'edges@test.example' } }],
    reportsPerAccount: 30,
  });
});

afterEach(() => {
  service.faults.clear();
  sleeps = [];
});

afterAll(async () => {
  await service.stop();
});

/** A raw server for replies the reference service does not make (lying lengths, chunked). */
async function rawServer(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests: () => requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('refused before anything is sent', () => {
  it.each([
    ['a space inside', 'abc def-123456'],
    ['a line break inside', 'abc\ndef-123456'],
    ['a tab inside', 'abc\tdef-123456'],
    ['a non-ASCII character', 'abcdéf-123456'],
    ['only spaces', '   '],
  ])('an API key with %s', (_name, apiKey) => {
    const before = service.requests.length;
    const error = failureOf(() => client({ apiKey }));
    expect(error.kind).toBe('invalid_input');
    expect(error.fieldErrors?.apiKey?.[0]).toMatch(/API key is empty or contains spaces/);
    expect(error.message).not.toContain('def-123456');
    expect(service.requests.length).toBe(before);
  });

  it('a key pasted with surrounding spaces and a line break is trimmed, then sent', async () => {
    const account = await client({ apiKey: `  ${KEY}\n` }).getAccount();
    expect(account.id).toBe(3);
    expect(service.requests.at(-1)?.authorized).toBe(true);
  });

  it.each([0, -1, NaN, Infinity])('a time-out of %s', (timeoutMs) => {
    const error = failureOf(() => client({ timeoutMs }));
    expect(error.kind).toBe('invalid_input');
    expect(error.fieldErrors?.timeout?.[0]).toBe('The time-out must be a positive number of seconds.');
  });

  it('a very small positive time-out is accepted', () => {
    expect(client({ timeoutMs: 1 }).baseUrl).toBe(service.baseUrl);
  });
});

describe('the key is registered as a secret for every log line', () => {
  it('registers the trimmed key, so no log line anywhere can carry it', () => {
    const fresh = 'fresh-registered-key-Uu1Vv2';
    client({ apiKey: ` ${fresh} ` });
    expect(redact(`key=${fresh};`)).toBe('key=[redacted];');
  });

  it('registers even a key it refuses, as typed', () => {
    const refused = 'refused key with spaces Ww3';
    failureOf(() => client({ apiKey: refused }));
    expect(redact(`typed: ${refused}`)).toBe('typed: [redacted]');
  });
});

describe('replies over the size limit', () => {
  it('a declared Content-Length over the limit is refused without reading the body, and fetched once', async () => {
    // The server promises 10 MB, sends a few bytes and then stalls: only the early refusal on
    // the declared length can answer; reading on would end in a time-out.
    const server = await rawServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(10_000_000) });
      res.write('{"data":[');
    });
    try {
      const error = await failure(
        client({ baseUrl: server.baseUrl, maxResponseBytes: 1_000_000, timeoutMs: 20_000 }).listReports(),
      );
      expect(error).toMatchObject({ kind: 'bad_response', status: 200 });
      expect(error.message).toContain('larger than 1 MB (HTTP 200).');
      expect(error.message).not.toContain('data');
      expect(server.requests()).toBe(1);
      expect(sleeps).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('a declared Content-Length exactly at the limit is read', async () => {
    const body = JSON.stringify({ id: 1, name: 'Exact' });
    const server = await rawServer((_req, res) => {
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
      });
      res.end(body);
    });
    try {
      const account = await client({
        baseUrl: server.baseUrl,
        maxResponseBytes: Buffer.byteLength(body),
      }).getAccount();
      expect(account).toEqual({ id: 1, name: 'Exact' });
    } finally {
      await server.stop();
    }
  });

  it('a declared oversize reply without a body stream is refused once, not retried as a network error', async () => {
    let calls = 0;
    const emptyBodyFetch: typeof fetch = async () => {
      calls++;
      return new Response(null, { status: 200, headers: { 'Content-Length': '99999999' } });
    };
    const error = await failure(client({ fetch: emptyBodyFetch, maxResponseBytes: 1_000 }).getAccount());
    expect(error).toMatchObject({ kind: 'bad_response', status: 200 });
    expect(error.message).toContain('larger than');
    expect(calls).toBe(1);
  });

  it('the excerpt of an oversized reply comes from its first kilobyte only', async () => {
    // Only a title (or a JSON message) is ever quoted, and only from the first kilobyte.
    const chunks = [' '.repeat(1_030) + '<title>PAST-THE-FIRST-KILOBYTE</title>', 'z'.repeat(3_000)];
    const chunkedFetch: typeof fetch = async () => {
      const queue = chunks.map((chunk) => new TextEncoder().encode(chunk));
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = queue.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      });
      return new Response(body, { status: 200 });
    };
    const error = await failure(client({ fetch: chunkedFetch, maxResponseBytes: 2_000 }).getAccount());
    expect(error.message).toContain('(HTTP 200).');
    expect(error.message).not.toContain('PAST-THE-FIRST-KILOBYTE');
  });

  it('a 204 with no body where a report was expected is an empty reply', async () => {
    service.faults.add({ method: 'GET', path: `${REPORTS}/4`, status: 204 });
    const error = await failure(client().getReport('4'));
    expect(error.message).toContain('HTTP 204 with an empty reply where data was expected');
  });

  it('a streamed reply (no length) passing the limit is cut off, quoted from its start, and fetched once', async () => {
    // The request goes to the real service; its reply is replaced by a stream that hands out
    // exactly these chunks, one per read (a socket may merge chunks, this stream never does).
    // A gateway's HTML error page: its title, at the start, is what gets quoted.
    const chunks = [
      '<html><head><title>start.example.org is overloaded</title></head><body>',
      'x'.repeat(1_500),
      '<title>yyy</title>' + 'y'.repeat(1_500),
    ];
    const chunkedFetch: typeof fetch = async (input, init) => {
      const real = await fetch(input, init);
      await real.arrayBuffer();
      const queue = chunks.map((chunk) => new TextEncoder().encode(chunk));
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = queue.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
    const before = count('GET', REPORTS);
    const error = await failure(client({ fetch: chunkedFetch, maxResponseBytes: 2_000 }).listReports());
    expect(error).toMatchObject({ kind: 'bad_response', status: 200 });
    expect(error.message).toContain('larger than 0 MB');
    expect(error.message).toContain('start.example.org');
    expect(error.message).not.toContain('yyy');
    expect(count('GET', REPORTS) - before).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('a first chunk alone over the limit is refused with nothing to quote', async () => {
    const server = await rawServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      res.end('{"data":[' + ' '.repeat(5_000) + ']}');
    });
    try {
      const error = await failure(client({ baseUrl: server.baseUrl, maxResponseBytes: 1_000 }).listReports());
      expect(error.message).toContain('larger than 0 MB (HTTP 200).');
      expect(server.requests()).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it('a streamed reply of exactly the limit is read', async () => {
    const body = JSON.stringify([{ id: 1, url: 'https://exact.example.org' }]);
    const server = await rawServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      res.write(body.slice(0, 10));
      res.end(body.slice(10));
    });
    try {
      const page = await client({
        baseUrl: server.baseUrl,
        maxResponseBytes: Buffer.byteLength(body),
      }).listReports();
      expect(page.reports.map((r) => r.url)).toEqual(['https://exact.example.org']);
    } finally {
      await server.stop();
    }
  });
});

/** A debug logger that aborts `controller` once the client logs that it starts a backoff wait. */
function abortingLogger(controller: AbortController) {
  return createLogger(
    'edges',
    (line) => {
      if (line.includes('retrying in')) setImmediate(() => controller.abort());
    },
    'debug',
  );
}

describe('retries at their edges', () => {
  it('a Retry-After exactly at the cap is waited for; one second more is reported at once', async () => {
    rateLimitListOnce(10);
    const page = await client().listReports();
    expect(page.reports).toHaveLength(10);
    expect(sleeps).toEqual([10_000]);

    sleeps = [];
    service.faults.add({ method: 'GET', path: REPORTS, status: 429, headers: { 'Retry-After': '11' } });
    const before = count('GET', REPORTS);
    const error = await failure(client().listReports());
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 11 });
    expect(count('GET', REPORTS) - before).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('the jitter rounds down, within the exponential ceiling', async () => {
    service.faults.add({ method: 'GET', path: REPORTS, status: 503 });
    await failure(client({ random: () => 0.999 }).listReports());
    expect(sleeps).toEqual([299, 599]);
  });

  it.each([
    [{ maxAttempts: 0 }, 1],
    [{ maxAttempts: 2.9 }, 2],
    [{ maxAttempts: 1 }, 1],
  ])('the attempt count %j sends %i request(s)', async (retry, requests) => {
    service.faults.add({ method: 'GET', path: REPORTS, status: 503 });
    const before = count('GET', REPORTS);
    await failure(client({ retry }).listReports());
    expect(count('GET', REPORTS) - before).toBe(requests);
  });

  it('negative delays count as no delay', async () => {
    service.faults.add({ method: 'GET', path: REPORTS, status: 503 });
    await failure(client({ retry: { baseDelayMs: -300 } }).listReports());
    expect(sleeps).toEqual([0, 0]);
    sleeps = [];
    await failure(client({ retry: { maxDelayMs: -5 } }).listReports());
    expect(sleeps).toEqual([0, 0]);
  });

  it('with a negative cap, any Retry-After is reported at once', async () => {
    service.faults.add({ method: 'GET', path: REPORTS, status: 429, headers: { 'Retry-After': '1' } });
    const before = count('GET', REPORTS);
    const error = await failure(client({ retry: { maxDelayMs: -5 } }).listReports());
    expect(error.kind).toBe('rate_limited');
    expect(count('GET', REPORTS) - before).toBe(1);
  });

  it("the real backoff sleep waits, then retries, and leaves no listener on the caller's signal", async () => {
    service.faults.add({ method: 'GET', path: REPORTS, status: 503, times: 2 });
    const before = count('GET', REPORTS);
    const signal = new AbortController().signal;
    const page = await client({ sleep: undefined, retry: { baseDelayMs: 20, maxDelayMs: 20 } }).listReports(
      {},
      { signal },
    );
    expect(page.reports).toHaveLength(10);
    expect(count('GET', REPORTS) - before).toBe(3);
    // A long-lived signal (one per window, say) must not collect a listener per attempt or wait.
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('the real backoff sleep waits its delay before asking again', async () => {
    service.faults.add({ method: 'GET', path: ACCOUNT, status: 503, times: 1 });
    const started = performance.now();
    await client({
      sleep: undefined,
      random: () => 0.99,
      retry: { baseDelayMs: 300, maxDelayMs: 300 },
    }).getAccount();
    // A lower bound only (a busy machine waits longer, never shorter): 0.99 × 300 ms of jitter,
    // less a millisecond Node's timers may round off.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('the real backoff sleep works without a signal too', async () => {
    service.faults.add({ method: 'GET', path: ACCOUNT, status: 503, times: 1 });
    const before = count('GET', ACCOUNT);
    const account = await client({
      sleep: undefined,
      retry: { baseDelayMs: 20, maxDelayMs: 20 },
    }).getAccount();
    expect(account.id).toBe(3);
    expect(count('GET', ACCOUNT) - before).toBe(2);
  });

  it('a cancel during the real backoff ends the wait as cancelled, with no further request', async () => {
    // The wait would be ten minutes: only the abort can end it before the test's own time-out.
    // The abort is sent when the client logs that it starts waiting.
    service.faults.add({ method: 'GET', path: REPORTS, status: 503 });
    const before = count('GET', REPORTS);
    const controller = new AbortController();
    const abortWhenWaiting = abortingLogger(controller);
    const pending = client({
      sleep: undefined,
      random: () => 0.99,
      retry: { baseDelayMs: 600_000, maxDelayMs: 600_000 },
      logger: abortWhenWaiting,
    }).listReports({}, { signal: controller.signal });
    const error = await failure(pending);
    expect(error).toMatchObject({ kind: 'cancelled', message: 'The request was cancelled.' });
    expect(count('GET', REPORTS) - before).toBe(1);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it("a sleep of the caller's own that rejects with its AbortError still reads as cancelled", async () => {
    service.faults.add({ method: 'GET', path: REPORTS, status: 503 });
    const controller = new AbortController();
    const abortWhenWaiting = abortingLogger(controller);
    const error = await failure(
      client({
        // node:timers/promises rejects with its own AbortError, not an AppFailure.
        sleep: (ms, signal) => delay(ms, undefined, { signal }),
        random: () => 0.99,
        retry: { baseDelayMs: 600_000, maxDelayMs: 600_000 },
        logger: abortWhenWaiting,
      }).listReports({}, { signal: controller.signal }),
    );
    expect(error.kind).toBe('cancelled');
  });

  it('a cancel that lands between the reply and the backoff ends it as cancelled at once', async () => {
    service.faults.add({ method: 'GET', path: REPORTS, status: 503 });
    const controller = new AbortController();
    const before = count('GET', REPORTS);
    // The reply is read in full before the abort, so the attempt itself fails as a 503.
    const abortingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const text = await response.text();
      controller.abort();
      return new Response(text, { status: response.status, headers: response.headers });
    };
    const error = await failure(
      client({
        fetch: abortingFetch,
        sleep: undefined,
        random: () => 0.99,
        retry: { baseDelayMs: 600_000, maxDelayMs: 600_000 },
      }).listReports({}, { signal: controller.signal }),
    );
    expect(error.kind).toBe('cancelled');
    expect(count('GET', REPORTS) - before).toBe(1);
  });

  it('a sleep that fails for another reason is not reported as a cancel', async () => {
    service.faults.add({ method: 'GET', path: REPORTS, status: 503 });
    const error = await failure(
      client({
        sleep: () => Promise.reject(new Error('timer broke')),
      }).listReports({}, { signal: new AbortController().signal }),
    );
    expect(error.kind).toBe('internal');
  });
});

describe('what each endpoint says about itself', () => {
  it.each([
    ['list', () => client().listReports(), 'list reports'],
    ['read', () => client().getReport('5'), 'read report 5'],
    ['create', () => client().createReport({ url: 'https://a.example.org', privacy: 0 }), 'create reports'],
    ['change', () => client().updateReport('5', { privacy: 1 }), 'change report 5'],
    ['delete', () => client().deleteReport('5'), 'delete report 5'],
    ['account', () => client().getAccount(), 'read the account'],
  ])('a 403 on %s names the action', async (_name, call, action) => {
    service.faults.add({ path: /^\/api\/v1\//, status: 403 });
    const error = await failure(call());
    expect(error.message).toContain(`The API key is not allowed to ${action} (HTTP 403)`);
  });

  it('a failed change says the outcome is unknown, and a 404 on it names the report', async () => {
    service.faults.add({ method: 'PUT', path: `${REPORTS}/8`, status: 500, times: 1 });
    const unknown = await failure(client().updateReport('8', { privacy: 1 }));
    expect(unknown.message).toContain(
      'Report 8 may or may not have been changed; refresh it before trying again.',
    );
    service.faults.add({ method: 'PUT', path: `${REPORTS}/8`, status: 404, times: 1 });
    const gone = await failure(client().updateReport('8', { privacy: 1 }));
    expect(gone.message).toContain('Report 8 was not found');
  });

  it('an id that is not valid is refused under the id field with the rule it breaks', async () => {
    const error = await failure(client().getReport('a/b'));
    expect(error.fieldErrors).toEqual({ id: ['A report id may contain only letters, digits, "-" and "_".'] });
    expect(error.message).toBe('A report id may contain only letters, digits, "-" and "_".');
  });

  it('a 429 goes straight to a caller that paces itself (the full sync), and is retried for everyone else', async () => {
    rateLimitListOnce(1);
    let before = count('GET', REPORTS);
    const error = await failure(client().listReports({}, { retryRateLimited: false }));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 1 });
    expect({ requests: count('GET', REPORTS) - before, sleeps }).toEqual({ requests: 1, sleeps: [] });
    // Any other retryable failure is still retried for that caller.
    service.faults.add({ method: 'GET', path: REPORTS, status: 503, times: 1 });
    before = count('GET', REPORTS);
    await client().listReports({}, { retryRateLimited: false });
    expect(count('GET', REPORTS) - before).toBe(2);
    // Without the option a 429 is waited for and asked again.
    rateLimitListOnce(1);
    before = count('GET', REPORTS);
    await client().listReports();
    expect(count('GET', REPORTS) - before).toBe(2);
  });

  it.each(['create', 'change'] as const)(
    'a report password the %s sent is never quoted back, however short',
    async (action) => {
      const password = 'q7!';
      const said = `The password ${password} is too short.`;
      service.faults.add({
        method: action === 'create' ? 'POST' : 'PUT',
        path: action === 'create' ? REPORTS : /^\/api\/v1\/reports\//,
        status: 422,
        body: JSON.stringify({ message: said, errors: { password: [said] } }),
      });
      const error = await failure(
        action === 'create'
          ? client().createReport({ url: 'https://a.example.org', privacy: 2, password })
          : client().updateReport('1', { privacy: 2, password }),
      );
      expect(error.kind).toBe('validation');
      expect(JSON.stringify(error)).not.toContain(password);
      expect(error.fieldErrors?.password?.[0]).toBe('The password [redacted] is too short.');
    },
  );

  it('a report password given to create is registered as a secret', async () => {
    const password = 'create-password-Rr5Ss6';
    service.faults.add({ method: 'POST', path: REPORTS, status: 500, times: 1 });
    await failure(client().createReport({ url: 'https://a.example.org', privacy: 2, password }));
    expect(redact(`pw=${password};`)).toBe('pw=[redacted];');
  });

  it('allows plain http to another host when explicitly asked', () => {
    expect(client({ baseUrl: 'http://reports.example.com/api/v1', allowInsecureHttp: true }).baseUrl).toBe(
      'http://reports.example.com',
    );
  });
});

describe('requests as sent', () => {
  it('a GET carries no query string, no body and no Content-Type when nothing is asked for', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    const spy: typeof fetch = (input, init) => {
      sent.push({ url: String(input), init: init ?? {} });
      return fetch(input, init);
    };
    await client({ fetch: spy }).listReports();
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toBe(`${service.baseUrl}${REPORTS}`);
    expect(sent[0].init.body).toBeUndefined();
    expect(sent[0].init.headers).toEqual({ Authorization: `Bearer ${KEY}`, Accept: 'application/json' });
    expect(sent[0].init.redirect).toBe('manual');
  });

  it('any 2xx is success, 299 included', async () => {
    service.faults.add({ method: 'DELETE', path: `${REPORTS}/1`, status: 299, body: '' });
    await expect(client().deleteReport('1')).resolves.toBeUndefined();
  });
});

describe('debug log lines', () => {
  function logged() {
    const sink = memorySink();
    return { sink, logger: createLogger('edges', sink, 'debug') };
  }
  const durations = (lines: string[]) => lines.map((line) => Number(/ (\d+)ms/.exec(line)?.[1] ?? NaN));

  it('one line per attempt and one per wait, each with its attempt number', async () => {
    service.faults.add({ method: 'GET', path: ACCOUNT, status: 503, times: 1 });
    const { sink, logger } = logged();
    const started = Date.now();
    await client({ logger }).getAccount();
    const elapsed = Date.now() - started;
    const lines = sink.lines.map((line) => line.replace(/^\S+ /, ''));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^DEBUG \[edges\] GET \/api\/v1\/account 503 \d+ms {"attempt":1}$/);
    expect(lines[1]).toBe(
      'DEBUG [edges] GET /api/v1/account retrying in 150ms {"attempt":1,"kind":"server_error"}',
    );
    expect(lines[2]).toMatch(/^DEBUG \[edges\] GET \/api\/v1\/account 200 \d+ms {"attempt":2}$/);
    // A duration is the attempt's own: never more than the whole call took.
    for (const ms of durations([lines[0], lines[2]])) expect(ms).toBeLessThanOrEqual(elapsed);
  });

  it('names the outcome of an attempt without a status: time-out, network error, cancelled', async () => {
    const { sink, logger } = logged();
    service.faults.add({ method: 'GET', path: ACCOUNT, delayMs: 1_000, passThrough: true, times: 1 });
    await failure(client({ logger, timeoutMs: 100, retry: { maxAttempts: 1 } }).getAccount());
    service.faults.add({ method: 'GET', path: ACCOUNT, hangUp: true, times: 1 });
    await failure(client({ logger, retry: { maxAttempts: 1 } }).getAccount());
    service.faults.add({ method: 'GET', path: ACCOUNT, delayMs: 5_000, passThrough: true, times: 1 });
    const controller = new AbortController();
    const before = count('GET', ACCOUNT);
    const pending = client({ logger }).getAccount({ signal: controller.signal });
    while (count('GET', ACCOUNT) === before) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await failure(pending);
    const outcomes = sink.lines.map((line) => / GET \/api\/v1\/account (.*) \d+ms/.exec(line)?.[1]);
    expect(outcomes).toEqual(['timeout', 'network error', 'cancelled']);
  });
});
