/**
 * The reference Report Service over real HTTP on 127.0.0.1 with Node's fetch: auth, account
 * isolation, the list parameters and Laravel envelope, CRUD and its 422s, persistence, faults,
 * request recording and a clean stop with hung connections.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppFailure } from '../../shared/errors';
import { analyseUrl } from '../../electron/demo-service/seed';
import { DEMO_API_KEY, startDemoService, type DemoService } from '../../electron/demo-service/server';

interface ReportJson {
  id: number;
  url: string;
  result: 'good' | 'decent' | 'bad';
  generated_at: string;
  privacy: 0 | 1 | 2;
  project: string | null;
  results: boolean;
  score: number;
  summary: { title: string; issues: number; checks: { name: string; passed: boolean }[] };
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}
interface ListJson {
  data: ReportJson[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: { url: string | null; label: string; active: boolean }[];
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
}

const FIXED_NOW = new Date('2025-06-15T12:00:00.000Z');
const OTHER_KEY = 'second-account-key-0002';
const twoAccounts = [
  { apiKey: DEMO_API_KEY, account: { id: 1, name: 'Ada', email: 'ada@example.com' } },
  { apiKey: OTHER_KEY, account: { id: 2, name: 'Bob', email: 'bob@example.com' } },
];

interface CallOptions {
  method?: string;
  key?: string | null;
  form?: Record<string, string>;
  json?: unknown;
  rawBody?: string;
}

async function call(service: DemoService, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const key = options.key === undefined ? service.apiKey : options.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  let body: string | undefined = options.rawBody;
  if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(`${service.baseUrl}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body,
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type') === 'application/json';
  return { status: response.status, headers: response.headers, text, json: isJson ? JSON.parse(text) : null };
}

async function list(service: DemoService, query: Record<string, string | number> = {}, key?: string) {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const response = await call(service, `/api/v1/reports?${params}`, { key });
  expect(response.status).toBe(200);
  return response.json as ListJson;
}

/** Every report of the account, page by page at per_page 100, in the requested order. */
async function listAll(service: DemoService, query: Record<string, string> = {}, key?: string) {
  const all: ReportJson[] = [];
  for (let page = 1; ; page++) {
    const body = await list(service, { ...query, per_page: 100, page }, key);
    all.push(...body.data);
    if (page >= body.meta.last_page) return all;
  }
}

describe('demo Report Service', () => {
  let service: DemoService;
  /** The first account's full data, as ground truth for the read-only list tests. */
  let everything: ReportJson[];
  const started: DemoService[] = [];
  const start = async (...args: Parameters<typeof startDemoService>) => {
    const s = await startDemoService(...args);
    started.push(s);
    return s;
  };

  beforeAll(async () => {
    service = await startDemoService({ accounts: twoAccounts, now: () => FIXED_NOW });
    everything = await listAll(service, { sort_by: 'id', sort: 'asc' });
  });
  afterAll(() => service.stop());
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.stop()));
  });

  describe('authentication and routing', () => {
    it('answers 401 Unauthenticated without a key, with a wrong key and with another scheme', async () => {
      for (const key of [null, 'not-a-key', '']) {
        const response = await call(service, '/api/v1/reports', { key });
        expect(response.status).toBe(401);
        expect(response.json).toEqual({ message: 'Unauthenticated.' });
      }
      const basic = await fetch(`${service.baseUrl}/api/v1/account`, {
        headers: { Authorization: `Basic ${DEMO_API_KEY}` },
      });
      expect(basic.status).toBe(401);
      expect((await call(service, '/api/v1/account')).status).toBe(200);
    });

    it('answers 404 for unknown paths and 405 with Allow for a wrong method', async () => {
      const unknown = await call(service, '/api/v1/nothing-here');
      expect(unknown.status).toBe(404);
      expect(unknown.json).toEqual({ message: 'The route api/v1/nothing-here could not be found.' });
      expect((await call(service, '/reports')).status).toBe(404);

      const wrong = await call(service, '/api/v1/account', { method: 'DELETE' });
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('GET, HEAD');
      expect(wrong.json.message).toMatch(/DELETE method is not supported/);
      expect((await call(service, '/api/v1/reports', { method: 'PUT' })).status).toBe(405);
    });

    it('answers the account of the key, with its live report count', async () => {
      const response = await call(service, '/api/v1/account');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.json.data).toMatchObject({ id: 1, name: 'Ada', email: 'ada@example.com' });
      expect(response.json.data.reports_count).toBe(service.reportCount());
      const other = await call(service, '/api/v1/account', { key: OTHER_KEY });
      expect(other.json.data).toMatchObject({
        id: 2,
        name: 'Bob',
        reports_count: service.reportCount(OTHER_KEY),
      });
    });

    it('keeps accounts apart: ids are unique, and another account’s report is "not found"', async () => {
      const others = await listAll(service, {}, OTHER_KEY);
      expect(others).toHaveLength(40);
      expect(everything).toHaveLength(300);
      const mine = new Set(everything.map((r) => r.id));
      expect(others.some((r) => mine.has(r.id))).toBe(false);

      const foreignId = others[0].id;
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const form = method === 'PUT' ? { results: '1' } : undefined;
        const response = await call(service, `/api/v1/reports/${foreignId}`, { method, form });
        expect(response.status).toBe(404);
        expect(response.json).toEqual({ message: 'Report not found.' });
      }
      expect(service.reportCount(OTHER_KEY)).toBe(40);
      expect((await call(service, `/api/v1/reports/${foreignId}`, { key: OTHER_KEY })).status).toBe(200);
    });
  });

  describe('list', () => {
    it('defaults to 10 per page, newest id first, in Laravel’s paginator envelope', async () => {
      const body = await list(service);
      const maxId = Math.max(...everything.map((r) => r.id));
      expect(body.data.map((r) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => maxId - i));
      const path = `${service.baseUrl}/api/v1/reports`;
      expect(body.links).toEqual({
        first: `${path}?page=1`,
        last: `${path}?page=30`,
        prev: null,
        next: `${path}?page=2`,
      });
      const { links, ...meta } = body.meta;
      expect(meta).toEqual({
        current_page: 1,
        from: 1,
        last_page: 30,
        path,
        per_page: 10,
        to: 10,
        total: 300,
      });
      expect(links[0]).toEqual({ url: null, label: '&laquo; Previous', active: false });
      expect(links.at(-1)).toEqual({ url: `${path}?page=2`, label: 'Next &raquo;', active: false });
      // 30 pages: Laravel's window shows 1–10, a gap, then the last two.
      expect(links.slice(1, -1).map((l) => l.label)).toEqual([
        ...Array.from({ length: 10 }, (_, i) => String(i + 1)),
        '...',
        '29',
        '30',
      ]);
      expect(links.filter((l) => l.active).map((l) => l.label)).toEqual(['1']);
    });

    it('honours every per_page value and pages without gaps or repeats', async () => {
      for (const perPage of [10, 25, 50, 100]) {
        const body = await list(service, { per_page: perPage, page: 2 });
        expect(body.data).toHaveLength(perPage);
        expect(body.meta).toMatchObject({
          per_page: perPage,
          current_page: 2,
          from: perPage + 1,
          to: 2 * perPage,
          last_page: Math.ceil(300 / perPage),
        });
      }
      const ids = everything.map((r) => r.id);
      expect(new Set(ids).size).toBe(300);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));

      const last = await list(service, { per_page: 25, page: 12, result: 'good' });
      expect(last.meta.last_page).toBeLessThan(12);
      expect(last.data).toEqual([]);
      expect(last.meta).toMatchObject({ current_page: 12, from: null, to: null });
      expect(last.links.next).toBeNull();
    });

    it('keeps the other query parameters in page links', async () => {
      const body = await list(service, { result: 'bad', per_page: 25, page: 2 });
      const next = new URL(body.links.prev!);
      expect(Object.fromEntries(next.searchParams)).toEqual({ result: 'bad', per_page: '25', page: '1' });
    });

    it('searches the URL case-insensitively', async () => {
      const expected = everything.filter((r) => r.url.toLowerCase().includes('contoso')).map((r) => r.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(300);
      const found = await listAll(service, { search: 'ConToSo', sort: 'asc' });
      expect(found.map((r) => r.id)).toEqual(expected);
      const mixedCase = await listAll(service, { search: 'spring-sale' });
      expect(mixedCase.length).toBeGreaterThan(0);
      expect(mixedCase.every((r) => r.url.includes('/campaigns/Spring-Sale'))).toBe(true);
      expect((await list(service, { search: 'zz-no-such-site' })).meta.total).toBe(0);
    });

    it('filters by exact project and by result, and combines filters', async () => {
      const projects = new Set(everything.map((r) => r.project));
      expect(projects.has(null)).toBe(true);
      expect(projects.size).toBeGreaterThanOrEqual(6);
      const docs = await listAll(service, { project: 'docs', sort: 'asc' });
      expect(docs.map((r) => r.id)).toEqual(everything.filter((r) => r.project === 'docs').map((r) => r.id));
      expect((await list(service, { project: 'doc' })).meta.total).toBe(0);

      for (const result of ['good', 'decent', 'bad'] as const) {
        const expected = everything.filter((r) => r.result === result).map((r) => r.id);
        expect(expected.length).toBeGreaterThan(0);
        const body = await listAll(service, { result, sort: 'asc' });
        expect(body.map((r) => r.id)).toEqual(expected);
      }
      const both = await listAll(service, { result: 'good', project: 'shop', search: 'HTTPS', sort: 'asc' });
      expect(both.map((r) => r.id)).toEqual(
        everything
          .filter((r) => r.result === 'good' && r.project === 'shop' && r.url.startsWith('https'))
          .map((r) => r.id),
      );
    });

    it.each([
      ['id', 'asc'],
      ['id', 'desc'],
      ['generated_at', 'asc'],
      ['generated_at', 'desc'],
      ['url', 'asc'],
      ['url', 'desc'],
      ['result', 'asc'],
      ['result', 'desc'],
    ] as const)('sorts by %s %s, ties broken by id', async (sortBy, sort) => {
      const key = (r: ReportJson) => r[sortBy] as string | number;
      const direction = sort === 'asc' ? 1 : -1;
      const expected = [...everything]
        .sort((a, b) => {
          const [x, y] = [key(a), key(b)];
          return direction * (x < y ? -1 : x > y ? 1 : a.id - b.id);
        })
        .map((r) => r.id);
      const body = await listAll(service, { sort_by: sortBy, sort });
      expect(body.map((r) => r.id)).toEqual(expected);
    });

    it('sorting by generated_at differs from sorting by id (some reports were re-generated)', async () => {
      const byGenerated = await list(service, { sort_by: 'generated_at', per_page: 100 });
      const byId = await list(service, { per_page: 100 });
      expect(byGenerated.data.map((r) => r.id)).not.toEqual(byId.data.map((r) => r.id));
    });

    it.each([
      ['result', 'great', 'The selected result is invalid.'],
      ['sort_by', 'privacy', 'The selected sort by is invalid.'],
      ['sort', 'up', 'The selected sort is invalid.'],
      ['per_page', '20', 'The selected per page is invalid.'],
      ['search_by', 'project', 'The selected search by is invalid.'],
      ['page', '0', 'The page field must be at least 1.'],
      ['page', 'two', 'The page field must be an integer.'],
    ])('rejects %s=%s with a Laravel 422', async (field, value, text) => {
      const response = await call(service, `/api/v1/reports?${field}=${value}`);
      expect(response.status).toBe(422);
      expect(response.json).toEqual({ message: text, errors: { [field]: [text] } });
    });

    it('summarises several invalid parameters in one message', async () => {
      const response = await call(service, '/api/v1/reports?result=x&sort=y');
      expect(response.status).toBe(422);
      expect(response.json.message).toBe('The selected result is invalid. (and 1 more error)');
      expect(Object.keys(response.json.errors)).toEqual(['result', 'sort']);
    });

    it('treats empty parameters as absent, as Laravel does', async () => {
      const body = await list(service, { result: '', search: '', project: '' });
      expect(body.meta.total).toBe(300);
    });
  });

  describe('one report: read, create, update, delete', () => {
    let clock = FIXED_NOW;
    let crud: DemoService;
    const startCrud = async () => {
      clock = FIXED_NOW;
      crud = await start({ reportsPerAccount: 20, now: () => clock });
    };

    it('reads one report with its unknown service fields, and 404s for missing or malformed ids', async () => {
      const wanted = everything[5];
      const response = await call(service, `/api/v1/reports/${wanted.id}`);
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ data: wanted });
      expect(response.json.data.score).toBeGreaterThanOrEqual(0);
      expect(response.json.data.score).toBeLessThanOrEqual(100);
      expect(response.json.data.summary.checks.length).toBeGreaterThan(0);
      expect(Object.keys(response.json.data)).not.toContain('password');
      expect(Object.keys(response.json.data)).not.toContain('password_hash');

      for (const id of ['999999', 'abc', '1.5']) {
        const missing = await call(service, `/api/v1/reports/${id}`);
        expect(missing.status).toBe(404);
        expect(missing.json).toEqual({ message: 'Report not found.' });
      }
    });

    it('creates a report: 201, defaults, now as generated_at, a result that depends on the URL only', async () => {
      await startCrud();
      const created = await call(crud, '/api/v1/reports', {
        method: 'POST',
        form: { url: '  https://www.example.org/pricing  ' },
      });
      expect(created.status).toBe(201);
      const report = created.json.data as ReportJson;
      expect(report).toMatchObject({
        url: 'https://www.example.org/pricing',
        privacy: 0,
        project: null,
        generated_at: FIXED_NOW.toISOString(),
        created_at: FIXED_NOW.toISOString(),
      });
      expect(['good', 'decent', 'bad']).toContain(report.result);
      expect(crud.reportCount()).toBe(21);

      const again = await call(crud, '/api/v1/reports', {
        method: 'POST',
        json: { url: report.url, privacy: 1 },
      });
      expect(again.status).toBe(201);
      expect(again.json.data.id).toBeGreaterThan(report.id);
      expect(again.json.data.privacy).toBe(1);
      expect(again.json.data.result).toBe(report.result);
      expect(again.json.data.score).toBe(report.score);
      expect((await call(crud, `/api/v1/reports/${report.id}`)).json.data).toEqual(report);
    });

    it('never echoes a report password', async () => {
      await startCrud();
      const secret = 'correct-horse-battery';
      const created = await call(crud, '/api/v1/reports', {
        method: 'POST',
        form: { url: 'https://secret.example.com', privacy: '2', password: secret },
      });
      expect(created.status).toBe(201);
      expect(created.json.data.privacy).toBe(2);
      expect(created.text).not.toContain(secret);
      expect(created.text).not.toMatch(/password/);
      const updated = await call(crud, `/api/v1/reports/${created.json.data.id}`, {
        method: 'PUT',
        form: { privacy: '2', password: `${secret}-2` },
      });
      expect(updated.status).toBe(200);
      expect(updated.text).not.toContain(secret);
      const listed = await call(crud, '/api/v1/reports');
      expect(listed.text).not.toContain(secret);
    });

    it.each([
      ['no url', {}, { url: ['The url field is required.'] }],
      ['text that is no URL', { url: 'not a url' }, { url: ['The url field must be a valid URL.'] }],
      ['an ftp URL', { url: 'ftp://files.example.com' }, { url: ['The url field must be a valid URL.'] }],
      [
        'a URL over 2048 characters',
        { url: `https://example.com/${'a'.repeat(2048)}` },
        { url: ['The url field must not be greater than 2048 characters.'] },
      ],
      [
        'privacy 5',
        { url: 'https://example.com', privacy: '5' },
        { privacy: ['The selected privacy is invalid.'] },
      ],
      [
        'a privacy name',
        { url: 'https://example.com', privacy: 'public' },
        { privacy: ['The privacy field must be an integer.'] },
      ],
      [
        'privacy 2 without a password',
        { url: 'https://example.com', privacy: '2' },
        { password: ['The password field is required when privacy is 2.'] },
      ],
    ])('refuses to create a report with %s (422) and creates nothing', async (_label, form, errors) => {
      await startCrud();
      const response = await call(crud, '/api/v1/reports', { method: 'POST', form });
      expect(response.status).toBe(422);
      expect(response.json).toEqual({ message: Object.values(errors)[0][0], errors });
      expect(crud.reportCount()).toBe(20);
    });

    it('refuses a malformed JSON body with 400 and an oversized body with 413', async () => {
      await startCrud();
      // Without a JSON content type the body is read as a form, which has no url field.
      const untyped = await call(crud, '/api/v1/reports', { method: 'POST', rawBody: '{"url": ' });
      expect(untyped.status).toBe(422);
      const badJson = await fetch(`${crud.baseUrl}/api/v1/reports`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${crud.apiKey}`, 'Content-Type': 'application/json' },
        body: '{"url": ',
      });
      expect(badJson.status).toBe(400);
      expect(await badJson.json()).toEqual({ message: 'The request body is not valid JSON.' });

      const huge = await call(crud, '/api/v1/reports', {
        method: 'POST',
        form: { url: 'https://example.com', padding: 'x'.repeat(1024 * 1024) },
      });
      expect(huge.status).toBe(413);
      expect(huge.json.message).toMatch(/larger than 1 MB/);
      expect(crud.reportCount()).toBe(20);
    });

    it('updates privacy and results, changes updated_at, and 422s without losing anything', async () => {
      await startCrud();
      const original = (await list(crud)).data[0];
      clock = new Date(FIXED_NOW.getTime() + 60_000);
      const updated = await call(crud, `/api/v1/reports/${original.id}`, {
        method: 'PUT',
        form: { privacy: String((original.privacy + 1) % 2), results: original.results ? '0' : '1' },
      });
      expect(updated.status).toBe(200);
      expect(updated.json.data).toEqual({
        ...original,
        privacy: (original.privacy + 1) % 2,
        results: !original.results,
        updated_at: clock.toISOString(),
      });

      for (const [form, field, text] of [
        [{ privacy: '2' }, 'password', 'The password field is required when privacy is 2.'],
        [{ results: '7' }, 'results', 'The results field must be true or false.'],
        [{ privacy: '-1' }, 'privacy', 'The selected privacy is invalid.'],
      ] as const) {
        const refused = await call(crud, `/api/v1/reports/${original.id}`, { method: 'PUT', form });
        expect(refused.status).toBe(422);
        expect(refused.json).toEqual({ message: text, errors: { [field]: [text] } });
      }
      expect((await call(crud, `/api/v1/reports/${original.id}`)).json.data).toEqual(updated.json.data);
      expect(
        (await call(crud, '/api/v1/reports/999999', { method: 'PUT', form: { privacy: '1' } })).status,
      ).toBe(404);
    });

    it('deletes with 204 and no body; the report is then gone', async () => {
      await startCrud();
      const victim = (await list(crud)).data[3];
      const deleted = await call(crud, `/api/v1/reports/${victim.id}`, { method: 'DELETE' });
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect(crud.reportCount()).toBe(19);
      expect((await call(crud, `/api/v1/reports/${victim.id}`)).status).toBe(404);
      expect((await call(crud, `/api/v1/reports/${victim.id}`, { method: 'DELETE' })).status).toBe(404);
      expect((await list(crud, { per_page: 100 })).data.map((r) => r.id)).not.toContain(victim.id);
    });
  });

  describe('data', () => {
    it('is deterministic: the same seed gives the same reports, another seed different ones', async () => {
      const [a, b, c] = await Promise.all([
        start({ now: () => FIXED_NOW }),
        start({ now: () => FIXED_NOW }),
        start({ now: () => FIXED_NOW, seed: 7 }),
      ]);
      const [pageA, pageB, pageC] = await Promise.all([a, b, c].map((s) => list(s, { per_page: 25 })));
      expect(pageA.data).toEqual(pageB.data);
      expect(pageA.data.map((r) => r.url)).not.toEqual(pageC.data.map((r) => r.url));
      // Seeded data covers every result and privacy, and generated_at spans the last year.
      const all = await listAll(a, {});
      expect(new Set(all.map((r) => r.result))).toEqual(new Set(['good', 'decent', 'bad']));
      expect(new Set(all.map((r) => r.privacy))).toEqual(new Set([0, 1, 2]));
      const times = all.map((r) => Date.parse(r.generated_at));
      const yearMs = 366 * 24 * 3600 * 1000;
      expect(Math.max(...times)).toBeLessThanOrEqual(FIXED_NOW.getTime());
      expect(Math.min(...times)).toBeGreaterThanOrEqual(FIXED_NOW.getTime() - yearMs);
      expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(yearMs / 2);
    });

    it('seeds pages analysed again and again over months: some got better, some turned bad, some stayed', async () => {
      const service = await start({ now: () => FIXED_NOW });
      const all = await listAll(service, { sort_by: 'generated_at', sort: 'asc' });
      const byUrl = new Map<string, ReportJson[]>();
      for (const report of all) byUrl.set(report.url, [...(byUrl.get(report.url) ?? []), report]);
      const histories = [...byUrl.values()].filter((reports) => reports.length >= 3);
      // 300 reports of about 60 pages, most of them with several reports months apart.
      expect(byUrl.size).toBeLessThanOrEqual(60);
      expect(histories.length).toBeGreaterThan(40);
      const monthMs = 30 * 24 * 3600 * 1000;
      const spans = histories.map((r) => Date.parse(r.at(-1)!.generated_at) - Date.parse(r[0].generated_at));
      expect(spans.filter((span) => span > 3 * monthMs).length).toBeGreaterThan(30);
      const rank = (result: string) => ['good', 'decent', 'bad'].indexOf(result);
      const drift = histories.map((r) => rank(r.at(-1)!.result) - rank(r[0].result));
      expect(drift.filter((d) => d < 0).length).toBeGreaterThan(5);
      expect(drift.filter((d) => d > 0).length).toBeGreaterThan(5);
      expect(drift.filter((d) => d === 0).length).toBeGreaterThan(5);
      // A new report of a page gets the page's result of today, where its history leads.
      const created = await call(service, '/api/v1/reports', {
        method: 'POST',
        form: { url: histories[0][0].url },
      });
      expect((created.json as { data: ReportJson }).data.result).toBe(analyseUrl(histories[0][0].url).result);
    });

    it('seeds 10,000 reports on demand and pages through all of them', async () => {
      const big = await start({ accounts: twoAccounts });
      big.seedReports(10_000);
      expect(big.reportCount()).toBe(10_000);
      const others = await listAll(big, {}, OTHER_KEY);
      const all = await listAll(big, { sort_by: 'url', sort: 'asc' });
      expect(all).toHaveLength(10_000);
      const ids = new Set(all.map((r) => r.id));
      expect(ids.size).toBe(10_000);
      expect(others.some((r) => ids.has(r.id))).toBe(false);
      for (let i = 1; i < all.length; i++) {
        const ordered =
          all[i - 1].url < all[i].url || (all[i - 1].url === all[i].url && all[i - 1].id < all[i].id);
        expect(ordered).toBe(true);
      }
    });

    it('persists every change to the data file and loads it after a restart', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'demo-service-'));
      const dataFile = join(dir, 'nested', 'demo.json');
      try {
        const first = await startDemoService({ dataFile, reportsPerAccount: 15, now: () => FIXED_NOW });
        const secret = 'file-must-not-see-this';
        const created = await call(first, '/api/v1/reports', {
          method: 'POST',
          form: { url: 'https://persist.example.com', privacy: '2', password: secret },
        });
        const before = await listAll(first);
        const victim = before[4].id;
        await call(first, `/api/v1/reports/${victim}`, { method: 'DELETE' });
        await call(first, `/api/v1/reports/${before[6].id}`, {
          method: 'PUT',
          form: { results: '1', privacy: '1' },
        });
        const expected = await listAll(first);
        await first.stop();
        expect(readFileSync(dataFile, 'utf8')).not.toContain(secret);

        // Another seed and clock: the file wins over seeding.
        const second = await start({ dataFile, seed: 99, now: () => new Date() });
        expect(await listAll(second)).toEqual(expected);
        expect(second.reportCount()).toBe(15);
        const ids = expected.map((r) => r.id);
        expect(ids).toContain(created.json.data.id);
        expect(ids).not.toContain(victim);
        const next = await call(second, '/api/v1/reports', {
          method: 'POST',
          form: { url: 'https://n.example' },
        });
        expect(next.json.data.id).toBeGreaterThan(Math.max(...ids, victim));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('refuses a damaged data file with a clear error and leaves it untouched', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'demo-service-'));
      const dataFile = join(dir, 'demo.json');
      try {
        writeFileSync(dataFile, '{"format": "something else"');
        const failure = await startDemoService({ dataFile }).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(AppFailure);
        expect((failure as AppFailure).error.message).toContain(dataFile);
        expect((failure as AppFailure).error.message).toMatch(/damaged/);
        expect(readFileSync(dataFile, 'utf8')).toBe('{"format": "something else"');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('reports a busy port as a sentence', async () => {
      const port = Number(new URL(service.baseUrl).port);
      const failure = await startDemoService({ port }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AppFailure);
      expect((failure as AppFailure).error.message).toMatch(/already in use/);
    });
  });

  describe('faults and request recording', () => {
    let faulty: DemoService;
    const fresh = async () => {
      faulty = await start({ reportsPerAccount: 12 });
    };

    it('answers a status and body before auth, and the rule can be cleared', async () => {
      await fresh();
      faulty.faults.add({ method: 'GET', path: '/api/v1/reports', status: 503, body: '{"message":"Down."}' });
      const response = await call(faulty, '/api/v1/reports', { key: null });
      expect(response.status).toBe(503);
      expect(response.json).toEqual({ message: 'Down.' });
      expect((await call(faulty, '/api/v1/reports', { method: 'POST', form: {} })).status).toBe(422);
      faulty.faults.clear();
      expect((await call(faulty, '/api/v1/reports')).status).toBe(200);
    });

    it('serves an HTML page, a Retry-After header and a default Laravel message', async () => {
      await fresh();
      const html = '<!doctype html><title>502 Bad Gateway</title><h1>Bad Gateway</h1>';
      faulty.faults.add({ path: '/api/v1/account', status: 502, body: html, contentType: 'text/html' });
      faulty.faults.add({ path: /^\/api\/v1\/reports\/\d+$/g, status: 429, headers: { 'Retry-After': '2' } });

      const page = await call(faulty, '/api/v1/account');
      expect(page.status).toBe(502);
      expect(page.headers.get('content-type')).toBe('text/html');
      expect(page.text).toBe(html);
      // A /g pattern must match every time, not every other time.
      for (let i = 0; i < 2; i++) {
        const limited = await call(faulty, '/api/v1/reports/1');
        expect(limited.status).toBe(429);
        expect(limited.headers.get('retry-after')).toBe('2');
        expect(limited.json).toEqual({ message: 'Too Many Attempts.' });
      }
    });

    it('applies a rule only `times` times, first added rule first', async () => {
      await fresh();
      faulty.faults.add({ method: 'POST', path: '/api/v1/reports', status: 500, times: 1 });
      faulty.faults.add({ path: '/api/v1/reports', status: 502, times: 2 });
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await call(faulty, '/api/v1/reports', { method: 'POST', form: { url: 'https://a.example' } }))
            .status,
        );
      }
      expect(statuses).toEqual([500, 502, 502, 201]);
      expect(faulty.reportCount()).toBe(13);
    });

    it('delays and then passes through to the real handler', async () => {
      await fresh();
      faulty.faults.add({ path: '/api/v1/account', delayMs: 300, passThrough: true, times: 1 });
      const finished: string[] = [];
      const slow = call(faulty, '/api/v1/account').then((r) => {
        finished.push('delayed');
        return r;
      });
      await waitUntil(() => faulty.requests.length === 1);
      const quick = await call(faulty, '/api/v1/account');
      finished.push('undelayed');
      const delayed = await slow;
      expect(finished).toEqual(['undelayed', 'delayed']);
      expect(delayed.status).toBe(200);
      expect(delayed.json).toEqual(quick.json);
    });

    it('holds every answer for latencyMs, and stop() ends the wait without answering', async () => {
      const distant = await startDemoService({ reportsPerAccount: 5, latencyMs: 600_000 });
      let answered = false;
      const held = call(distant, '/api/v1/reports').then((r) => {
        answered = true;
        return r;
      });
      await waitUntil(() => distant.requests.length === 1);
      // A second request arrives while the first is still held: neither has been answered.
      const second = call(distant, '/api/v1/account');
      await waitUntil(() => distant.requests.length === 2);
      expect(answered).toBe(false);
      const outcomes = Promise.all([expect(held).rejects.toThrow(), expect(second).rejects.toThrow()]);
      await distant.stop();
      await outcomes;
    });

    it('hangs up without a response', async () => {
      await fresh();
      faulty.faults.add({ method: 'GET', path: '/api/v1/reports', hangUp: true, times: 1 });
      await expect(call(faulty, '/api/v1/reports')).rejects.toThrow();
      expect((await call(faulty, '/api/v1/reports')).status).toBe(200);
    });

    it('ignores `page` when told to: every page is page 1, until cleared', async () => {
      await fresh();
      const ids = async (query: string) =>
        ((await call(faulty, `/api/v1/reports?${query}`)).json as { data: { id: number }[] }).data.map(
          (r) => r.id,
        );
      const first = await ids('per_page=10&page=1');
      expect(await ids('per_page=10&page=2')).not.toEqual(first);
      faulty.faults.ignorePage();
      expect(await ids('per_page=10&page=2')).toEqual(first);
      const meta = (await call(faulty, '/api/v1/reports?per_page=10&page=2')).json as {
        meta: { current_page: number };
      };
      expect(meta.meta.current_page).toBe(1);
      faulty.faults.clear();
      expect(await ids('per_page=10&page=2')).not.toEqual(first);
    });

    it('deletes the first report of page 1 once page N of a listing was served', async () => {
      faulty = await start({ reportsPerAccount: 30 });
      faulty.faults.deleteDuringListing({ afterPage: 2 });
      const page = async (n: number) =>
        (await call(faulty, `/api/v1/reports?per_page=10&sort_by=id&sort=asc&page=${n}`)).json as {
          data: { id: number }[];
          meta: { total: number };
        };
      const one = await page(1);
      expect(one.meta.total).toBe(30);
      const two = await page(2);
      expect(two.meta.total).toBe(30); // deleted after page 2 was answered
      const three = await page(3);
      expect(three.meta.total).toBe(29);
      expect((await call(faulty, `/api/v1/reports/${one.data[0].id}`)).status).toBe(404);
      // The offset pages shifted: the report that led page 3 is now the last of page 2.
      expect(three.data[0].id).toBe(two.data[9].id + 2);
      // Once only.
      await page(2);
      expect(faulty.reportCount()).toBe(29);
    });

    it('deletes a given report, and slows every request by the latency set', async () => {
      await fresh();
      const target = ((await call(faulty, '/api/v1/reports?per_page=10')).json as { data: { id: number }[] })
        .data[3].id;
      faulty.faults.deleteDuringListing({ afterPage: 1, id: target });
      await call(faulty, '/api/v1/reports?per_page=10&page=1');
      expect((await call(faulty, `/api/v1/reports/${target}`)).status).toBe(404);

      faulty.faults.setLatency(300);
      const finished: string[] = [];
      const slow = call(faulty, '/api/v1/account').then(() => finished.push('slow'));
      await waitUntil(() => faulty.requests.length === 4);
      faulty.faults.setLatency(0);
      await call(faulty, '/api/v1/account');
      finished.push('fast');
      await slow;
      expect(finished).toEqual(['fast', 'slow']);
      expect(() => faulty.faults.setLatency(-1)).toThrow(/0 or more/);
    });

    it('records every request in order, without the key', async () => {
      await fresh();
      faulty.faults.add({ method: 'POST', path: '/api/v1/reports', status: 500, times: 1 });
      await call(faulty, '/api/v1/reports?per_page=25&page=2');
      await call(faulty, '/api/v1/account', { key: 'wrong-key-1234' });
      await call(faulty, '/api/v1/reports', { method: 'POST', form: { url: 'https://a.example' } });
      expect(faulty.requests.map(({ at: _at, ...rest }) => rest)).toEqual([
        { method: 'GET', path: '/api/v1/reports', query: 'per_page=25&page=2', authorized: true },
        { method: 'GET', path: '/api/v1/account', query: '', authorized: false },
        { method: 'POST', path: '/api/v1/reports', query: '', authorized: true },
      ]);
      expect(faulty.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
      const times = faulty.requests.map((r) => r.at);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(JSON.stringify(faulty.requests)).not.toContain(faulty.apiKey);
    });

    it('stops promptly with a hung request, a half-sent request and keep-alive connections open', async () => {
      const doomed = await startDemoService({ reportsPerAccount: 5 });
      doomed.faults.add({ path: '/api/v1/account', delayMs: 600_000 });
      await call(doomed, '/api/v1/reports'); // leaves a keep-alive connection in fetch's pool
      const hung = call(doomed, '/api/v1/account');
      const { port } = new URL(doomed.baseUrl);
      const half = connect(Number(port), '127.0.0.1');
      const halfClosed = new Promise((resolve) => half.on('close', resolve));
      half.on('error', () => {});
      await new Promise((resolve) => half.on('connect', resolve));
      half.write('GET /api/v1/reports HTTP/1.1\r\nHost: x\r\n');
      await waitUntil(() => doomed.requests.length === 2);

      await doomed.stop();
      await expect(hung).rejects.toThrow();
      await halfClosed;
      await expect(fetch(`${doomed.baseUrl}/api/v1/account`)).rejects.toThrow();
      await doomed.stop(); // a second stop is harmless
    });
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
