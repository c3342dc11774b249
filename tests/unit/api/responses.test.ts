/**
 * Reading reply bodies into the report model: every paginator shape the client claims to
 * accept, page fields the service may send wrongly (0, negative, strings, fractions), and the
 * sentences for bodies that cannot be read. Plain functions, no server: the client tests
 * (tests/integration/client.test.ts) serve the common shapes over real HTTP.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonBody, toAccount, toReport, toReportPage } from '../../../electron/core/api/responses';
import { registerSecret } from '../../../electron/core/log';
import { failureOf } from '../../helpers/failures';

const REQUESTED = { page: 4, perPage: 25 };
const report = (id: number) => ({ id, url: `https://r${id}.example.org` });

describe('parseJsonBody', () => {
  it.each(['', '   \n\t'])('calls an empty or blank body (%j) empty, not "not JSON"', (body) => {
    const error = failureOf(() => parseJsonBody(200, body));
    expect(error).toMatchObject({ kind: 'bad_response', status: 200 });
    expect(error.message).toContain('with an empty reply where data was expected');
    expect(error.message).not.toContain('not JSON');
  });

  it('calls a body that does not parse "not JSON", quoting a page title but never the raw text', () => {
    const error = failureOf(() => parseJsonBody(201, 'OK then'));
    expect(error).toMatchObject({ kind: 'bad_response', status: 201 });
    expect(error.message).toContain('HTTP 201 with something that is not JSON.');
    expect(error.message).not.toContain('OK then');
    const page = failureOf(() => parseJsonBody(200, '<html><title>Sign in</title><p>form</p></html>'));
    expect(page.message).toContain('not JSON ("Sign in")');
    expect(page.message).not.toContain('form');
  });

  it('returns the parsed value', () => {
    expect(parseJsonBody(200, ' {"a":[1,2]} ')).toEqual({ a: [1, 2] });
  });
});

describe('toReportPage: the paginator shapes', () => {
  it("reads Laravel's un-wrapped paginator (current_page beside data)", () => {
    const page = toReportPage(
      { current_page: 2, data: [report(1)], per_page: 10, total: 31, last_page: 4, from: 11 },
      REQUESTED,
      200,
    );
    expect(page).toEqual({
      reports: [{ id: '1', url: 'https://r1.example.org' }],
      page: 2,
      perPage: 10,
      total: 31,
      lastPage: 4,
    });
  });

  it('prefers a meta object over top-level page fields', () => {
    const page = toReportPage(
      { current_page: 9, data: [], meta: { current_page: 2, per_page: 50, total: 120, last_page: 3 } },
      REQUESTED,
      200,
    );
    expect(page).toMatchObject({ page: 2, perPage: 50, total: 120, lastPage: 3 });
  });

  it('uses top-level page fields when meta is not an object', () => {
    const page = toReportPage({ data: [], meta: 'none', current_page: 3, total: 7 }, REQUESTED, 200);
    expect(page).toMatchObject({ page: 3, perPage: 25, total: 7, lastPage: 1 });
  });

  it('does not read page fields beside data unless current_page marks the paginator', () => {
    expect(toReportPage({ data: [], total: 5, per_page: 5, last_page: 1 }, REQUESTED, 200)).toMatchObject({
      page: 4,
      perPage: 25,
      total: null,
      lastPage: null,
    });
  });

  it('without any page fields, page and size are the requested ones and the totals unknown', () => {
    expect(toReportPage({ data: [report(2)] }, REQUESTED, 200)).toMatchObject({
      page: 4,
      perPage: 25,
      total: null,
      lastPage: null,
    });
  });

  it.each([
    [{ total: 31, per_page: 10 }, 4],
    [{ total: 30, per_page: 10 }, 3],
    [{ total: 29, per_page: 10 }, 3],
    [{ total: 1, per_page: 10 }, 1],
    // No reports is still one (empty) page.
    [{ total: 0, per_page: 10 }, 1],
  ])('computes lastPage from total and per_page when last_page is absent: %j → %i', (meta, lastPage) => {
    expect(toReportPage({ data: [], meta }, REQUESTED, 200).lastPage).toBe(lastPage);
  });

  it('reads numeric strings as numbers', () => {
    const page = toReportPage(
      { data: [], meta: { current_page: '2', per_page: '50', total: '250', last_page: '5' } },
      REQUESTED,
      200,
    );
    expect(page).toMatchObject({ page: 2, perPage: 50, total: 250, lastPage: 5 });
  });

  it('falls back to the request for per_page 0, so lastPage stays finite', () => {
    const page = toReportPage({ data: [], meta: { per_page: 0, total: 100 } }, REQUESTED, 200);
    expect(page.perPage).toBe(25);
    expect(page.lastPage).toBe(4);
  });

  it.each([
    ['a negative total', { total: -5 }],
    ['a fractional total', { total: 2.5 }],
    ['a signed string', { total: '-3' }],
    ['a padded string', { total: ' 250' }],
    ['a string with a trailing space', { total: '250 ' }],
    ['a list holding a number', { total: [5] }],
    ['a total beyond safe integers', { total: 2 ** 53 }],
    ['a boolean', { total: true }],
  ])('treats %s as an unknown total', (_name, meta) => {
    const page = toReportPage({ data: [], meta }, REQUESTED, 200);
    expect(page.total).toBeNull();
    expect(page.lastPage).toBeNull();
  });

  it('ignores page fields below their minimum (page 0, last_page 0, per_page -1)', () => {
    const page = toReportPage(
      { data: [], meta: { current_page: 0, last_page: 0, per_page: -1, total: 60 } },
      REQUESTED,
      200,
    );
    expect(page).toMatchObject({ page: 4, perPage: 25, total: 60, lastPage: 3 });
  });

  it('accepts page 1, last_page 1 and per_page 1 (the minimums themselves)', () => {
    const page = toReportPage(
      { data: [], meta: { current_page: 1, last_page: 1, per_page: 1, total: 0 } },
      REQUESTED,
      200,
    );
    expect(page).toMatchObject({ page: 1, perPage: 1, total: 0, lastPage: 1 });
  });

  it('refuses a shape that is not a list, quoting what the reply said', () => {
    for (const body of [{ items: [] }, null, 'reports', { data: { id: 1 } }]) {
      const error = failureOf(() => toReportPage(body, REQUESTED, 200));
      expect(error.kind).toBe('bad_response');
      expect(error.message).toContain('data in an unexpected shape instead of a list of reports');
    }
    // What the reply says about itself (its message) is quoted, never its data.
    const said = failureOf(() => toReportPage({ message: 'Moved to v2', items: [7] }, REQUESTED, 200));
    expect(said.message).toContain('("Moved to v2")');
    expect(said.message).not.toContain('items');
  });

  it('names the position and the field of the first report it cannot read', () => {
    const error = failureOf(() => toReportPage([report(1), report(2), { id: 3 }], REQUESTED, 200));
    expect(error.message).toContain(
      'a report ReportDesk cannot read (item 3, field "url" is missing or invalid)',
    );
  });

  it('calls an item that is not an object at all "report"', () => {
    const error = failureOf(() => toReportPage([42], REQUESTED, 200));
    expect(error.message).toContain('(item 1, field "report" is missing or invalid)');
    expect(error.message).not.toContain('42');
  });
});

describe('toReport', () => {
  it('unwraps {data: {...}}', () => {
    expect(toReport({ data: report(5) }, 200)).toEqual({ id: '5', url: 'https://r5.example.org' });
  });

  it('keeps a bare record that happens to have a data field', () => {
    const record = { ...report(6), data: { note: 'kept' } };
    expect(toReport(record, 200)).toEqual({ id: '6', url: 'https://r6.example.org', data: { note: 'kept' } });
  });

  it('names the field without a position for a single report', () => {
    const message = failureOf(() => toReport({ id: 7 }, 201)).message;
    expect(message).toContain(
      'HTTP 201 with a report ReportDesk cannot read (field "url" is missing or invalid)',
    );
  });

  it.each([[[report(1)]], [null], ['text'], [3]])('refuses %j as an unexpected shape', (body) => {
    const error = failureOf(() => toReport(body, 200));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toContain('data in an unexpected shape instead of a report');
  });
});

describe('toAccount', () => {
  it('unwraps {data: {...}} and keeps a bare account', () => {
    expect(toAccount({ data: { id: 1, name: 'A' } }, 200)).toEqual({ id: 1, name: 'A' });
    expect(toAccount({ id: 2, data: { x: 1 } }, 200)).toEqual({ id: 2, data: { x: 1 } });
  });

  it.each([[[{ id: 1 }]], [null], ['me'], [7]])('refuses %j as an unexpected shape', (body) => {
    const error = failureOf(() => toAccount(body, 200));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toContain('data in an unexpected shape instead of an account');
  });
});

describe('secrets in a reply (the choke point before cache, screens and terminal)', () => {
  const KEY = 'sk-live-responses-test-key-0042';
  registerSecret(KEY);

  it('a report that echoes a password or the key comes out without them, in a page and alone', () => {
    const echoed = {
      id: 1,
      url: `https://r1.example.org/?k=${KEY}`,
      password: 'hunter22',
      api_token: 't-123456',
    };
    const page = toReportPage(
      parseJsonBody(200, JSON.stringify({ data: [echoed, report(2)] })),
      REQUESTED,
      200,
    );
    const one = toReport(parseJsonBody(200, JSON.stringify({ data: echoed })), 200);
    for (const out of [JSON.stringify(page), JSON.stringify(one)]) {
      for (const secret of [KEY, 'hunter22', 't-123456']) expect(out).not.toContain(secret);
    }
    expect(one.url).toBe('https://r1.example.org/?k=[redacted]');
    // Records without a secret are left as they came.
    expect(page.reports[1]).toEqual({ id: '2', url: 'https://r2.example.org' });
    const account = toAccount(parseJsonBody(200, JSON.stringify({ id: 9, name: 'A', token: 'abcdef' })), 200);
    expect(JSON.stringify(account)).not.toContain('abcdef');
  });

  it('a body that is a bare value (a number, null, text, true) comes back as parsed', () => {
    for (const text of ['42', 'null', '"text"', 'true', '[1,2]'])
      expect({ text, parsed: parseJsonBody(200, text) }).toEqual({ text, parsed: JSON.parse(text) });
  });
});

describe('an unreadable report that says why', () => {
  it('is quoted by its message, never its data', () => {
    const error = failureOf(() =>
      toReportPage([report(1), { id: 2, message: 'Report 2 was deleted', secret_note: 'x' }], REQUESTED, 200),
    );
    expect(error.message).toContain('(item 2, field "url" is missing or invalid) ("Report 2 was deleted")');
    expect(error.message).not.toContain('secret_note');
  });
});
