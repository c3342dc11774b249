/**
 * The Report Service client against the real demo service on 127.0.0.1. Faults (statuses,
 * bodies, delays, hang-ups) come from the service's fault rules; retry waits go through an
 * injected sleep that records the delay and returns at once, so nothing here waits for real.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ReportServiceClient, type ReportServiceClientOptions } from '../../electron/core/api/client';
import { createLogger, memorySink } from '../../electron/core/log';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { AppFailure, type AppError } from '../../shared/errors';
import { clientSuiteTransport, transportFetch } from '../helpers/electronNet';
import { freeLoopbackPort } from '../helpers/network';

const KEY = 'client-test-key-Zq8w7Xv2Lm4';
const OTHER_KEY = 'client-test-other-key-Pp3Rr9';
const REPORTS = '/api/v1/reports';

let service: DemoService;
const sink = memorySink();
const logger = createLogger('test', sink, 'debug');
let sleeps: number[] = [];
/** Every error message any test saw: none may contain the key. */
const seenMessages: string[] = [];

function client(overrides: Partial<ReportServiceClientOptions> = {}): ReportServiceClient {
  return new ReportServiceClient({
    baseUrl: service.baseUrl,
    apiKey: KEY,
    logger,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    // Node's fetch, or (clientElectronNet.test.ts) a fetch that behaves like Electron's net.fetch.
    fetch: transportFetch(clientSuiteTransport.name),
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(AppFailure);
    const error = (thrown as AppFailure).error;
    seenMessages.push(error.message, (thrown as Error).message, JSON.stringify(error));
    return error;
  }
  throw new Error('expected the call to fail');
}

function requestsTo(method: string, path: string) {
  return service.requests.filter((r) => r.method === method && r.path === path);
}

function lastQuery(): URLSearchParams {
  return new URLSearchParams(service.requests[service.requests.length - 1].query);
}

const HTML_502 =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body { color: red }</style></head>' +
  '<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx/1.25.3</center></body></html>';

beforeAll(async () => {
  service = await startDemoService({
    accounts: [
      { apiKey: KEY, account: { id: 7, name: 'Client Test', email: 'client@test.example' } },
      { apiKey: OTHER_KEY, account: { id: 8, name: 'Other', email: 'other@test.example' } },
    ],
    reportsPerAccount: 60,
  });
});

afterEach(() => {
  service.faults.clear();
  sleeps = [];
});

afterAll(async () => {
  await service.stop();
});

describe('endpoints', () => {
  it('lists the first page with the paginator metadata and keeps unknown fields', async () => {
    const total = service.reportCount(KEY);
    const page = await client().listReports();
    expect(page.page).toBe(1);
    expect(page.perPage).toBe(10);
    expect(page.total).toBe(total);
    expect(page.lastPage).toBe(Math.ceil(total / 10));
    expect(page.reports).toHaveLength(10);
    const first = page.reports[0];
    expect(typeof first.id).toBe('string');
    expect(first.url).toMatch(/^https?:\/\//);
    expect(first).toHaveProperty('score');
    expect(first).toHaveProperty('summary.checks');
    // Defaults are not sent: the service applies its own.
    expect(lastQuery().toString()).toBe('');
  });

  it('sends every list parameter and gets the filtered, sorted page back', async () => {
    const api = client();

    const searched = await api.listReports({ search: 'contoso', search_by: 'url', per_page: 100 });
    expect(lastQuery().get('search')).toBe('contoso');
    expect(searched.reports.length).toBeGreaterThan(0);
    for (const r of searched.reports) expect(r.url.toLowerCase()).toContain('contoso');

    const all = await api.listReports({ per_page: 100 });
    const project = all.reports.map((r) => r.project).find((p): p is string => typeof p === 'string');
    expect(project).toBeDefined();
    const byProject = await api.listReports({ project, per_page: 100 });
    expect(lastQuery().get('project')).toBe(project);
    expect(byProject.reports.length).toBeGreaterThan(0);
    for (const r of byProject.reports) expect(r.project).toBe(project);

    const bad = await api.listReports({ result: 'bad', per_page: 50 });
    expect(lastQuery().get('result')).toBe('bad');
    expect(bad.reports.length).toBeGreaterThan(0);
    for (const r of bad.reports) expect(r.result).toBe('bad');

    const ascending = await api.listReports({ sort_by: 'url', sort: 'asc', per_page: 25 });
    expect(lastQuery().get('sort_by')).toBe('url');
    expect(lastQuery().get('sort')).toBe('asc');
    expect(lastQuery().get('per_page')).toBe('25');
    expect(ascending.reports).toHaveLength(25);
    const urls = ascending.reports.map((r) => r.url);
    expect(urls).toEqual([...urls].sort((a, b) => a.localeCompare(b, 'en')));

    const byIdAsc = await api.listReports({ sort_by: 'id', sort: 'asc' });
    const ids = byIdAsc.reports.map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const page2 = await api.listReports({ page: 2 });
    expect(lastQuery().get('page')).toBe('2');
    expect(page2.page).toBe(2);
    const page1Ids = (await api.listReports()).reports.map((r) => r.id);
    expect(page2.reports.map((r) => r.id).some((id) => page1Ids.includes(id))).toBe(false);
  });

  it('reads one report, and reports another account’s id as not found', async () => {
    const api = client();
    const listed = (await api.listReports()).reports[0];
    const report = await api.getReport(listed.id);
    expect(report).toEqual(listed);

    const foreignId = (await client({ apiKey: OTHER_KEY }).listReports()).reports[0].id;
    const error = await failure(api.getReport(foreignId));
    expect(error.kind).toBe('not_found');
    expect(error.status).toBe(404);
    expect(error.message).toContain(`Report ${foreignId} was not found`);
  });

  it('refuses an id that could change the path, before sending anything', async () => {
    const before = service.requests.length;
    for (const id of ['', '..', 'a/b', '12?x=1']) {
      const error = await failure(client().getReport(id));
      expect(error.kind).toBe('invalid_input');
    }
    expect(service.requests.length).toBe(before);
  });

  it('creates, updates and deletes a report with form bodies and the right headers', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    const spyFetch: typeof fetch = (input, init) => {
      sent.push({ url: String(input), init: init ?? {} });
      return transportFetch(clientSuiteTransport.name)(input, init);
    };
    const api = client({ fetch: spyFetch });
    const before = service.reportCount(KEY);

    const created = await api.createReport({ url: 'https://created.example.org/page', privacy: 0 });
    expect(created.url).toBe('https://created.example.org/page');
    expect(created.privacy).toBe(0);
    expect(service.reportCount(KEY)).toBe(before + 1);
    const post = sent[sent.length - 1];
    expect(post.init.method).toBe('POST');
    expect(post.url).toBe(`${service.baseUrl}${REPORTS}`);
    const headers = post.init.headers as Record<string, string>;
    expect(headers.Authorization).toBe(`Bearer ${KEY}`);
    expect(headers.Accept).toBe('application/json');
    expect(headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(post.init.body).toBe('url=https%3A%2F%2Fcreated.example.org%2Fpage&privacy=0');

    const updated = await api.updateReport(created.id, {
      privacy: 2,
      password: 'pw-Secret-4711',
      results: 1,
    });
    expect(updated.privacy).toBe(2);
    expect(updated.results).toBe(true);
    expect(JSON.stringify(updated)).not.toContain('pw-Secret-4711');
    const put = sent[sent.length - 1];
    expect(put.init.method).toBe('PUT');
    expect(put.url).toBe(`${service.baseUrl}${REPORTS}/${created.id}`);
    expect(put.init.body).toBe('privacy=2&password=pw-Secret-4711&results=1');

    await api.deleteReport(created.id);
    expect(sent[sent.length - 1].init.method).toBe('DELETE');
    expect(service.reportCount(KEY)).toBe(before);
    expect((await failure(api.getReport(created.id))).kind).toBe('not_found');
    expect((await failure(api.deleteReport(created.id))).kind).toBe('not_found');
  });

  it('reads the account behind the key', async () => {
    const account = await client().getAccount();
    expect(account).toMatchObject({ id: 7, name: 'Client Test', email: 'client@test.example' });
    expect(requestsTo('GET', '/api/v1/account').at(-1)?.authorized).toBe(true);
  });

  it('accepts a base URL pasted with /api/v1 and a trailing slash', async () => {
    const api = client({ baseUrl: `${service.baseUrl}/api/v1/` });
    expect(api.baseUrl).toBe(service.baseUrl);
    expect((await api.getAccount()).id).toBe(7);
  });
});

describe('error statuses', () => {
  it('401: a rejected key', async () => {
    const error = await failure(client({ apiKey: 'wrong-key-123456' }).getAccount());
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401 });
    expect(error.message).toMatch(/rejected the API key/);
  });

  it('403: a key without permission', async () => {
    service.faults.add({ path: REPORTS, status: 403, body: '{"message":"This action is unauthorized."}' });
    const error = await failure(client().listReports());
    expect(error).toMatchObject({ kind: 'forbidden', status: 403 });
    expect(error.message).toContain('not allowed to list reports');
    expect(requestsTo('GET', REPORTS).length).toBeGreaterThan(0);
    expect(sleeps).toEqual([]);
  });

  it('404 on a list means the base URL is wrong', async () => {
    const error = await failure(client({ baseUrl: `${service.baseUrl}/wrong-prefix` }).listReports());
    expect(error.kind).toBe('not_found');
    expect(error.message).toMatch(/Check that the base URL/);
  });

  it('422: the service’s message and field errors', async () => {
    const error = await failure(client().createReport({ url: 'https://x.example.org', privacy: 2 }));
    expect(error.kind).toBe('validation');
    expect(error.status).toBe(422);
    expect(error.fieldErrors?.password?.[0]).toMatch(/password/i);
    expect(error.message).toMatch(/did not accept the input/);
  });

  it('422 from a fault body: field messages are sanitised', async () => {
    service.faults.add({
      method: 'PUT',
      path: /^\/api\/v1\/reports\/\d+$/,
      status: 422,
      body: JSON.stringify({
        message: 'The given data was invalid.',
        errors: { privacy: ['<b>Bad</b>\u001b[31m value.'] },
      }),
    });
    const error = await failure(client().updateReport('1', { privacy: 1 }));
    expect(error.fieldErrors).toEqual({ privacy: ['Bad value.'] });
    expect(error.message).toBe(
      'The Report Service did not accept the input: The given data was invalid. Correct it and try again.',
    );
  });

  it('429 without Retry-After: retried with jittered exponential backoff, then rate_limited', async () => {
    service.faults.add({ method: 'GET', path: REPORTS, status: 429 });
    const before = requestsTo('GET', REPORTS).length;
    const error = await failure(client().listReports());
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429 });
    expect(error.retryAfterSeconds).toBeUndefined();
    expect(requestsTo('GET', REPORTS).length - before).toBe(3);
    // random() = 0.5 of min(maxDelay, 300 · 2^(n-1)).
    expect(sleeps).toEqual([150, 300]);
  });

  it('backoff is capped at maxDelayMs', async () => {
    service.faults.add({ method: 'GET', path: REPORTS, status: 503 });
    await failure(client({ retry: { maxAttempts: 4, baseDelayMs: 4000, maxDelayMs: 10_000 } }).listReports());
    expect(sleeps).toEqual([2000, 4000, 5000]);
  });

  it('429 with Retry-After in seconds: waits exactly that long between attempts', async () => {
    service.faults.add({ method: 'GET', path: REPORTS, status: 429, headers: { 'Retry-After': '2' } });
    const error = await failure(client().listReports());
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 2 });
    expect(error.message).toContain('wait 2 seconds');
    expect(sleeps).toEqual([2000, 2000]);
  });

  it('429 with Retry-After beyond the cap: fails at once without waiting', async () => {
    service.faults.add({ method: 'GET', path: REPORTS, status: 429, headers: { 'Retry-After': '120' } });
    const before = requestsTo('GET', REPORTS).length;
    const error = await failure(client().listReports());
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 120 });
    expect(requestsTo('GET', REPORTS).length - before).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('429 with an HTTP-date Retry-After', async () => {
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    service.faults.add({
      method: 'GET',
      path: REPORTS,
      status: 429,
      headers: { 'Retry-After': inAMinute },
      times: 1,
    });
    const error = await failure(client().listReports());
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(55);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(61);
    expect(sleeps).toEqual([]);

    const past = new Date(Date.now() - 60_000).toUTCString();
    service.faults.add({
      method: 'GET',
      path: REPORTS,
      status: 429,
      headers: { 'Retry-After': past },
      times: 1,
    });
    const page = await client().listReports();
    expect(page.reports).toHaveLength(10);
    expect(sleeps).toEqual([0]);
  });

  it('500: server_error after the retries', async () => {
    service.faults.add({ method: 'GET', path: '/api/v1/account', status: 500 });
    const error = await failure(client().getAccount());
    expect(error).toMatchObject({ kind: 'server_error', status: 500 });
    expect(error.message).toContain('HTTP 500');
    expect(sleeps).toHaveLength(2);
  });

  it('502 with an HTML page: the message quotes the page title only, never the body', async () => {
    service.faults.add({ path: REPORTS, status: 502, body: HTML_502, contentType: 'text/html' });
    const error = await failure(client().listReports());
    expect(error).toMatchObject({ kind: 'server_error', status: 502 });
    expect(error.message).toBe(
      'The Report Service had an internal problem (HTTP 502, "502 Bad Gateway"). Try again in a moment.',
    );
  });

  it('500 with a JSON reply: the message quotes its message, never the raw JSON', async () => {
    service.faults.add({ path: REPORTS, status: 500, body: '{"message":"Server Error","trace":"at x()"}' });
    const error = await failure(client().listReports());
    expect(error.message).toBe(
      'The Report Service had an internal problem (HTTP 500, "Server Error"). Try again in a moment.',
    );
  });

  it('500 with plain text or JSON without a message: the status alone', async () => {
    service.faults.add({ path: REPORTS, status: 500, body: 'Traceback (most recent call last)' });
    const text = await failure(client().listReports());
    expect(text.message).toBe(
      'The Report Service had an internal problem (HTTP 500). Try again in a moment.',
    );
    service.faults.clear();
    service.faults.add({ path: REPORTS, status: 503, body: '{"error":{"code":17}}' });
    const json = await failure(client().listReports());
    expect(json.message).toBe(
      'The Report Service had an internal problem (HTTP 503). Try again in a moment.',
    );
  });

  it('a redirect is not followed (the key stays with the base URL)', async () => {
    service.faults.add({
      path: REPORTS,
      status: 301,
      headers: { Location: 'https://elsewhere.example.com/api/v1/reports' },
    });
    const before = service.requests.length;
    const error = await failure(client().listReports());
    if (clientSuiteTransport.name === 'node') {
      expect(error).toMatchObject({ kind: 'bad_response', status: 301 });
      expect(error.message).toContain('elsewhere.example.com');
    } else {
      // Electron's net.fetch rejects without saying where (electron/electron#43715): still the
      // redirect message, not "could not be reached", and not retried.
      expect(error.kind).toBe('bad_response');
      expect(error.message).toMatch(/^The Report Service address redirects to another address\./);
      // The attempt's debug line says what happened to it.
      expect(sink.lines.at(-1)).toMatch(/GET \/api\/v1\/reports redirect \d+ms/);
    }
    expect(service.requests.length - before).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('another status is a bad_response that quotes it', async () => {
    service.faults.add({ path: REPORTS, status: 418, body: '{"message":"I am a teapot"}' });
    const error = await failure(client().listReports());
    expect(error).toMatchObject({ kind: 'bad_response', status: 418 });
    expect(error.message).toContain('HTTP 418');
  });
});

describe('transport failures', () => {
  it('a time-out per attempt, retried for GET', async () => {
    service.faults.add({ method: 'GET', path: REPORTS, delayMs: 1_000, passThrough: true });
    const before = requestsTo('GET', REPORTS).length;
    const error = await failure(client({ timeoutMs: 100 }).listReports());
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('0.1 seconds');
    expect(requestsTo('GET', REPORTS).length - before).toBe(3);
  });

  it('a hang-up is a network error', async () => {
    service.faults.add({ method: 'GET', path: '/api/v1/account', hangUp: true });
    const error = await failure(client().getAccount());
    expect(error.kind).toBe('network');
    expect(error.message).toContain('closed before an answer');
    expect(sleeps).toHaveLength(2);
  });

  it('connection refused is a network error that names the host', async () => {
    const port = await freeLoopbackPort();
    const error = await failure(client({ baseUrl: `http://127.0.0.1:${port}` }).getAccount());
    expect(error.kind).toBe('network');
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toContain('refused');
  });

  it('the caller’s abort is cancelled, not retried', async () => {
    service.faults.add({ method: 'GET', path: REPORTS, delayMs: 5_000, passThrough: true });
    const before = requestsTo('GET', REPORTS).length;
    const controller = new AbortController();
    const pending = client().listReports({}, { signal: controller.signal });
    while (requestsTo('GET', REPORTS).length === before) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const error = await failure(pending);
    expect(error.kind).toBe('cancelled');
    expect(requestsTo('GET', REPORTS).length - before).toBe(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const before = service.requests.length;
    const error = await failure(client().getAccount({ signal: AbortSignal.abort() }));
    expect(error.kind).toBe('cancelled');
    expect(service.requests.length).toBe(before);
  });
});

describe('bad replies', () => {
  it('invalid JSON', async () => {
    service.faults.add({ path: REPORTS, status: 200, body: '{"data": [ {"id": 1,' });
    const error = await failure(client().listReports());
    expect(error).toMatchObject({ kind: 'bad_response', status: 200 });
    expect(error.message).toContain('not JSON');
    expect(error.message).not.toContain('{"data"');
  });

  it('an HTML page with status 200', async () => {
    service.faults.add({
      path: '/api/v1/account',
      status: 200,
      body: HTML_502.replace(/502 Bad Gateway/g, 'Welcome'),
      contentType: 'text/html',
    });
    const error = await failure(client().getAccount());
    expect(error).toMatchObject({ kind: 'bad_response', status: 200 });
    expect(error.message).toContain('("Welcome")');
    expect(error.message).not.toContain('nginx');
  });

  it('a wrong shape', async () => {
    service.faults.add({ path: REPORTS, status: 200, body: '{"items": [], "count": 0}' });
    const error = await failure(client().listReports());
    expect(error.kind).toBe('bad_response');
    expect(error.message).toContain('unexpected shape');
  });

  it('a report that fails the schema', async () => {
    service.faults.add({
      path: REPORTS,
      status: 200,
      body: '[{"id": 1, "url": "https://a.example"}, {"id": 2}]',
    });
    const error = await failure(client().listReports());
    expect(error.kind).toBe('bad_response');
    expect(error.message).toContain('item 2, field "url"');
  });

  it('an empty 200 where a report was expected', async () => {
    service.faults.add({ path: /^\/api\/v1\/reports\/\d+$/, status: 200, body: '' });
    const error = await failure(client().getReport('1'));
    expect(error.kind).toBe('bad_response');
    // The problem itself, not only the excerpt (an empty excerpt also reads "an empty reply").
    expect(error.message).toContain('HTTP 200 with an empty reply where data was expected');
    expect(error.message).not.toContain('not JSON');
  });

  it('a reply larger than maxResponseBytes', async () => {
    const error = await failure(client({ maxResponseBytes: 2_000 }).listReports({ per_page: 100 }));
    expect(error).toMatchObject({ kind: 'bad_response', status: 200 });
    expect(error.message).toContain('larger than');
  });
});

describe('tolerated shapes', () => {
  const report = (id: number) => ({
    id,
    url: `https://shape${id}.example.org`,
    result: 'good',
    extra: { kept: true },
  });

  it('a bare array: page and perPage from the request, total and lastPage unknown', async () => {
    service.faults.add({ path: REPORTS, status: 200, body: JSON.stringify([report(1), report(2)]) });
    const page = await client().listReports({ page: 3, per_page: 25 });
    expect(page).toEqual({
      reports: [
        { id: '1', url: 'https://shape1.example.org', result: 'good', extra: { kept: true } },
        { id: '2', url: 'https://shape2.example.org', result: 'good', extra: { kept: true } },
      ],
      page: 3,
      perPage: 25,
      total: null,
      lastPage: null,
    });
  });

  it('{data: [...]} without meta', async () => {
    service.faults.add({ path: REPORTS, status: 200, body: JSON.stringify({ data: [report(5)] }) });
    const page = await client().listReports();
    expect(page).toMatchObject({ page: 1, perPage: 10, total: null, lastPage: null });
    expect(page.reports.map((r) => r.id)).toEqual(['5']);
  });

  it('a bare report object and a {data: {...}} report', async () => {
    service.faults.add({ path: '/api/v1/reports/5', status: 200, body: JSON.stringify(report(5)), times: 1 });
    expect(await client().getReport('5')).toEqual({ ...report(5), id: '5' });
    service.faults.add({
      path: '/api/v1/reports/6',
      status: 200,
      body: JSON.stringify({ data: report(6) }),
      times: 1,
    });
    expect((await client().getReport('6')).url).toBe('https://shape6.example.org');
  });

  it('a bare account object', async () => {
    service.faults.add({
      path: '/api/v1/account',
      status: 200,
      body: JSON.stringify({ id: 99, name: 'Bare' }),
    });
    expect(await client().getAccount()).toEqual({ id: 99, name: 'Bare' });
  });
});

describe('retries and side effects', () => {
  it('a GET that fails twice then succeeds', async () => {
    service.faults.add({ method: 'GET', path: REPORTS, status: 503, times: 2 });
    const before = requestsTo('GET', REPORTS).length;
    const page = await client().listReports();
    expect(page.reports).toHaveLength(10);
    expect(requestsTo('GET', REPORTS).length - before).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('a POST failing with 500 is sent exactly once', async () => {
    service.faults.add({ method: 'POST', path: REPORTS, status: 500 });
    const before = requestsTo('POST', REPORTS).length;
    const error = await failure(client().createReport({ url: 'https://once.example.org', privacy: 0 }));
    expect(error.kind).toBe('server_error');
    expect(error.message).toContain('may or may not have been created');
    expect(requestsTo('POST', REPORTS).length - before).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('PUT and DELETE are not retried on a hang-up or a time-out', async () => {
    service.faults.add({ method: 'PUT', path: '/api/v1/reports/1', hangUp: true });
    service.faults.add({ method: 'DELETE', path: '/api/v1/reports/1', delayMs: 1_000 });
    const putBefore = requestsTo('PUT', '/api/v1/reports/1').length;
    const deleteBefore = requestsTo('DELETE', '/api/v1/reports/1').length;
    expect((await failure(client().updateReport('1', { privacy: 1 }))).kind).toBe('network');
    const timedOut = await failure(client({ timeoutMs: 100 }).deleteReport('1'));
    expect(timedOut.kind).toBe('timeout');
    expect(timedOut.message).toContain('Report 1 may or may not have been deleted');
    expect(timedOut.notes).toEqual([{ code: 'outcome.delete', values: { id: '1' } }]);
    expect(requestsTo('PUT', '/api/v1/reports/1').length - putBefore).toBe(1);
    expect(requestsTo('DELETE', '/api/v1/reports/1').length - deleteBefore).toBe(1);
  });
});

describe('security', () => {
  it('refuses plain http to a non-loopback host before sending anything', () => {
    let called = false;
    const spy: typeof fetch = () => {
      called = true;
      throw new Error('must not be called');
    };
    expect(() => client({ baseUrl: 'http://reports.example.com', fetch: spy })).toThrow(AppFailure);
    try {
      client({ baseUrl: 'http://reports.example.com', fetch: spy });
    } catch (thrown) {
      expect((thrown as AppFailure).error.kind).toBe('insecure_url');
    }
    expect(called).toBe(false);
  });

  it('a key the service echoes back is redacted from the error by the client itself', async () => {
    // The process-wide registry ignores values under 4 characters (log.ts), so with this key
    // only the client's own scrub can remove it; the fault rules answer before the key is checked.
    const shortKey = 'q7Z';
    service.faults.add({
      path: REPORTS,
      status: 422,
      body: JSON.stringify({
        message: `Key ${shortKey} is invalid`,
        errors: { key: [`${shortKey} is wrong`] },
      }),
    });
    service.faults.add({
      path: '/api/v1/account',
      status: 500,
      body: `<title>${shortKey} ${shortKey}</title><p>${shortKey}</p>`,
    });
    const validation = await failure(client({ apiKey: shortKey }).listReports());
    expect(validation.message).toContain('Key [redacted] is invalid');
    expect(validation.fieldErrors).toEqual({ key: ['[redacted] is wrong'] });
    const server = await failure(client({ apiKey: shortKey }).getAccount());
    expect(server.message).toContain('"[redacted] [redacted]"');
    // The values and notes the renderer words the error from are scrubbed as well.
    expect(server.values).toEqual({ status: 500, said: '[redacted] [redacted]' });
    service.faults.add({ method: 'DELETE', path: `${REPORTS}/${shortKey}`, status: 500 });
    const deleted = await failure(client({ apiKey: shortKey }).deleteReport(shortKey));
    expect(deleted.notes).toEqual([{ code: 'outcome.delete', values: { id: '[redacted]' } }]);
    expect(JSON.stringify([validation, server, deleted])).not.toContain(shortKey);
  });

  it('logs one debug line per request with method, path, status and duration', async () => {
    const from = sink.lines.length;
    const started = Date.now();
    await client().getAccount();
    const elapsed = Date.now() - started;
    const lines = sink.lines.slice(from);
    expect(lines).toHaveLength(1);
    const [, duration] = /DEBUG \[test\] GET \/api\/v1\/account 200 (\d+)ms/.exec(lines[0]) ?? [];
    // The duration is the request's own: a number, and never more than the whole call took.
    expect(Number(duration)).toBeGreaterThanOrEqual(0);
    expect(Number(duration)).toBeLessThanOrEqual(elapsed);
  });

  it('no error message and no log line ever contained the key', () => {
    expect(seenMessages.length).toBeGreaterThan(30);
    for (const message of seenMessages) expect(message).not.toContain(KEY);
    expect(sink.lines.length).toBeGreaterThan(0);
    for (const line of sink.lines) expect(line).not.toContain(KEY);
  });
});
