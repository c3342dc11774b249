import { describe, expect, it } from 'vitest';
import { parseJsonBody, toAccount, toReport, toReportPage } from '../../electron/core/api/responses';
import { recordJson } from '../../electron/core/cache/records';
import { registerSecret } from '../../electron/core/log';
import { REDACTED, isSecretFieldName } from '../../electron/core/redaction';
import { scrubSecrets } from '../../electron/core/secrets';

const KEY = 'scrub-test-key-Zx81Qv55Lm';
const PASSWORD = 'scrub-test-pass-Hy7';

describe('scrubSecrets', () => {
  it('drops secret-looking names at any depth, keeps flags and the fields the spec names', () => {
    const input = {
      id: 7,
      url: 'https://example.com',
      result: 'good',
      generated_at: '2026-01-01T00:00:00Z',
      privacy: 2,
      project: 'alpha',
      results: 1,
      password: 'x1',
      password_confirmation: 'x2',
      Access_Token: 'x3',
      secretNote: 'x4',
      api_key: 'x5',
      nested: { deeper: [{ refresh_token: 'x6', keep: 'yes' }], authorization: 'x7', pass: 'x8' },
      password_protected: true,
      token_expires: null,
    };
    expect(scrubSecrets(input)).toEqual({
      id: 7,
      url: 'https://example.com',
      result: 'good',
      generated_at: '2026-01-01T00:00:00Z',
      privacy: 2,
      project: 'alpha',
      results: 1,
      nested: { deeper: [{ keep: 'yes' }] },
      password_protected: true,
      token_expires: null,
    });
    expect(input.password).toBe('x1');
  });

  it('cuts every known secret out of strings at any depth, and drops fields holding only one', () => {
    registerSecret(KEY);
    const input = {
      id: '1',
      url: `https://example.com/?k=${KEY}`,
      owner: { label: KEY, notes: [`before ${KEY} after`, KEY] },
      [`x-${KEY}`]: 1,
    };
    expect(scrubSecrets(input, [PASSWORD])).toEqual({
      id: '1',
      url: `https://example.com/?k=${REDACTED}`,
      owner: { notes: [`before ${REDACTED} after`] },
    });
    expect(scrubSecrets({ summary: `echo ${PASSWORD}` }, [PASSWORD])).toEqual({
      summary: `echo ${REDACTED}`,
    });
  });

  it('returns the very same object when there is nothing to remove', () => {
    const clean = { id: '3', url: 'https://a.example', tags: ['x'], nested: { ok: 1 } };
    expect(scrubSecrets(clean)).toBe(clean);
  });

  it('names: the spec fields are never secret, look-alikes are', () => {
    for (const name of ['id', 'url', 'result', 'generated_at', 'privacy', 'project', 'results']) {
      expect(isSecretFieldName(name)).toBe(false);
    }
    for (const name of [
      'password',
      'new_password',
      'token',
      'apiToken',
      'secret',
      'client_secret',
      'api_key',
      'apiKey',
    ]) {
      expect(isSecretFieldName(name)).toBe(true);
    }
  });

  it('applies to every record the API client parses', () => {
    registerSecret(KEY);
    registerSecret(PASSWORD);
    const report = toReport(
      {
        data: {
          id: 5,
          url: 'https://x.example',
          result: 'bad',
          generated_at: '2026-01-01T00:00:00Z',
          privacy: 2,
          password_confirmation: PASSWORD,
          protection: { pass: PASSWORD, hint: `not ${PASSWORD}` },
        },
      },
      201,
    );
    expect(JSON.stringify(report)).not.toContain(PASSWORD);
    expect(report).toMatchObject({ id: '5', privacy: 2, protection: { hint: `not ${REDACTED}` } });
    const account = toAccount({ data: { id: 1, email: 'a@example.com', token: KEY, note: KEY } }, 200);
    expect(account).toEqual({ id: 1, email: 'a@example.com' });
  });

  it('finds secrets through the fast path of reply texts, however the service escapes them', () => {
    const slashKey = 'scrub-test/slash/Key-77Aa';
    registerSecret(slashKey);
    // PHP escapes "/" as "\/"; a \u escape can spell a name or a secret.
    const php = `{"data":{"id":1,"note":${JSON.stringify(slashKey).replaceAll('/', '\\/')}}}`;
    expect(toAccount(parseJsonBody(200, php), 200)).toEqual({ id: 1 });
    const spelled = '{"data":{"id":2,"\\u0074oken":"abc123xyz"}}';
    expect(toAccount(parseJsonBody(200, spelled), 200)).toEqual({ id: 2 });
    const page = toReportPage(
      parseJsonBody(200, `[{"id":3,"url":"https://a.example/${KEY}","result":"good"}]`),
      { page: 1, perPage: 10 },
      200,
    );
    expect(page.reports[0].url).toBe(`https://a.example/${REDACTED}`);
    // A clean text keeps its records as they are.
    const clean = toReportPage(
      parseJsonBody(200, '[{"id":4,"url":"https://b.example","result":"bad"}]'),
      { page: 1, perPage: 10 },
      200,
    );
    expect(clean.reports[0]).toMatchObject({ id: '4', url: 'https://b.example', result: 'bad' });
  });

  it('the cache text of a record holds no secret either', () => {
    registerSecret(KEY);
    const record = { id: 9, url: 'https://c.example', echo: { token: KEY, note: `k=${KEY}` } };
    expect(recordJson(record)).toBe(
      JSON.stringify({ id: '9', url: 'https://c.example', echo: { note: `k=${REDACTED}` } }),
    );
  });
});
