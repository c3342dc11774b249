/**
 * Every way a reply can go wrong, injected by the reference service's fault rules over real
 * HTTP on 127.0.0.1: the client turns each into its error kind with a sentence a person can
 * act on, and the gateway loses nothing already cached (same count, same sample record).
 * Network-level failures (time-out, hang-up) make the gateway answer from the cache instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppFailure, type AppError, type ErrorKind } from '../../shared/errors';
import { ReportServiceClient } from '../../electron/core/api/client';
import { dispatch } from '../../electron/core/ipc/dispatch';
import { startDemoService, type DemoService, type FaultRule } from '../../electron/demo-service/server';
import type { ReportPageResult } from '../../shared/contract';
import { FAST_CLIENT, expectUserMessage, tempCore, type TempCore } from './helpers';
import { skipWhen } from '../helpers/skip';

const REPORTS_PATH = '/api/v1/reports';
const TEN_MB = 10 * 1024 * 1024;

interface Case {
  name: string;
  call: 'list' | 'create';
  fault: Omit<FaultRule, 'path'>;
  kind: ErrorKind;
  /** Something the message must say (the status, usually). */
  says?: RegExp;
  check?: (error: AppError) => void;
  clientOptions?: { maxResponseBytes?: number };
}

const CASES: Case[] = [
  {
    name: 'an HTML 502 page from a proxy',
    call: 'list',
    fault: {
      status: 502,
      contentType: 'text/html',
      body: '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>',
    },
    kind: 'server_error',
    says: /502/,
  },
  {
    name: 'truncated JSON',
    call: 'list',
    fault: { status: 200, body: '{"data":[{"id":1,"url":"https://www.contoso.com/","result":"go' },
    kind: 'bad_response',
    says: /not JSON/i,
  },
  {
    name: 'JSON of the wrong shape',
    call: 'list',
    fault: { status: 200, body: '{"items":{"count":3},"ok":true}' },
    kind: 'bad_response',
  },
  {
    name: 'reports without the fields a report needs',
    call: 'list',
    fault: { status: 200, body: '{"data":[{"id":null,"link":42}]}' },
    kind: 'bad_response',
  },
  {
    name: 'a 10 MB body that is not JSON',
    call: 'list',
    fault: { status: 200, contentType: 'text/html', body: '<p>' + 'x'.repeat(TEN_MB) + '</p>' },
    kind: 'bad_response',
  },
  {
    name: 'a 10 MB body above the client’s size limit',
    call: 'list',
    fault: { status: 200, body: '{"data":[],"padding":"' + 'y'.repeat(TEN_MB) + '"}' },
    kind: 'bad_response',
    clientOptions: { maxResponseBytes: 1024 * 1024 },
  },
  { name: '401', call: 'list', fault: { status: 401 }, kind: 'unauthorized', says: /401/ },
  { name: '403', call: 'list', fault: { status: 403 }, kind: 'forbidden', says: /403/ },
  { name: '404', call: 'list', fault: { status: 404 }, kind: 'not_found', says: /404/ },
  {
    name: '422 with field errors',
    call: 'create',
    fault: {
      method: 'POST',
      status: 422,
      body: JSON.stringify({
        message: 'The url field must be a valid URL.',
        errors: { url: ['The url field must be a valid URL.'] },
      }),
    },
    kind: 'validation',
    check: (error) => expect(error.fieldErrors?.url).toEqual(['The url field must be a valid URL.']),
  },
  {
    name: '429 with Retry-After',
    call: 'list',
    fault: { status: 429, headers: { 'Retry-After': '120' } },
    kind: 'rate_limited',
    says: /120 seconds/,
    check: (error) => expect(error.retryAfterSeconds).toBe(120),
  },
  {
    name: '429 without Retry-After',
    call: 'list',
    fault: { status: 429 },
    kind: 'rate_limited',
    says: /429/,
  },
  { name: '500', call: 'list', fault: { status: 500 }, kind: 'server_error', says: /500/ },
  {
    name: 'an answer slower than the time-out',
    call: 'list',
    fault: { delayMs: 3_000, passThrough: true },
    kind: 'timeout',
  },
  { name: 'a hang-up without any answer', call: 'list', fault: { hangUp: true }, kind: 'network' },
];

const NETWORK_KINDS: ErrorKind[] = ['network', 'timeout'];

let service: DemoService;
let app: TempCore;
let scope: string;
let sampleId: string;

function cacheSnapshot() {
  return {
    count: app.core.cache.status(scope).reportCount,
    sample: JSON.stringify(app.core.cache.getReport(scope, sampleId)),
  };
}

beforeAll(async () => {
  service = await startDemoService({ reportsPerAccount: 120 });
  app = await tempCore('bad-responses');
  const profile = await app.core.handlers['profiles:add']({
    name: 'Faults',
    baseUrl: service.baseUrl,
    apiKey: service.apiKey,
    allowInsecureHttp: false,
    sessionOnly: false,
  });
  scope = profile.id;
  for (const page of [1, 2]) await app.core.handlers['reports:list']({ per_page: 100, page });
  expect(app.core.cache.status(scope).reportCount).toBe(120);
  sampleId = (await app.core.handlers['reports:list']({ per_page: 10 })).reports[3].id;
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

describe.each(CASES)('$name', (c) => {
  const rule = (): FaultRule => ({
    method: c.call === 'list' ? 'GET' : 'POST',
    ...c.fault,
    path: REPORTS_PATH,
  });

  it(`the client reports ${c.kind} in a sentence`, async () => {
    service.faults.clear();
    service.faults.add(rule());
    const client = new ReportServiceClient({
      baseUrl: service.baseUrl,
      apiKey: service.apiKey,
      ...FAST_CLIENT,
      ...c.clientOptions,
    });
    const call =
      c.call === 'list'
        ? client.listReports({ per_page: 100 })
        : client.createReport({ url: 'https://www.contoso.com/new', privacy: 0 });
    const thrown = await call.then(
      () => null,
      (reason: unknown) => reason,
    );
    service.faults.clear();
    expect(thrown).toBeInstanceOf(AppFailure);
    const error = (thrown as AppFailure).error;
    expect(error.kind).toBe(c.kind);
    expectUserMessage(error, [service.apiKey]);
    if (c.says) expect(error.message).toMatch(c.says);
    c.check?.(error);
  });

  it.skipIf(
    skipWhen(
      c.clientOptions !== undefined,
      `"${c.name}" through the gateway: the gateway's client keeps its default 20 MB limit, so this case is the client's alone`,
    ),
  )('the gateway answers a Result and loses nothing cached', async () => {
    const before = cacheSnapshot();
    service.faults.clear();
    service.faults.add(rule());
    const result =
      c.call === 'list'
        ? await dispatch(app.core.handlers, 'reports:list', { per_page: 100 })
        : await dispatch(app.core.handlers, 'reports:create', { url: 'https://www.contoso.com/new' });
    service.faults.clear();

    if (NETWORK_KINDS.includes(c.kind)) {
      // Unreachable is a normal state: the cached list is shown, marked as such.
      expect(result.ok).toBe(true);
      const page = (result as { value: ReportPageResult }).value;
      expect(page.source).toBe('cache');
      expect(page.reports).toHaveLength(100);
    } else {
      expect(result.ok).toBe(false);
      const error = (result as { error: AppError }).error;
      expect(error.kind).toBe(c.kind);
      expectUserMessage(error, [service.apiKey]);
    }
    expect(cacheSnapshot()).toEqual(before);
    // Back online for the next case (a fallback above turned the gateway offline).
    expect((await app.core.handlers['connectivity:check'](undefined)).online).toBe(true);
  });
});

it('keeps working after every fault: the next list comes from the service again', async () => {
  const page = await app.core.handlers['reports:list']({ per_page: 25 });
  expect(page.source).toBe('network');
  expect(page.reports).toHaveLength(25);
  expect(app.core.cache.status(scope).reportCount).toBe(120);
});
